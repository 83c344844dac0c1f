// provider-local's webhooks on a webhook server, by path: the node webhook for the seed and for shoots (the same
// mutator, two paths as Gardener registers two webhooks) and the control plane webhook with the local ensurer.
import type { AdmissionHandler, WebhookServer } from '@gardener-ts/controller-runtime';
import { controlPlaneMutator } from '@gardener-ts/extensions';
import { WebhookPaths } from './configurations.js';
import { LocalEnsurer } from './ensurer.js';
import { nodeMutator } from './node.js';

/** The admission handler of each webhook path provider-local serves. */
export function providerLocalWebhookHandlers(): Map<string, AdmissionHandler> {
  const node = nodeMutator as AdmissionHandler;
  return new Map<string, AdmissionHandler>([
    [WebhookPaths.node, node],
    [WebhookPaths.nodeShoot, node],
    [WebhookPaths.controlPlane, controlPlaneMutator(new LocalEnsurer())],
  ]);
}

/** Registers provider-local's webhooks (all mutating) with `server`. */
export function addProviderLocalWebhooks(server: WebhookServer): void {
  for (const [path, handler] of providerLocalWebhookHandlers()) server.mutating(path, handler);
}
