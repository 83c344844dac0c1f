// One listening socket for one TCP Service port: each connection goes to the endpoint the BackendPicker chooses
// (round robin, or the client's affinity). With no ready endpoint (or none that accepts) a connection is reset at
// once, as kube-proxy rejects traffic to a Service without endpoints.
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { BackendPicker, backendKey, type Backend } from './backend-picker.js';

export class TcpForwarder {
  private readonly picker = new BackendPicker();
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();

  private constructor(
    readonly host: string,
    readonly port: number,
    server: Server,
  ) {
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

  /** The ready endpoints, and the ClientIP affinity timeout (undefined: none). */
  setBackends(backends: Backend[], affinityMs?: number): void {
    this.picker.update(backends, affinityMs);
  }

  // The client's bytes wait until a backend accepted the connection. A backend that refuses (its process just
  // ended, the EndpointSlice has not caught up yet) is skipped for the next one, so a rollout drops no connection.
  private forward(client: Socket): void {
    this.track(client);
    client.pause();
    client.on('error', () => undefined);
    this.connect(client, client.remoteAddress ?? '', new Set());
  }

  /** `tried`: the endpoints that refused this connection already; each is tried once. */
  private connect(client: Socket, address: string, tried: Set<string>): void {
    const backend = client.destroyed ? undefined : this.picker.pick(address, tried);
    if (!backend) return void client.resetAndDestroy();
    const upstream = createConnection({ host: backend.host, port: backend.port });
    this.track(upstream);
    let connected = false;
    upstream.on('error', () => {
      if (connected) return void client.resetAndDestroy();
      this.picker.failed(address, backend);
      this.connect(client, address, tried.add(backendKey(backend)));
    });
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
