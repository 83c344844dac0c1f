// The local landscape for benchmarks: the built `gardener-local up` in its own process, as a user runs it; its process
// tree's memory; medians.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..');
export const CLI = join(ROOT, 'dist', 'tools', 'gardener-local', 'cli.js');
export const KUBECTL = join(ROOT, 'tools', 'k8s-binaries', 'vendor', 'kubectl');
/** Gardener's provider-local example Shoot (garden-local/local). */
export const SHOOT_EXAMPLE = join(ROOT, 'deploy', 'gardener', 'examples', 'local', 'shoot.yaml');

/** Runs the vendored kubectl against `kubeconfig`; its stdout. */
export const kubectl = (kubeconfig: string, args: string[]) =>
  execFileSync(KUBECTL, ['--kubeconfig', kubeconfig, ...args], { encoding: 'utf8' });

/** Polls `check` every `intervalMs` (250 ms) until it is true; the ms it took. Throws after `timeoutMs`. */
export async function until(what: string, check: () => boolean, timeoutMs: number, intervalMs = 250): Promise<number> {
  const started = performance.now();
  for (;;) {
    if (check()) return performance.now() - started;
    if (performance.now() - started > timeoutMs) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

export interface Run {
  readyMs: number;
  steps: Map<string, number>;
  /** The landscape's NATS URL, as `up` prints it (GARDENER_NATS_URL). */
  natsUrl?: string;
}

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Starts `gardener-local up`; resolves once it prints "Gardener landscape ready", with the step durations. */
export function startLandscape(dir: string, port: number): Promise<{ proc: ChildProcess; run: Run }> {
  const started = performance.now();
  const proc = spawn(process.execPath, [CLI, 'up', '--data-dir', dir, '--port', String(port)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (!out.includes('Gardener landscape ready')) return;
      const steps = new Map<string, number>();
      for (const match of out.matchAll(/^✓ (.+?) (?:— .* )?\((\d+(?:\.\d+)?)s\)$/gm))
        steps.set(match[1].replace(/ \(.*$/, ''), Number(match[2]) * 1000);
      const natsUrl = /GARDENER_NATS_URL=(\S+)/.exec(out)?.[1];
      resolve({ proc, run: { readyMs: performance.now() - started, steps, natsUrl } });
    });
    proc.once('exit', (code) => reject(new Error(`gardener-local up exited with ${code}:\n${out}`)));
  });
}

export function stop(proc: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    proc.once('exit', () => resolve());
    proc.kill('SIGTERM');
  });
}

export interface TreeProcess {
  pid: number;
  ppid: number;
  rssKiB: number;
  /**
   * Proportional set size (`/proc/<pid>/smaps_rollup`): the RSS with every shared page divided among the processes
   * sharing it. Every component is a Node.js process mapping the same ~50 MiB `node` binary; RSS counts those pages
   * once per process, PSS once in all, so the sum of PSS is what the tree really takes from the machine. The RSS
   * when smaps_rollup cannot be read.
   */
  pssKiB: number;
  args: string;
  /**
   * The component: `dist/apps/<name>`, `gardener-local <command>`, a local image's program (`kube-scheduler`, ...),
   * else the executable's base name.
   */
  name: string;
}

/** A process and all its descendants (by parent pid, as `ps` sees them now). */
export function processTree(pid: number): TreeProcess[] {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid=,rss=,args='], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [p, pp, rss, ...args] = line.trim().split(/\s+/);
      return { pid: Number(p), ppid: Number(pp), rssKiB: Number(rss), args: args.join(' ') };
    });
  const tree = new Set([pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const row of rows)
      if (tree.has(row.ppid) && !tree.has(row.pid)) {
        tree.add(row.pid);
        grew = true;
      }
  }
  const name = (args: string) =>
    /dist\/apps\/([^/]+)\//.exec(args)?.[1] ??
    /gardener-local\/images\/([^/ ]+)\.js/.exec(args)?.[1] ??
    (args.includes('cli.js up')
      ? 'gardener-local up (API server, controller manager, kubelet, proxy)'
      : /gardener-local\/cli\.js (\S+)/.exec(args)
        ? `gardener-local ${/gardener-local\/cli\.js (\S+)/.exec(args)![1]}`
        : args.split(' ')[0].split('/').pop()!);
  return rows
    .filter((r) => tree.has(r.pid))
    .map((r) => ({ ...r, pssKiB: pssKiB(r.pid) ?? r.rssKiB, name: name(r.args) }));
}

/** The process's PSS in KiB, undefined when its smaps_rollup cannot be read (gone, another user, not Linux). */
function pssKiB(pid: number): number | undefined {
  try {
    const match = /^Pss:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * RSS and PSS in MiB of a process and all its descendants, with the largest ones by command (by PSS: what each takes
 * from the machine).
 */
export function treeRss(pid: number): { totalMiB: number; pssMiB: number; top: [string, number][] } {
  const mine = processTree(pid);
  const byName = new Map<string, number>();
  for (const r of mine) byName.set(r.name, (byName.get(r.name) ?? 0) + r.pssKiB / 1024);
  return {
    totalMiB: mine.reduce((sum, r) => sum + r.rssKiB, 0) / 1024,
    pssMiB: mine.reduce((sum, r) => sum + r.pssKiB, 0) / 1024,
    top: [...byName].sort((a, b) => b[1] - a[1]),
  };
}

/**
 * Processes still running whose command line names `dir` (a landscape's data dir) or that are among `seen` (earlier
 * members of its process tree, by pid and the same command line, so a reused pid does not count).
 */
export function leftovers(
  dir: string,
  seen: Iterable<{ pid: number; args: string }> = [],
): { pid: number; args: string }[] {
  const known = new Map([...seen].map((p) => [p.pid, p.args]));
  return execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [p, ...args] = line.trim().split(/\s+/);
      return { pid: Number(p), args: args.join(' ') };
    })
    .filter((r) => r.pid !== process.pid && (known.get(r.pid) === r.args || r.args.includes(dir)));
}

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
