// The component's HTTP endpoints: /healthz, /readyz (health probes) and /metrics (Prometheus).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import type { Endpoint } from '@gardener-ts/component-config';
import type { Checks } from './health.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export interface ServedEndpoints {
  healthProbes: Endpoint;
  metrics: Endpoint;
}

export function healthHandlers(health: Checks, ready: Checks): Record<string, Handler> {
  const probe =
    (checks: Checks): Handler =>
    async (req, res) => {
      const { ok, results } = await checks.run();
      res.writeHead(ok ? 200 : 500, { 'content-type': 'text/plain; charset=utf-8' });
      if (new URL(req.url ?? '/', 'http://x').searchParams.has('verbose')) {
        const lines = Object.entries(results).map(([n, r]) => `[${r ? '+' : '-'}]${n} ${r ? 'ok' : 'failed'}`);
        res.end([...lines, ok ? 'healthz check passed' : 'healthz check failed'].join('\n') + '\n');
      } else {
        res.end(ok ? 'ok' : 'failed');
      }
    };
  return { '/healthz': probe(health), '/livez': probe(health), '/readyz': probe(ready) };
}

export function metricsHandlers(registry: Registry): Record<string, Handler> {
  return {
    '/metrics': async (_req, res) => {
      const body = await registry.metrics();
      res.writeHead(200, { 'content-type': registry.contentType });
      res.end(body);
    },
  };
}

/** Starts one server per distinct endpoint; endpoints that share address and port share a server. */
export async function startServers(
  endpoints: ServedEndpoints,
  handlers: { healthProbes: Record<string, Handler>; metrics: Record<string, Handler> },
): Promise<{ servers: Server[]; addresses: ServedEndpoints }> {
  const groups = new Map<
    string,
    { endpoint: Endpoint; routes: Record<string, Handler>; names: (keyof ServedEndpoints)[] }
  >();
  for (const name of ['healthProbes', 'metrics'] as const) {
    const e = endpoints[name];
    const key = `${e.bindAddress}:${e.port}`;
    // Port 0 asks for a free port each; never merge those.
    const groupKey = e.port === 0 ? `${key}/${name}` : key;
    const group = groups.get(groupKey) ?? { endpoint: e, routes: {}, names: [] };
    Object.assign(group.routes, handlers[name]);
    group.names.push(name);
    groups.set(groupKey, group);
  }
  const servers: Server[] = [];
  const addresses = { ...endpoints };
  for (const group of groups.values()) {
    const server = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      const handler = group.routes[path];
      if (!handler || (req.method !== 'GET' && req.method !== 'HEAD')) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      handler(req, res).catch(() => {
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(group.endpoint.port, group.endpoint.bindAddress, () => resolve());
    });
    const port = (server.address() as AddressInfo).port;
    for (const name of group.names) addresses[name] = { bindAddress: group.endpoint.bindAddress, port };
    servers.push(server);
  }
  return { servers, addresses };
}

export function closeServers(servers: Server[]): Promise<void> {
  return Promise.all(
    servers.map(
      (s) =>
        new Promise<void>((resolve) => {
          s.close(() => resolve());
          s.closeAllConnections();
        }),
    ),
  ).then(() => undefined);
}
