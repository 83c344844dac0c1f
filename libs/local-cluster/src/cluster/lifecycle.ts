// `cluster up | down | list`: a cluster runs as a detached supervisor process (see supervisor.ts); these functions start
// it and wait until it is ready, stop it and wait until it (and every process it started) is gone, and list clusters.
import { spawn } from 'node:child_process';
import { existsSync, openSync, closeSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { clusterLayout, isAlive, readSettings, runningPid, type ClusterLayout } from './layout.js';

export interface UpOptions {
  dataDir: string;
  name: string;
  /** The command that runs the supervisor of `name` in the foreground (`gardener-local cluster run NAME ...`). */
  supervisorCommand: string[];
  timeoutMs?: number;
}

export interface UpResult {
  layout: ClusterLayout;
  pid: number;
  alreadyRunning: boolean;
}

export async function clusterUp(options: UpOptions): Promise<UpResult> {
  const layout = clusterLayout(options.dataDir, options.name);
  const running = runningPid(layout);
  if (running) {
    await waitUntilReady(layout, running, options.timeoutMs);
    return { layout, pid: running, alreadyRunning: true };
  }
  await mkdir(layout.root, { recursive: true, mode: 0o700 });
  // A crash or reboot leaves a stale pid and ready marker; the new supervisor's kubelet cleans up leftover pods.
  await rm(layout.ready, { force: true });
  await rm(layout.pid, { force: true });
  const log = openSync(layout.log, 'a');
  const [command, ...args] = options.supervisorCommand;
  const child = spawn(command, args, { detached: true, stdio: ['ignore', log, log] });
  closeSync(log);
  const pid = child.pid;
  if (!pid) throw new Error(`cannot start the supervisor of cluster ${options.name}`);
  await writeFile(layout.pid, `${pid}\n`);
  let exited: number | null | undefined;
  child.once('exit', (code) => (exited = code));
  child.unref();
  await waitUntilReady(layout, pid, options.timeoutMs, () => exited);
  return { layout, pid, alreadyRunning: false };
}

async function waitUntilReady(
  layout: ClusterLayout,
  pid: number,
  timeoutMs = 60_000,
  exitCode: () => number | null | undefined = () => undefined,
) {
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(layout.ready)) {
    const code = exitCode();
    if (code !== undefined || !isAlive(pid)) {
      throw new Error(
        `cluster ${layout.name} failed to start (exit code ${code ?? 'unknown'}); last log lines:\n${tail(layout.log, 20)}`,
      );
    }
    if (Date.now() > deadline)
      throw new Error(`cluster ${layout.name} not ready after ${timeoutMs} ms; see ${layout.log}`);
    await sleep(25);
  }
}

export interface DownResult {
  wasRunning: boolean;
}

/** SIGTERM to the supervisor (it stops every pod), SIGKILL after `graceMs`; returns when the process is gone. */
export async function clusterDown(dataDir: string, name: string, graceMs = 30_000): Promise<DownResult> {
  const layout = clusterLayout(dataDir, name);
  if (!existsSync(layout.root)) throw new Error(`no cluster ${JSON.stringify(name)} in ${dataDir}`);
  const pid = runningPid(layout);
  if (pid) {
    process.kill(pid, 'SIGTERM');
    const deadline = Date.now() + graceMs;
    while (isAlive(pid) && Date.now() < deadline) await sleep(25);
    if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    while (isAlive(pid)) await sleep(10);
  }
  await rm(layout.pid, { force: true });
  await rm(layout.ready, { force: true });
  return { wasRunning: pid !== undefined };
}

export interface ClusterInfo {
  name: string;
  running: boolean;
  ready: boolean;
  server?: string;
  kubeconfig: string;
  pid?: number;
}

export function clusterList(dataDir: string): ClusterInfo[] {
  if (!existsSync(dataDir)) return [];
  return readdirSync(dataDir)
    .filter((entry) => statSync(`${dataDir}/${entry}`).isDirectory() && existsSync(`${dataDir}/${entry}/cluster.json`))
    .sort()
    .map((name) => {
      const layout = clusterLayout(dataDir, name);
      const pid = runningPid(layout);
      const settings = readSettings(layout);
      return {
        name,
        running: pid !== undefined,
        ready: pid !== undefined && existsSync(layout.ready),
        server: settings ? `https://127.0.0.1:${settings.apiServerPort}` : undefined,
        kubeconfig: layout.kubeconfig,
        pid,
      };
    });
}

function tail(file: string, lines: number): string {
  if (!existsSync(file)) return '(no log)';
  return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
