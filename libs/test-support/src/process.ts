// Child processes for end-to-end tests: started, observed, and always stopped.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

export interface RunningProcess {
  child: ChildProcess;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code (or the signal name) once the process ends. */
  exited: Promise<number | string>;
  /** Sends SIGTERM, then SIGKILL after `graceMs`; resolves with the exit code. */
  stop(graceMs?: number): Promise<number | string>;
}

const running = new Set<RunningProcess>();

export function startProcess(command: string, args: string[], options: SpawnOptions = {}): RunningProcess {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? signal ?? -1));
    child.once('error', (err) => {
      out += String(err);
      resolve(-1);
    });
  });
  const proc: RunningProcess = {
    child,
    output: () => out,
    exited,
    async stop(graceMs = 5000) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        await exited;
        clearTimeout(timer);
      }
      running.delete(proc);
      return exited;
    },
  };
  running.add(proc);
  void exited.then(() => running.delete(proc));
  return proc;
}

/** Stops every process a test started and did not stop itself. */
export async function stopAllProcesses(): Promise<void> {
  await Promise.all([...running].map((p) => p.stop(2000)));
}
