// Serves non-admission HTTP handlers (the authorization webhook) on the port of a started controller-runtime
// WebhookServer, as Gardener registers them on the manager's one webhook server. WebhookServer only routes
// AdmissionReviews, so the given paths are dispatched before its own request listener; every other path still
// reaches it. (A public route registration on WebhookServer would make this unnecessary.)
import type { Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { WebhookServer } from '@gardener-ts/controller-runtime';
import type { HttpHandler } from './authorization-handler.js';

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

export function serveAlongside(webhooks: WebhookServer, routes: Map<string, HttpHandler>): void {
  if (routes.size === 0) return;
  const https = Reflect.get(webhooks, 'server') as Server | undefined;
  if (!https || typeof https.listeners !== 'function') throw new Error('the webhook server must be started before routes are added');
  const admission = https.listeners('request') as Listener[];
  https.removeAllListeners('request');
  https.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const route = routes.get(new URL(req.url ?? '/', 'https://webhook').pathname);
    if (route) return route(req, res);
    for (const listener of admission) listener(req, res);
  });
}
