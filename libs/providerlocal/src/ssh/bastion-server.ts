// The bastion's SSH server (ssh2): a jump host and nothing else. A TCP connection from outside the Bastion's ingress
// ranges is dropped before any SSH byte (the provider's firewall); a client logs in with public-key authentication
// only, as a user whose key the Bastion's user data authorizes (./authorized-keys.ts); once in, it may open
// `direct-tcpip` channels (`ssh -J`, `ssh -W`) to the shoot's machines (./targets.ts) — sessions (shell, exec,
// subsystems) and remote forwarding are refused. A machine port that refuses the connection is tried again on the
// target's fallback port (where a machine without root serves SSH). Access (keys, ingress) is read anew for every connection, so a
// changed Bastion applies without a restart.
import net from 'node:net';
// ssh2 is CommonJS: Node's ESM loader gives its exports as the default export only (the bastion bundle loads it so).
import ssh2, { type Connection, type Server as SSHServer } from 'ssh2';
import type { Logger } from '@gardener-ts/logging';
import { authenticatePublicKey } from './auth.js';
import type { AuthorizedKey } from './authorized-keys.js';
import { ingressAllows, type BastionIngressPolicy } from './ingress.js';
import type { Target } from './targets.js';

const { Server } = ssh2;

/** Who may use the bastion: the authorized keys and the ingress ranges. */
export interface BastionAccess {
  keys: readonly AuthorizedKey[];
  ingress: readonly BastionIngressPolicy[];
}

/** What the bastion server is built from. */
export interface BastionServerOptions {
  /** Host keys (OpenSSH or PEM private keys); see `generateHostKey` (./auth.ts). */
  hostKeys: (string | Buffer)[];
  /** The current access; called for every connection and every authentication attempt. */
  access(): BastionAccess | Promise<BastionAccess>;
  /** Where a `direct-tcpip` request to `host:port` goes, or undefined: refused. */
  resolveTarget(host: string, port: number): Target | undefined | Promise<Target | undefined>;
  log?: Logger;
}

/** A running bastion SSH server. */
export class BastionServer {
  private readonly sockets = new Set<net.Socket>();
  private readonly ssh: SSHServer;
  private readonly tcp: net.Server;

  private constructor(private readonly options: BastionServerOptions) {
    this.ssh = new Server({ hostKeys: options.hostKeys }, (client, info) => this.serve(client, info.ip));
    this.ssh.on('error', (err: Error) => options.log?.debug({ err }, 'SSH server error'));
    this.tcp = net.createServer((socket) => void this.accept(socket));
  }

  /** Starts a server listening on `host:port` (port 0: any free port). */
  static async listen(options: BastionServerOptions, port: number, host?: string): Promise<BastionServer> {
    const server = new BastionServer(options);
    await new Promise<void>((resolve, reject) => {
      server.tcp.once('error', reject);
      server.tcp.listen(port, host, () => {
        server.tcp.off('error', reject);
        resolve();
      });
    });
    return server;
  }

  /** The address the server listens on. */
  address(): { address: string; port: number } {
    const address = this.tcp.address() as net.AddressInfo;
    return { address: address.address, port: address.port };
  }

  /** Stops listening and closes every connection. */
  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.tcp.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }

  private async accept(socket: net.Socket): Promise<void> {
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    const address = socket.remoteAddress ?? '';
    let allowed = false;
    try {
      allowed = ingressAllows((await this.options.access()).ingress, address);
    } catch (err) {
      this.options.log?.error({ err }, 'Could not read the bastion access');
    }
    if (!allowed) {
      this.options.log?.info({ address }, 'Connection from outside the ingress ranges dropped');
      socket.destroy();
      return;
    }
    this.ssh.injectSocket(socket);
  }

  private serve(client: Connection, address: string): void {
    const log = this.options.log?.child({ address });
    client.on('error', (err) => log?.debug({ err }, 'SSH connection error'));
    client.on(
      'authentication',
      (ctx) => void authenticatePublicKey(ctx, async () => (await this.options.access()).keys, log),
    );
    client.on('ready', () => {
      client.on('session', (_accept, reject) => {
        log?.info('Session refused: the bastion has no shell');
        reject();
      });
      client.on('request', (_accept, reject, name) => {
        log?.info({ request: name }, 'Request refused');
        reject?.();
      });
      client.on('tcpip', (accept, reject, info) => void this.forward(accept, reject, info, log));
    });
  }

  private async forward(
    accept: () => NodeJS.ReadWriteStream & { destroy?: () => void },
    reject: () => void,
    info: { destIP: string; destPort: number },
    log: Logger | undefined,
  ): Promise<void> {
    let target: Target | undefined;
    try {
      target = await this.options.resolveTarget(info.destIP, info.destPort);
    } catch (err) {
      log?.error({ err }, 'Could not resolve the forwarding target');
    }
    if (!target) {
      log?.info({ destination: `${info.destIP}:${info.destPort}` }, 'Forwarding refused');
      reject();
      return;
    }
    let upstream: net.Socket;
    try {
      upstream = await connectTarget(target);
    } catch (err) {
      log?.info({ err, target }, 'Forwarding target unreachable');
      reject();
      return;
    }
    const channel = accept();
    upstream.on('error', () => channel.destroy?.());
    channel.on('error', () => upstream.destroy());
    channel.pipe(upstream).pipe(channel);
    log?.info({ target: { host: target.host, port: upstream.remotePort } }, 'Forwarding');
  }
}

/** A connection to `host:port`. */
function connect(host: string, port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, host);
    socket.once('error', reject);
    socket.once('connect', () => {
      socket.off('error', reject);
      resolve(socket);
    });
  });
}

/**
 * A connection to the target's port, else — when that port refuses it and the target has one — to its fallback port
 * (a machine without root serves SSH there, ./targets.ts).
 */
export async function connectTarget(target: Target): Promise<net.Socket> {
  try {
    return await connect(target.host, target.port);
  } catch (err) {
    const refused = (err as NodeJS.ErrnoException).code === 'ECONNREFUSED';
    if (!refused || target.fallbackPort === undefined) throw err;
    return connect(target.host, target.fallbackPort);
  }
}
