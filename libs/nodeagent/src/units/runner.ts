// The local unit runner: the part of systemd a local machine needs to run an OperatingSystemConfig's units. Unit files
// and drop-ins live under the machine's root directory (`<root>/etc/systemd/system/<unit>`, `<unit>.d/*.conf`); a unit's
// `ExecStart` runs only if its program is one the machine knows (a table from path, e.g. `/opt/bin/kubelet`, to a
// local launcher) — any other program fails the unit visibly (state `failed`, the start rejects, as `systemctl start`
// does). Supports start/stop/restart, enable/disable (`multi-user.target.wants/` markers, started on boot),
// Environment/EnvironmentFile, Restart=always|on-failure with RestartSec, Type=oneshot. Output goes to
// `<root>/var/log/units/<unit>.log`.
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '@gardener-ts/logging';
import {
  applyDropIns,
  parseEnvironmentFile,
  parseUnitFile,
  serviceSettings,
  type ServiceSettings,
} from './unit-file.js';
import { nodePath } from './paths.js';

/** A program run as a local process. */
export interface ProcessLaunch {
  command: string;
  args: string[];
  env?: Record<string, string>;
  cwd?: string;
}

/**
 * A program run inside the machine's own process (e.g. gardener-node-agent sharing the machine's unit manager): `run`
 * resolves when the program ends by itself (exit 0) or rejects (a failure); `signal` aborts when the unit stops.
 */
export interface InProcessLaunch {
  run: (signal: AbortSignal) => Promise<void>;
}

/** How a program known to the machine is started: from the ExecStart arguments to a local command or an in-process run. */
export type ProgramLauncher = (
  args: string[],
  context: { rootDir: string; unit: string; env: Record<string, string> },
) => ProcessLaunch | InProcessLaunch;

/** A unit's state, in systemd's words. */
export interface UnitStatus {
  name: string;
  /** `active` (running), `activating` (waiting to restart), `inactive` (stopped or exited 0), `failed`. */
  activeState: 'active' | 'activating' | 'inactive' | 'failed';
  enabled: boolean;
  pid?: number;
  /** How often the runner restarted the unit by its Restart= policy. */
  restarts: number;
  /** Why the unit failed. */
  message?: string;
}

/** The operations node-agent needs from a unit manager (systemd's D-Bus API on a real node). */
export interface UnitManager {
  daemonReload(): Promise<void>;
  enable(name: string): Promise<void>;
  disable(name: string): Promise<void>;
  start(name: string): Promise<void>;
  stop(name: string): Promise<void>;
  restart(name: string): Promise<void>;
  status(name: string): UnitStatus;
}

/** Options of the local unit runner. */
export interface LocalUnitRunnerOptions {
  /** The machine's root directory: node paths such as `/etc/systemd/system` are below it. */
  rootDir: string;
  /** Programs known to the machine, by the path an `ExecStart` names. */
  programs: Record<string, ProgramLauncher>;
  /** Unit files the "operating system" brings (e.g. `containerd.service`), used when no file is on disk. */
  builtinUnits?: Record<string, string>;
  log?: Logger;
  /** How long `stop` waits after SIGTERM before SIGKILL; 10 s by default. */
  stopTimeoutMs?: number;
}

interface Running {
  /** SIGTERM (or abort) first; SIGKILL when `force`. */
  kill(force: boolean): void;
  exited: Promise<void>;
  stopping: boolean;
}

/** The systemd unit directory below a machine's root. */
export const UnitDirectory = '/etc/systemd/system';
const WantsDirectory = `${UnitDirectory}/multi-user.target.wants`;

/** Runs units as local processes; see the file header. */
export class LocalUnitRunner implements UnitManager {
  private readonly running = new Map<string, Running>();
  private readonly states = new Map<string, UnitStatus>();
  private readonly restartTimers = new Map<string, NodeJS.Timeout>();
  private readonly enabled = new Set<string>();
  private reloads = 0;

  constructor(private readonly options: LocalUnitRunnerOptions) {}

  /** Reads which units are enabled from disk; call once when the machine boots. */
  async load(): Promise<void> {
    const entries = await readdir(this.path(WantsDirectory)).catch(() => [] as string[]);
    for (const name of entries) this.enabled.add(name);
  }

  /** Starts every enabled unit (the machine booting). Failures are logged and leave the unit `failed`. */
  async boot(): Promise<void> {
    await this.load();
    for (const name of [...this.enabled].sort()) {
      await this.start(name).catch((err: unknown) =>
        this.options.log?.error({ err, unit: name }, 'Unit failed on boot'),
      );
    }
  }

