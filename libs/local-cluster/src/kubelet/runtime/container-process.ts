// One run of a container: a detached process (its own process group) whose output goes to a log file.
import { spawn } from 'node:child_process';
import {
  exitCodeOf,
  groupAlive,
  killContainer,
  rememberContainer,
  signalGroup,
  type ContainerMembers,
} from './process-group.js';
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

/** How often a stopping container's processes are noted, so those its main process leaves behind can be killed. */
const REMEMBER_INTERVAL_MS = 250;

export class ContainerProcess {
  /** Resolves once the process has exited, its group is gone and its output is on disk. */
  readonly exited: Promise<ProcessExit>;
  private exitedAt?: Date;

  private constructor(
    readonly pid: number,
    readonly startedAt: Date,
    exited: Promise<ProcessExit>,
    /**
     * The container's processes seen while it was stopping. A main process that ends on SIGTERM before what it
     * started (a machine's kubelet and its Pods) leaves them re-parented, out of its tree: these are killed when it
     * exits.
     */
    private readonly members: ContainerMembers,
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
    const members: ContainerMembers = new Map();
    const exited = new Promise<ProcessExit>((done) => {
      child.once('exit', (code, signal) => {
        const finishedAt = new Date();
        // The container ends with its main process: whatever it left running goes too.
        killContainer(pid, members);
        // A process that left the group may still hold the pipes: stop reading after a moment.
        setTimeout(() => [child.stdout, child.stderr].forEach((s) => s?.destroy()), 2000).unref();
        void log
          .closed()
          .then(() => done({ exitCode: exitCodeOf(code, signal), signal: signal ?? undefined, finishedAt }));
      });
    });
    return new ContainerProcess(pid, new Date(), exited, members);
  }

  get running(): boolean {
    return this.exitedAt === undefined;
  }

  /** SIGTERM to the group, SIGKILL after `graceMs` if it is still there. */
  async stop(graceMs: number): Promise<ProcessExit> {
    const remember = () => {
      if (this.running) rememberContainer(this.pid, this.members);
    };
    remember();
    if (this.running) signalGroup(this.pid, 'SIGTERM');
    // What it starts while shutting down (a restarted Pod of a machine) is noted too.
    const noting = setInterval(remember, REMEMBER_INTERVAL_MS);
    const timer = setTimeout(() => killContainer(this.pid, this.members), Math.max(0, graceMs));
    try {
      return await this.exited;
    } finally {
      clearInterval(noting);
      clearTimeout(timer);
    }
  }

  /** Synchronous last resort when the kubelet itself exits. */
  kill(): void {
    if (this.running || groupAlive(this.pid)) killContainer(this.pid, this.members);
  }
}
