// kube's kubelet healthz endpoint (`healthzPort`, default 10248 in kube, on `healthzBindAddress`, default 127.0.0.1):
// plain HTTP, `GET /healthz` answers `ok` while the kubelet runs. gardener-node-agent's health check asks it and
// restarts a kubelet that stops answering.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running healthz endpoint. */
export interface HealthzServer {
  port: number;
  stop(): Promise<void>;
}

/** Serves `/healthz` on `address:port` (port 0: any free port). */
export async function startHealthzServer(address: string, port: number): Promise<HealthzServer> {
  const server: Server = createServer((req, res) => {
    const ok = new URL(req.url ?? '/', 'http://kubelet').pathname === '/healthz';
    res.writeHead(ok ? 200 : 404, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end(ok ? 'ok' : '404 page not found\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, address, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
