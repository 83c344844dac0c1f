// The kubelet's HTTPS endpoint on 127.0.0.1, for the API server to proxy `kubectl logs` and `kubectl exec` to:
//   GET       /containerLogs/<namespace>/<pod>/<container>
//   GET|POST  /exec/<namespace>/<pod>/<container>      framed response (exec-stream.ts)
//   upgrade   /exec/<namespace>/<pod>/<container>      WebSocket, kubectl's channel protocol (exec-websocket.ts)
//   GET       /healthz
import { createServer, type Server } from 'node:https';
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Logger } from '@gardener-ts/logging';
import type { PodWorker } from '../pods/pod-worker.js';
import { serveExec } from './exec-handler.js';
import { serveExecWebSocket } from './exec-websocket.js';
import { serveLogs } from './logs-handler.js';
import { HttpError, sendStatus } from './responses.js';
import type { ServingCert } from './serving-cert.js';

export interface PodLookup {
  find(namespace: string, name: string): PodWorker | undefined;
}

export interface KubeletServerOptions {
  port: number;
  /** Absent (serverTLSBootstrap before the first issued certificate): every TLS handshake fails until `useCert`. */
  cert?: ServingCert;
  /** When set, clients must present a certificate signed by this CA (the API server's kubelet client certificate). */
  clientCaPem?: string;
}

export class KubeletServer {
  private constructor(
    private readonly server: Server,
    private readonly clientCaPem: string | undefined,
  ) {}

  static async start(options: KubeletServerOptions, pods: PodLookup, log: Logger): Promise<KubeletServer> {
    const server = createServer(
      {
        cert: options.cert?.certPem,
        key: options.cert?.keyPem,
        ca: options.clientCaPem,
        requestCert: !!options.clientCaPem,
        rejectUnauthorized: !!options.clientCaPem,
      },
      (req, res) => {
        route(req, res, pods).catch((err) => {
          if (!(err instanceof HttpError)) log.error({ err, url: req.url }, 'Kubelet request failed');
          sendStatus(res, err instanceof HttpError ? err.code : 500, (err as Error).message);
        });
      },
    );
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      try {
        const { kind, worker, container } = podRoute(req, pods);
        if (kind !== 'exec') throw new HttpError(400, `${kind} does not upgrade`);
        serveExecWebSocket(worker, container, req, socket, head);
      } catch (err) {
        const code = err instanceof HttpError ? err.code : 500;
        const message = (err as Error).message;
        socket.end(
          `HTTP/1.1 ${code} ${STATUS_CODES[code]}\r\ncontent-type: text/plain\r\ncontent-length: ${Buffer.byteLength(message)}\r\nconnection: close\r\n\r\n${message}`,
        );
      }
    });
    // Without a certificate (kube: "no serving certificate available for the kubelet") or with a client that does
    // not trust it, the handshake fails; worth a line at debug level only.
    server.on('tlsClientError', (err) => log.debug({ err: err.message }, 'TLS handshake error'));
    await new Promise<void>((listening, failed) => {
      server.once('error', failed);
      server.listen(options.port, '127.0.0.1', () => listening());
    });
    return new KubeletServer(server, options.clientCaPem);
  }

  /** Serves new connections with this certificate (a bootstrapped or rotated one); open connections keep theirs. */
  useCert(cert: ServingCert): void {
    this.server.setSecureContext({ cert: cert.certPem, key: cert.keyPem, ca: this.clientCaPem });
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((done) => this.server.close(() => done()));
  }
}

async function route(req: IncomingMessage, res: ServerResponse, pods: PodLookup): Promise<void> {
  if (new URL(req.url ?? '/', 'https://kubelet').pathname === '/healthz') {
    res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
    return;
  }
  const { kind, worker, container, query } = podRoute(req, pods);
  if (kind === 'containerLogs') {
    if (req.method !== 'GET') throw new HttpError(405, `${req.method} is not allowed on containerLogs`);
    await serveLogs(worker, container, query, req, res);
  } else {
    if (req.method !== 'GET' && req.method !== 'POST') throw new HttpError(405, `${req.method} is not allowed on exec`);
    await serveExec(worker, container, query, req, res);
  }
}

function podRoute(req: IncomingMessage, pods: PodLookup) {
  const url = new URL(req.url ?? '/', 'https://kubelet');
  const match = /^\/(containerLogs|exec)\/([^/]+)\/([^/]+)\/([^/]+)\/?$/.exec(url.pathname);
  if (!match) throw new HttpError(404, `no handler for ${url.pathname}`);
  const [, kind, namespace, name, container] = match.map(decodeURIComponent);
  const worker = pods.find(namespace, name);
  if (!worker) throw new HttpError(404, `pod ${namespace}/${name} is not running on this node`);
  return { kind: kind as 'containerLogs' | 'exec', worker, container, query: url.searchParams };
}
