// The transport's request deadline against real sockets: an API server that accepts and never answers, or answers
// the headers and never the body, fails the request with a clear timeout; a watch is never cut by it; a caller's
// abort stays an abort.
import { createServer as createHttpServer, type Server as HttpServer, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from './client.js';
import { Transport } from './transport.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** A kubeconfig as `kubectl config` writes one for a plain-HTTP server (client-node wants skipTLSVerify for http:). */
function kubeConfigFor(server: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'hanging', server, skipTLSVerify: true }],
    users: [{ name: 'admin', token: 'secret-token' }],
    contexts: [{ name: 'hanging', cluster: 'hanging', user: 'admin' }],
    currentContext: 'hanging',
  });
  return kc;
}

/** A TCP server that accepts every connection and never writes a byte. */
async function silentServer(): Promise<string> {
  const sockets = new Set<Socket>();
  const server: NetServer = createNetServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => {
    for (const socket of sockets) socket.destroy();
    server.close();
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** An HTTP server whose handler decides when (if ever) to finish. */
async function httpServer(handler: (path: string, res: ServerResponse) => void): Promise<string> {
  const server: HttpServer = createHttpServer((req, res) => handler(req.url ?? '', res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => {
    server.closeAllConnections();
    server.close();
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const configMapKind = { group: '', version: 'v1', kind: 'ConfigMap' };

describe('Transport request deadline', () => {
  it('fails a request to an API server that accepts and never answers', async () => {
    const url = await silentServer();
    const client = await ApiClient.create(kubeConfigFor(url), { requestTimeoutMs: 300 });
    cleanups.push(() => client.close());
    const get = client.get(configMapKind, { namespace: 'default', name: 'settings' });
    await expect(get).rejects.toMatchObject({ name: 'ApiError', code: 0, reason: 'Timeout' });
    // The client's first request is discovery (the REST mapper), and it is the one that times out.
    await expect(get).rejects.toThrow(
      `GET ${url}/api/v1: no complete answer within 0.3s (the client's request timeout): context deadline exceeded`,
    );
  });

  it('fails a request whose answer starts and never ends', async () => {
    const url = await httpServer((_path, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"kind":"ConfigMap",');
      const tick = setInterval(() => res.write(' '), 50); // never idle, never done
      res.on('close', () => clearInterval(tick));
    });
    const transport = await Transport.fromKubeConfig(kubeConfigFor(url), { requestTimeoutMs: 300 });
    cleanups.push(() => transport.close());
    await expect(
      transport.request({ method: 'GET', path: '/api/v1/namespaces/default/configmaps/settings' }),
    ).rejects.toMatchObject({ reason: 'Timeout' });
  });

  it('answers within the deadline as before, and leaves a watch open longer than the deadline', async () => {
    const url = await httpServer((path, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      if (!path.includes('watch=true'))
        return res.end(JSON.stringify({ kind: 'ConfigMap', metadata: { name: 'settings' } }));
      // The first event comes after several request deadlines have passed.
      const event = setTimeout(() => {
        res.write(
          JSON.stringify({
            type: 'ADDED',
            object: { kind: 'ConfigMap', metadata: { name: 'late', resourceVersion: '7' } },
          }) + '\n',
        );
        res.end();
      }, 1_000);
      res.on('close', () => clearTimeout(event));
    });
    const transport = await Transport.fromKubeConfig(kubeConfigFor(url), { requestTimeoutMs: 200 });
    cleanups.push(() => transport.close());
    expect(
      await transport.request({ method: 'GET', path: '/api/v1/namespaces/default/configmaps/settings' }),
    ).toMatchObject({ metadata: { name: 'settings' } });
    const items: unknown[] = [];
    await transport.stream(
      { method: 'GET', path: '/api/v1/configmaps', query: new URLSearchParams({ watch: 'true' }) },
      (item) => items.push(item),
    );
    expect(items).toEqual([
      { type: 'ADDED', object: { kind: 'ConfigMap', metadata: { name: 'late', resourceVersion: '7' } } },
    ]);
  });

  it("reports the caller's own abort as an abort, not a timeout", async () => {
    const url = await silentServer();
    const transport = await Transport.fromKubeConfig(kubeConfigFor(url), { requestTimeoutMs: 10_000 });
    cleanups.push(() => transport.close());
    const controller = new AbortController();
    const request = transport.request({ method: 'GET', path: '/api/v1/namespaces', signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(request).rejects.toMatchObject({ reason: 'Aborted' });
  });

  it('refuses a negative timeout', async () => {
    await expect(
      Transport.fromKubeConfig(kubeConfigFor('http://127.0.0.1:1'), { requestTimeoutMs: -1 }),
    ).rejects.toThrow('requestTimeoutMs must be a non-negative number');
  });
});
