// `npm start` to a ready landscape, cold (a new data dir) and warm (the same dir again), and the landscape's memory when
// idle: the built `gardener-local up` in its own process, as a user runs it. Prints a markdown table of medians.
//
//   npx nx run-many -t build && npx tsx bench/landscape/run.ts [--rounds 3] [--idle-seconds 10]
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const ROOT = join(import.meta.dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'tools', 'gardener-local', 'cli.js');

interface Run {
  readyMs: number;
  steps: Map<string, number>;
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Starts `gardener-local up`; resolves once it prints "Gardener landscape ready", with the step durations. */
function startLandscape(dir: string, port: number): Promise<{ proc: ChildProcess; run: Run }> {
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
      resolve({ proc, run: { readyMs: performance.now() - started, steps } });
    });
    proc.once('exit', (code) => reject(new Error(`gardener-local up exited with ${code}:\n${out}`)));
  });
}

function stop(proc: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    proc.once('exit', () => resolve());
    proc.kill('SIGTERM');
  });
}

/** RSS in MiB of a process and all its descendants, with the largest ones by command. */
function treeRss(pid: number): { totalMiB: number; top: [string, number][] } {
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
    for (const row of rows) if (tree.has(row.ppid) && !tree.has(row.pid)) (tree.add(row.pid), (grew = true));
  }
  const mine = rows.filter((r) => tree.has(r.pid));
  const name = (args: string) =>
    /dist\/apps\/([^/]+)\//.exec(args)?.[1] ??
    (args.includes('cli.js up')
      ? 'gardener-local up (API server, controller manager, kubelet, proxy)'
      : args.split(' ')[0].split('/').pop()!);
  const byName = new Map<string, number>();
  for (const r of mine) byName.set(name(r.args), (byName.get(name(r.args)) ?? 0) + r.rssKiB / 1024);
  return { totalMiB: mine.reduce((sum, r) => sum + r.rssKiB, 0) / 1024, top: [...byName].sort((a, b) => b[1] - a[1]) };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const { values } = parseArgs({ options: { rounds: { type: 'string' }, 'idle-seconds': { type: 'string' } } });
const rounds = Number(values.rounds ?? 3);
const idleMs = Number(values['idle-seconds'] ?? 10) * 1000;
const cold: Run[] = [];
const warm: Run[] = [];
const rss: ReturnType<typeof treeRss>[] = [];
const load = loadavg()[0];
for (let round = 0; round < rounds; round++) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-landscape-'));
  try {
    const port = await freePort();
    const first = await startLandscape(join(dir, 'landscape'), port);
    cold.push(first.run);
    await new Promise((r) => setTimeout(r, idleMs));
    rss.push(treeRss(first.proc.pid!));
    await stop(first.proc);
    const second = await startLandscape(join(dir, 'landscape'), port);
    warm.push(second.run);
    await stop(second.proc);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  process.stderr.write(`round ${round + 1}/${rounds} done\n`);
}

const seconds = (ms: number) => (ms / 1000).toFixed(1);
console.log(
  `Node ${process.version}, ${rounds} rounds, load average ${load.toFixed(2)} at start, ${loadavg()[0].toFixed(2)} at end\n`,
);
console.log('| | cold (new data dir) | warm (same data dir) |');
console.log('| --- | --- | --- |');
console.log(
  `| \`gardener-local up\` to "Gardener landscape ready", median s | ${seconds(median(cold.map((r) => r.readyMs)))} | ${seconds(median(warm.map((r) => r.readyMs)))} |`,
);
for (const step of cold[0].steps.keys()) {
  console.log(
    `| step: ${step}, median s | ${seconds(median(cold.map((r) => r.steps.get(step) ?? 0)))} | ${seconds(median(warm.map((r) => r.steps.get(step) ?? 0)))} |`,
  );
}
console.log(
  `\nIdle landscape RSS after ${idleMs / 1000} s (process tree of \`gardener-local up\`), median MiB: ${median(rss.map((r) => r.totalMiB)).toFixed(0)}`,
);
console.log('\n| process | RSS MiB (first round) |\n| --- | --- |');
for (const [name, mib] of rss[0].top) console.log(`| ${name} | ${mib.toFixed(0)} |`);