  /** How often `daemonReload` was called (unit files are read on every start, so it has nothing else to do). */
  get daemonReloads(): number {
    return this.reloads;
  }

  async daemonReload(): Promise<void> {
    this.reloads++;
  }

  async enable(name: string): Promise<void> {
    await mkdir(this.path(WantsDirectory), { recursive: true });
    await writeFile(this.path(`${WantsDirectory}/${name}`), `${UnitDirectory}/${name}\n`);
    this.enabled.add(name);
    this.update(name, {});
  }

  async disable(name: string): Promise<void> {
    await rm(this.path(`${WantsDirectory}/${name}`), { force: true });
    this.enabled.delete(name);
    this.update(name, {});
  }

  status(name: string): UnitStatus {
    return { ...(this.states.get(name) ?? this.initial(name)), enabled: this.enabled.has(name) };
  }

  async start(name: string): Promise<void> {
    if (this.running.has(name)) return;
    this.cancelRestart(name);
    let settings: ServiceSettings;
    let launch: ReturnType<ProgramLauncher>;
    try {
      settings = await this.settings(name);
      launch = await this.launch(name, settings);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      this.update(name, { activeState: 'failed', message, pid: undefined });
      throw new Error(`Job for ${name} failed: ${message}`, { cause: err });
    }
    const exitCode = await this.spawn(name, settings, launch);
    if (settings.type === 'oneshot' && exitCode !== 0) {
      throw new Error(`Job for ${name} failed: ExecStart exited with ${exitCode}`);
    }
  }

  async stop(name: string): Promise<void> {
    this.cancelRestart(name);
    const run = this.running.get(name);
    if (!run) {
      if (this.states.get(name)?.activeState !== 'failed')
        this.update(name, { activeState: 'inactive', pid: undefined });
      return;
    }
    run.stopping = true;
    run.kill(false);
    const timeout = setTimeout(() => run.kill(true), this.options.stopTimeoutMs ?? 10_000);
    await run.exited;
    clearTimeout(timeout);
  }

  async restart(name: string): Promise<void> {
    await this.stop(name);
    await this.start(name);
  }

  /** Stops every running unit (the machine shutting down). */
  async stopAll(): Promise<void> {
    await Promise.all([...new Set([...this.running.keys(), ...this.restartTimers.keys()])].map((n) => this.stop(n)));
  }

  private path(nodeAbsolute: string): string {
    return nodePath(this.options.rootDir, nodeAbsolute);
  }

  private initial(name: string): UnitStatus {
    return { name, activeState: 'inactive', enabled: this.enabled.has(name), restarts: 0 };
  }

  private update(name: string, change: Partial<UnitStatus>): void {
    const next: UnitStatus = { ...(this.states.get(name) ?? this.initial(name)), ...change, name };
    if (change.pid === undefined && 'pid' in change) delete next.pid;
    if (change.activeState && change.activeState !== 'failed' && !('message' in change)) delete next.message;
    this.states.set(name, next);
  }

  private cancelRestart(name: string): void {
    const timer = this.restartTimers.get(name);
    if (timer) clearTimeout(timer);
    this.restartTimers.delete(name);
  }

  /** The unit's [Service] settings from its file (or the built-in one) and its drop-ins. */
  private async settings(name: string): Promise<ServiceSettings> {
    const dir = this.path(UnitDirectory);
    const text = await readFile(join(dir, name), 'utf8').catch(() => this.options.builtinUnits?.[name]);
    if (text === undefined) throw new Error(`Unit ${name} not found.`);
    const dropInDir = join(dir, `${name}.d`);
    const dropInNames = (await readdir(dropInDir).catch(() => [] as string[]))
      .filter((f) => f.endsWith('.conf'))
      .sort();
    const dropIns = await Promise.all(
      dropInNames.map(async (f) => parseUnitFile(await readFile(join(dropInDir, f), 'utf8'))),
    );
    return serviceSettings(applyDropIns(parseUnitFile(text), dropIns));
  }

