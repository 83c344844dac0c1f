// A TCP proxy between client and API server that a test can cut (drop every connection) or pause (refuse new ones).
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export class TcpProxy {
  private readonly sockets = new Set<Socket>();
  private paused = false;
  /** Connections cut so far. */
  cuts = 0;

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(targetPort: number, targetHost = '127.0.0.1'): Promise<TcpProxy> {
    const server = createServer((client) => {
      if (proxy.paused) return void client.destroy();
      const upstream = connect(targetPort, targetHost);
      proxy.track(client);
      proxy.track(upstream);
      client.pipe(upstream).pipe(client);
      const close = () => {
        client.destroy();
        upstream.destroy();
      };
      client.on('error', close).on('close', close);
      upstream.on('error', close).on('close', close);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const proxy = new TcpProxy(server, (server.address() as AddressInfo).port);
    return proxy;
  }

  /** Drops every open connection (watches and idle keep-alive sockets alike). */
  cut(): void {
    for (const s of this.sockets) s.destroy();
    this.cuts++;
  }

  /** Cuts and refuses new connections until `resume`. */
  pause(): void {
    this.paused = true;
    this.cut();
  }

  resume(): void {
    this.paused = false;
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private track(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
  }
}
