// The SSH server of a local machine (ssh2; what sshd is on a Gardener node): public-key login for the keys in the
// authorized_keys files of the node's users (`<root>/home/<user>/.ssh/authorized_keys`, `<root>/root/.ssh/...`, where
// the OperatingSystemConfig puts the shoot's `ssh-keypair` key), read for every attempt; `exec` and `shell` sessions
// run the node's shell as a process of the machine, in the node's root directory (a machine is a directory, not a
// VM). There is no pseudo-terminal: a `pty` request is granted but the shell reads plain pipes (no prompt, no job
// control). Forwarding and subsystems (sftp) are refused.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import net from 'node:net';
import { join } from 'node:path';
import ssh2, { type Connection, type ServerChannel, type Server as SSHServer } from 'ssh2';
import type { Logger } from '@gardener-ts/logging';
import { authenticatePublicKey } from './auth.js';
import { parseAuthorizedKeyLine, type AuthorizedKey } from './authorized-keys.js';

const { Server } = ssh2;

/** What a node's SSH server is built from. */
export interface NodeSSHServerOptions {
  /** Host keys (OpenSSH or PEM private keys); see `generateHostKey` (./auth.ts). */
  hostKeys: (string | Buffer)[];
  /** The node's root directory: the users' authorized_keys files are below it, commands run in it. */
  rootDir: string;
  /** The authorized keys; default: the node's authorized_keys files (`readNodeAuthorizedKeys`). */
  authorizedKeys?: () => readonly AuthorizedKey[] | Promise<readonly AuthorizedKey[]>;
  /** The login shell; `/bin/bash` by default. */
  shell?: string;
  /** Environment of every command besides PATH, HOME, USER, SHELL and MACHINE_ROOT_DIR. */
  env?: Record<string, string>;
  log?: Logger;
}

/** The authorized keys of the node's users: `<root>/root/.ssh/authorized_keys` and `<root>/home/<user>/.ssh/...`. */
export async function readNodeAuthorizedKeys(rootDir: string): Promise<AuthorizedKey[]> {
  const files: { user: string; path: string }[] = [{ user: 'root', path: join(rootDir, 'root/.ssh/authorized_keys') }];
  const homes = await readdir(join(rootDir, 'home'), { withFileTypes: true }).catch(() => []);
  for (const home of homes) {
    if (home.isDirectory())
      files.push({ user: home.name, path: join(rootDir, 'home', home.name, '.ssh/authorized_keys') });
  }
  const keys: AuthorizedKey[] = [];
  for (const { user, path } of files) {
    const text = await readFile(path, 'utf8').catch(() => '');
    for (const line of text.split('\n')) {
      const key = parseAuthorizedKeyLine(line, user);
      if (key) keys.push(key);
    }
  }
  return keys;
}

/** The environment a session of `user` gets (the client's `LANG`/`LC_*` as sshd's default AcceptEnv). */
export function sessionEnv(
  options: Pick<NodeSSHServerOptions, 'rootDir' | 'shell' | 'env'>,
  user: string,
  clientEnv: Record<string, string> = {},
): Record<string, string> {
  const accepted = Object.fromEntries(Object.entries(clientEnv).filter(([k]) => k === 'LANG' || k.startsWith('LC_')));
  return {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    ...options.env,
    ...accepted,
    HOME: user === 'root' ? join(options.rootDir, 'root') : join(options.rootDir, 'home', user),
    USER: user,
    LOGNAME: user,
    SHELL: options.shell ?? '/bin/bash',
    MACHINE_ROOT_DIR: options.rootDir,
  };
}

/** A running node SSH server. */
export class NodeSSHServer {
  private readonly ssh: SSHServer;
  private readonly processes = new Set<ChildProcess>();
  private readonly clients = new Set<Connection>();

  private constructor(private readonly options: NodeSSHServerOptions) {
    this.ssh = new Server({ hostKeys: options.hostKeys }, (client, info) => this.serve(client, info.ip));
    this.ssh.on('error', (err: Error) => options.log?.debug({ err }, 'SSH server error'));
  }

  /** Starts a server listening on `host:port` (port 0: any free port). */
  static async listen(options: NodeSSHServerOptions, port: number, host?: string): Promise<NodeSSHServer> {
    const server = new NodeSSHServer(options);
    await new Promise<void>((resolve, reject) => {
      server.ssh.once('error', reject);
      server.ssh.listen(port, host, () => {
        server.ssh.off('error', reject);
        resolve();
      });
    });
    return server;
  }

  /** The address the server listens on. */
  address(): { address: string; port: number } {
    const address = this.ssh.address() as net.AddressInfo;
    return { address: address.address, port: address.port };
  }

  /** Stops listening, ends the sessions' processes. */
  async close(): Promise<void> {
    for (const child of this.processes) child.kill('SIGTERM');
    const closed = new Promise<void>((resolve) => this.ssh.close(() => resolve()));
    for (const client of this.clients) client.end();
    await closed;
  }

  private serve(client: Connection, address: string): void {
    const log = this.options.log?.child({ address });
    let user = '';
    const keys = this.options.authorizedKeys ?? (() => readNodeAuthorizedKeys(this.options.rootDir));
    this.clients.add(client);
    client.once('close', () => this.clients.delete(client));
    client.on('error', (err) => log?.debug({ err }, 'SSH connection error'));
    client.on('authentication', (ctx) => {
      user = ctx.username;
      void authenticatePublicKey(ctx, keys, log);
    });
    client.on('ready', () => {
      client.on('tcpip', (_accept, reject) => reject());
      client.on('request', (_accept, reject) => reject?.());
      client.on('session', (acceptSession) => {
        const session = acceptSession();
        const env: Record<string, string> = {};
        let child: ChildProcess | undefined;
        session.on('pty', (accept) => accept?.());
        session.on('env', (accept, _reject, info) => {
          env[info.key] = info.val;
          accept?.();
        });
        session.on('signal', (accept, _reject, info) => {
          child?.kill(`SIG${info.name}` as NodeJS.Signals);
          accept?.();
        });
        session.on('subsystem', (_accept, reject) => reject());
        session.on('exec', (accept, _reject, info) => {
          child = this.run(accept(), ['-c', info.command], sessionEnv(this.options, user, env));
        });
        session.on('shell', (accept) => {
          child = this.run(accept(), [], sessionEnv(this.options, user, env));
        });
      });
    });
  }

  /** Runs the shell with `args` on the channel: its stdin, stdout, stderr and exit status. */
  private run(channel: ServerChannel, args: string[], env: Record<string, string>): ChildProcess {
    const child = spawn(this.options.shell ?? '/bin/bash', args, { cwd: this.options.rootDir, env });
    this.processes.add(child);
    channel.pipe(child.stdin);
    child.stdout.pipe(channel, { end: false });
    child.stderr.pipe(channel.stderr, { end: false });
    child.stdin.on('error', () => undefined);
    child.once('error', (err) => {
      channel.stderr.write(`${err.message}\n`);
      channel.exit(127);
      channel.end();
    });
    child.once('close', (code, signal) => {
      this.processes.delete(child);
      if (signal) channel.exit(signal.replace(/^SIG/, ''), false, '');
      else channel.exit(code ?? 0);
      channel.end();
    });
    return child;
  }
}
