// `sshd` on a local machine: the node SSH server (./node-server.ts) as a program of the machine's unit runner
// (@gardener-ts/nodeagent's `LocalMachine` `programs`, keyed by ExecStart path, e.g. `/usr/sbin/sshd`), run in the
// machine's process while its unit is active. As OpenSSH's sshd: port 22 unless `-p <port>` (or `-o Port=<port>`)
// says otherwise, listening on every address (the pod network binds the machine Pod's own), the ed25519 host key at
// `/etc/ssh/ssh_host_ed25519_key` of the node, made on first start and kept (as `ssh-keygen -A` does at boot).
// A machine run without root cannot bind port 22 (nor another port below 1024): its sshd then listens on the
// unprivileged port of ./targets.ts (2222 for 22) on the same address, where the bastion looks when 22 refuses.
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Logger } from '@gardener-ts/logging';
import { generateHostKey } from './auth.js';
import { NodeSSHServer, type NodeSSHServerOptions } from './node-server.js';
import { unprivilegedPort } from './targets.js';

/** Where sshd is on a node: the ExecStart program of the OperatingSystemConfig's `sshd.service`. */
export const SSHDBinary = '/usr/sbin/sshd';

/** Where a node keeps its SSH host key. */
export const HostKeyPath = '/etc/ssh/ssh_host_ed25519_key';

/** The node's host key below `rootDir`, made and saved (mode 0600) when there is none. */
export async function nodeHostKey(rootDir: string): Promise<string> {
  const path = join(rootDir, HostKeyPath);
  const existing = await readFile(path, 'utf8').catch(() => undefined);
  if (existing) return existing;
  const key = generateHostKey();
  await mkdir(dirname(path), { recursive: true });
  // Written whole or not at all (temp file + rename): a start that reads it meanwhile never sees half a key.
  const temp = `${path}.${process.pid}.tmp`;
  await writeFile(temp, key, { mode: 0o600 });
  await rename(temp, path);
  return key;
}

/** The port of sshd's arguments: `-p <port>`, `-p<port>`, `-o Port=<port>`; 22 otherwise. */
export function sshdPort(args: readonly string[]): number {
  let port = 22;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const value =
      arg === '-p'
        ? args[++i]
        : arg.startsWith('-p')
          ? arg.slice(2)
          : arg === '-o' && /^port[= ]/i.test(args[i + 1] ?? '')
            ? args[++i]!.slice(5)
            : undefined;
    if (value === undefined) continue;
    const n = Number(value.trim());
    if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`sshd: bad port ${JSON.stringify(value)}`);
    port = n;
  }
  return port;
}

/** Options of the machine's sshd program. */
export interface SSHDProgramOptions {
  log?: Logger;
  /** The address to listen on; every address by default (sshd's `ListenAddress` default). */
  host?: string;
  /** Told the address once the server listens. */
  onListening?: (address: { address: string; port: number }) => void;
  /** Whether a privileged port that cannot be bound (no root) moves to its unprivileged port; true by default. */
  unprivilegedFallback?: boolean;
}

/**
 * `listen(port)`, or — when binding a privileged port is not permitted (EACCES: no root) and `fallback` holds —
 * `listen` on its unprivileged port (./targets.ts).
 */
export async function listenWithUnprivilegedFallback<T>(
  listen: (port: number) => Promise<T>,
  port: number,
  fallback = true,
  log?: Logger,
): Promise<T> {
  try {
    return await listen(port);
  } catch (err) {
    const alternative = unprivilegedPort(port);
    if (!fallback || alternative === undefined || (err as NodeJS.ErrnoException).code !== 'EACCES') throw err;
    log?.info({ port, alternative }, 'No permission to bind the SSH port: listening on the unprivileged one');
    return listen(alternative);
  }
}

/**
 * The launcher of the machine's sshd: for the unit runner, an in-process run (it ends when the unit stops) of the node
 * SSH server in the machine's root directory.
 */
export function sshdProgram(options: SSHDProgramOptions = {}) {
  return (args: string[], context: { rootDir: string }) => ({
    run: async (signal: AbortSignal): Promise<void> => {
      const serverOptions: NodeSSHServerOptions = {
        hostKeys: [await nodeHostKey(context.rootDir)],
        rootDir: context.rootDir,
        ...(options.log ? { log: options.log } : {}),
      };
      const server = await listenWithUnprivilegedFallback(
        (port) => NodeSSHServer.listen(serverOptions, port, options.host),
        sshdPort(args),
        options.unprivilegedFallback ?? true,
        options.log,
      );
      options.onListening?.(server.address());
      options.log?.info(server.address(), 'sshd listening');
      if (!signal.aborted) await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      await server.close();
    },
  });
}

/**
 * The programs a local machine adds for SSH access (its `LocalMachine` `programs`): `/usr/sbin/sshd`, the node SSH
 * server, listening on `options.host` (the machine Pod's address).
 */
export function machineSSHPrograms(options: SSHDProgramOptions = {}): Record<string, ReturnType<typeof sshdProgram>> {
  return { [SSHDBinary]: sshdProgram(options) };
}
