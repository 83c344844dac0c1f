// One run of a container: a detached process (its own process group) whose output goes to a log file.
import { spawn } from 'node:child_process';
import { exitCodeOf, groupAlive, killContainer, signalGroup } from './process-group.js';
import { LogWriter, type LogRotation } from './log-file.js';

export interface ProcessSpec {
  argv: string[];
  env: Record<string, string>;
  cwd: string;
  logPath: string;
  /** Rotation of the log file; kube's defaults (10 Mi, 5 files) without it. */
  logRotation?: LogRotation;
}

export interface ProcessExit {
  exitCode: number;
  signal?: NodeJS.Signals;
  finishedAt: Date;
}

export class ContainerProcess {
  /** Resolves once the process has exited, its group is gone and its output is on disk. */
  readonly exited: Promise<ProcessExit>;
  private exitedAt?: Date;

  private constructor(
    readonly pid: number,
    readonly startedAt: Date,
    exited: Promise<ProcessExit>,
  ) {
    this.exited = exited.then((exit) => {
      this.exitedAt = exit.finishedAt;
      return exit;
    });
  }

  /** Starts the process; rejects when it cannot be started (no such program, not executable, bad directory). */
  static async start(spec: ProcessSpec): Promise<ContainerProcess> {
    const log = await LogWriter.open(spec.logPath, spec.logRotation);
    const child = spawn(spec.argv[0], spec.argv.slice(1), {
      cwd: spec.cwd,
      env: spec.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      await new Promise<void>((started, failed) => {
        child.once('spawn', started);
        child.once('error', failed);
      });
    } catch (err) {
      log.line('stderr', `failed to start ${spec.argv[0]}: ${(err as Error).message}`);
      await log.closed();
      throw err;
    }
    const pid = child.pid!;
    log.attach(child.stdout!, 'stdout');
    log.attach(child.stderr!, 'stderr');
    const exited = new Promise<ProcessExit>((done) => {
      child.once('exit', (code, signal) => {
        const finishedAt = new Date();
        // The container ends with its main process: whatever it left running goes too.
        killContainer(pid);
        // A process that left the group may still hold the pipes: stop reading after a moment.
        setTimeout(() => [child.stdout, child.stderr].forEach((s) => s?.destroy()), 2000).unref();
        void log
          .closed()
          .then(() => done({ exitCode: exitCodeOf(code, signal), signal: signal ?? undefined, finishedAt }));
      });
    });
    return new ContainerProcess(pid, new Date(), exited);
  }

  get running(): boolean {
    return this.exitedAt === undefined;
  }

  /** SIGTERM to the group, SIGKILL after `graceMs` if it is still there. */
  async stop(graceMs: number): Promise<ProcessExit> {
    if (this.running) signalGroup(this.pid, 'SIGTERM');
    const timer = setTimeout(() => killContainer(this.pid), Math.max(0, graceMs));
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Synchronous last resort when the kubelet itself exits. */
  kill(): void {
    if (this.running || groupAlive(this.pid)) killContainer(this.pid);
  }
}
