// A real nats-server for a test: on a port the OS picks, JetStream in a temporary directory when asked, and a
// configuration file for users and permissions when given. It can be halted and restarted on the same port to test
// what clients do while NATS is down.
import { accessSync, constants } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { startProcess, waitFor, type RunningProcess } from '@gardener-ts/test-support';

export interface NatsServerOptions {
  /** Enable JetStream, storing in the server's temporary directory. */
  jetstream?: boolean;
  /** nats-server configuration text (e.g. an authorization block), written to a file and passed with -c. */
  config?: string;
  /** A fixed port; by default the server binds a free one and reports it. */
  port?: number;
  /** How long to wait for the server to be ready; default 15 s. */
  timeoutMs?: number;
}

export interface NatsServer {
  /** nats://127.0.0.1:<port> */
  url: string;
  port: number;
  /** The server's temporary directory (configuration, JetStream store). */
  dir: string;
  /** Everything the server logged so far. */
  output(): string;
  /** Stops the process and keeps its state, to simulate an outage. */
  halt(): Promise<void>;
  /** Starts a halted server again on the same port with the same configuration and JetStream store. */
  restart(): Promise<void>;
  /** Stops the server and removes its directory. */
  stop(): Promise<void>;
}

/** The nats-server binary: $NATS_SERVER, else nats-server on PATH, else /usr/sbin/nats-server (Debian). */
export function natsServerBinary(): string {
  const candidates = [
    process.env.NATS_SERVER,
    ...(process.env.PATH ?? '')
      .split(delimiter)
      .filter(Boolean)
      .map((dir) => join(dir, 'nats-server')),
    '/usr/sbin/nats-server',
  ].filter((c): c is string => Boolean(c));
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not this one
    }
  }
  throw new Error(
    'nats-server not found: install it (npm run bootstrap installs the Debian package) or set NATS_SERVER',
  );
}

export async function startNatsServer(options: NatsServerOptions = {}): Promise<NatsServer> {
  const binary = natsServerBinary();
  const dir = await mkdtemp(join(tmpdir(), 'gardener-ts-nats-'));
  const timeoutMs = options.timeoutMs ?? 15_000;
  const args = ['-a', '127.0.0.1', '-DV=false'];
  if (options.config !== undefined) {
    await writeFile(join(dir, 'nats.conf'), options.config);
    args.push('-c', join(dir, 'nats.conf'));
  }
  if (options.jetstream) args.push('-js', '-sd', join(dir, 'jetstream'));

  let proc: RunningProcess | undefined;
  let port = options.port ?? -1;
  let logs = '';
  const launch = async () => {
    const current = startProcess(binary, [...args, '-p', String(port)]);
    proc = current;
    // The probe returns (not throws) an early exit: waitFor would keep polling after a thrown error.
    const outcome = await waitFor(
      'nats-server to accept client connections',
      () => {
        const out = current.output();
        if (current.child.exitCode !== null)
          return { exited: `nats-server exited (${current.child.exitCode}):\n${out}` };
        const match = /Listening for client connections on [^\s]*:(\d+)/.exec(out);
        return match && out.includes('Server is ready') ? { port: Number(match[1]) } : undefined;
      },
      { timeoutMs },
    ).catch(async (err: unknown) => {
      await current.stop();
      throw new Error(`${(err as Error).message}\n${current.output()}`);
    });
    if ('exited' in outcome) throw new Error(outcome.exited);
    const listening = outcome.port;
    port = listening;
  };
  const halt = async () => {
    if (!proc) return;
    const stopping = proc;
    proc = undefined;
    await stopping.stop();
    logs += stopping.output();
  };

  try {
    await launch();
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    get url() {
      return `nats://127.0.0.1:${port}`;
    },
    get port() {
      return port;
    },
    dir,
    output: () => logs + (proc?.output() ?? ''),
    halt,
    async restart() {
      if (proc) throw new Error('nats-server is running; halt it first');
      await launch();
    },
    async stop() {
      await halt();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
