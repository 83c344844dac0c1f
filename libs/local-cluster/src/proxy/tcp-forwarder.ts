// One listening socket for one Service port: each connection goes to the next ready endpoint (round robin). With no
// ready endpoint a connection is reset at once, as kube-proxy rejects traffic to a Service without endpoints.
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

  private forward(client: Socket): void {
    this.track(client);
    if (this.backends.length === 0) return void client.resetAndDestroy();
    const backend = this.backends[this.next++ % this.backends.length];
    const upstream = createConnection({ host: backend.host, port: backend.port });
    this.track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    upstream.on('error', () => client.resetAndDestroy());
    client.on('error', () => upstream.destroy());
    client.on('close', () => upstream.end());
    upstream.on('close', () => client.end());
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
