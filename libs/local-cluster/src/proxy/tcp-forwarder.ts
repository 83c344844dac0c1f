// One listening socket for one Service port: each connection goes to the next ready endpoint (round robin). With no
// ready endpoint (or none that accepts) a connection is reset at once, as kube-proxy rejects traffic to a Service
// without endpoints.
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export interface Backend {
  host: string;
  port: number;
}

export class TcpForwarder {
  private backends: Backend[] = [];
  private next = 0;
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();

  private constructor(readonly host: string, readonly port: number, server: Server) {
    this.server = server;
  }

  /** Listens on host:port (port 0: any free port; the chosen one is `port`). Rejects when the port is taken. */
  static async listen(host: string, port: number): Promise<TcpForwarder> {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const forwarder = new TcpForwarder(host, (server.address() as { port: number }).port, server);
    server.on('connection', (socket) => forwarder.forward(socket));
    return forwarder;
  }

  setBackends(backends: Backend[]): void {
    this.backends = backends;
  }

  // The client's bytes wait until a backend accepted the connection. A backend that refuses (its process just
  // ended, the EndpointSlice has not caught up yet) is skipped for the next one, so a rollout drops no connection.
  private forward(client: Socket): void {
    this.track(client);
    client.pause();
    client.on('error', () => undefined);
    this.connect(client, Math.max(this.backends.length, 1));
  }

  private connect(client: Socket, attemptsLeft: number): void {
    if (this.backends.length === 0 || attemptsLeft === 0 || client.destroyed) return void client.resetAndDestroy();
    const backend = this.backends[this.next++ % this.backends.length];
    const upstream = createConnection({ host: backend.host, port: backend.port });
    this.track(upstream);
    let connected = false;
    upstream.on('error', () => (connected ? client.resetAndDestroy() : this.connect(client, attemptsLeft - 1)));
    upstream.once('connect', () => {
      connected = true;
      client.pipe(upstream);
      upstream.pipe(client);
      client.on('error', () => upstream.destroy());
      client.on('close', () => upstream.end());
      upstream.on('close', () => client.end());
      client.resume();
    });
  }

  private track(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