  private async launch(name: string, settings: ServiceSettings): Promise<ReturnType<ProgramLauncher>> {
    if (!settings.execStart) throw new Error(`Unit ${name} has no ExecStart=`);
    const [program, ...args] = settings.execStart;
    const launcher = this.options.programs[program!];
    if (!launcher) throw new Error(`ExecStart program ${program} of unit ${name} is not known to this machine`);
    const env: Record<string, string> = {};
    for (const file of settings.environmentFiles) {
      const text = await readFile(this.path(file.path), 'utf8').catch((err: unknown) => {
        if (file.optional) return '';
        throw new Error(`EnvironmentFile ${file.path} of unit ${name} cannot be read`, { cause: err });
      });
      Object.assign(env, parseEnvironmentFile(text));
    }
    Object.assign(env, settings.environment);
    // systemd: a word that is only `$NAME` becomes the value split at whitespace (zero or more words); `${NAME}` and
    // references inside a word are replaced by the exact value.
    const expanded = args.flatMap((a) => {
      const whole = /^\$(\w+)$/.exec(a);
      if (whole) return (env[whole[1]!] ?? '').split(/\s+/).filter(Boolean);
      return [a.replace(/\$\{(\w+)\}|\$(\w+)/g, (_, x, y) => env[x ?? y] ?? '')];
    });
    const launch = launcher(expanded, { rootDir: this.options.rootDir, unit: name, env });
    return 'run' in launch ? launch : { ...launch, env: { ...env, ...launch.env } };
  }

  /** Spawns the process; resolves once it is running (simple) or has exited (oneshot, with its exit code). */
  private async spawn(name: string, settings: ServiceSettings, launch: ReturnType<ProgramLauncher>): Promise<number> {
    if ('run' in launch) return this.runInProcess(name, settings, launch);
    const logDir = this.path('/var/log/units');
    await mkdir(logDir, { recursive: true });
    const out = createWriteStream(join(logDir, `${name}.log`), { flags: 'a' });
    const child = spawn(launch.command, launch.args, {
      cwd: launch.cwd ?? this.options.rootDir,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...launch.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.pipe(out, { end: false });
    child.stderr?.pipe(out, { end: false });
    let exitCode = 0;
    const run: Running = {
      kill: (force) => child.kill(force ? 'SIGKILL' : 'SIGTERM'),
      stopping: false,
      exited: new Promise((resolve) => {
        child.once('error', (err) => {
          this.update(name, { activeState: 'failed', message: `ExecStart failed: ${err.message}`, pid: undefined });
          exitCode = 127;
          this.running.delete(name);
          out.end();
          resolve();
        });
        child.once('exit', (code, signal) => {
          exitCode = code ?? 128;
          this.running.delete(name);
          out.end();
          this.exited(name, settings, run.stopping, code, signal);
          resolve();
        });
      }),
    };
    this.running.set(name, run);
    if (child.pid !== undefined) this.update(name, { activeState: 'active', pid: child.pid });
    if (settings.type === 'oneshot') await run.exited;
    return exitCode;
  }

  /** Runs an in-process program; the unit is active while `run` has not settled. */
  private async runInProcess(name: string, settings: ServiceSettings, launch: InProcessLaunch): Promise<number> {
    const abort = new AbortController();
    let exitCode = 0;
    const run: Running = {
      kill: () => abort.abort(),
      stopping: false,
      exited: launch.run(abort.signal).then(
        () => {
          this.running.delete(name);
          this.exited(name, settings, run.stopping, 0, null);
        },
        (err: unknown) => {
          exitCode = 1;
          this.running.delete(name);
          this.options.log?.error({ err, unit: name }, 'In-process unit failed');
          this.exited(name, settings, run.stopping, 1, null);
        },
      ),
    };
    this.running.set(name, run);
    this.update(name, { activeState: 'active', pid: process.pid });
    if (settings.type === 'oneshot') await run.exited;
    return exitCode;
  }

  private exited(
    name: string,
    settings: ServiceSettings,
    stopping: boolean,
    code: number | null,
    signal: NodeJS.Signals | null,
  ): void {
    if (stopping) {
      this.update(name, { activeState: 'inactive', pid: undefined });
      return;
    }
    const failed = code !== 0;
    const restart =
      settings.restart === 'always' || (failed && ['on-failure', 'on-abnormal'].includes(settings.restart));
    const how = signal ? `killed by ${signal}` : `exited with ${code}`;
    if (!restart) {
      this.update(
        name,
        failed ? { activeState: 'failed', message: how, pid: undefined } : { activeState: 'inactive', pid: undefined },
      );
      return;
    }
    this.options.log?.info({ unit: name, how }, 'Unit exited; restarting it (Restart=%s)', settings.restart);
    this.update(name, { activeState: 'activating', message: how, pid: undefined });
    this.restartTimers.set(
      name,
      setTimeout(() => {
        this.restartTimers.delete(name);
        const restarts = (this.states.get(name)?.restarts ?? 0) + 1;
        this.update(name, { restarts });
        this.start(name).catch((err: unknown) => this.options.log?.error({ err, unit: name }, 'Unit restart failed'));
      }, settings.restartMs),
    );
  }
}
