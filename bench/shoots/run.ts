// Many shoots on one landscape (issue #20): the memory of the local landscape idle and with 1, 5 and 10 shoots of one
// node each. One fresh landscape (`gardener-local up`); after an idle wait the RSS of its whole process tree (every Pod
// is a child process), broken down by process name; then Gardener's provider-local example Shoot
// (`deploy/gardener/examples/local/shoot.yaml`) under distinct names (local, s2, s3, ... in project garden-local),
// applied with kubectl up to each count of `--shoots` (the new shoots of a step at once), until every new shoot's
// lastOperation is Create Succeeded and its five conditions are True; an idle wait; the RSS of the tree again. Each step
// is timed. A step that times out is recorded with the shoots' state, measured as it is, and ends the run. Also the CPU
// the tree used during each idle wait (from /proc, in cores). Each measurement is printed to stderr as it is taken, the
// markdown tables at the end (also on SIGINT/SIGTERM, after the landscape is stopped).
//
//   npx nx run-many -t build && npx tsx bench/shoots/run.ts [--shoots 1,5,10] [--idle-seconds 30] \
//     [--step-timeout-minutes 20] [--node-cpus 16] [--node-memory-gib 48] [--keep-logs] [--dry-run]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  freePort,
  kubectl,
  leftovers,
  median,
  processTree,
  SHOOT_EXAMPLE,
  startLandscape,
  stop,
  until,
  type TreeProcess,
} from '../support/landscape.js';

const MINUTE = 60_000;
const PROJECT_NAMESPACE = 'garden-local';
const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
const seconds = (ms: number) => (ms / 1000).toFixed(1);
const mib = (n: number) => n.toFixed(0);
const cell = (n: number | undefined, format: (n: number) => string) => (n === undefined ? '–' : format(n));

const { values } = parseArgs({
  options: {
    shoots: { type: 'string' },
    'idle-seconds': { type: 'string' },
    'step-timeout-minutes': { type: 'string' },
    'node-cpus': { type: 'string' },
    'node-memory-gib': { type: 'string' },
    'keep-logs': { type: 'boolean' },
    'dry-run': { type: 'boolean' },
  },
});
const steps = (values.shoots ?? '1,5,10').split(',').map(Number);
if (!steps.every((n, i) => Number.isInteger(n) && n > 0 && (i === 0 || n > steps[i - 1])))
  throw new Error(`--shoots wants increasing positive counts, e.g. 1,5,10; got ${values.shoots}`);
const idleMs = Number(values['idle-seconds'] ?? 30) * 1000;
const stepTimeoutMs = Number(values['step-timeout-minutes'] ?? 20) * MINUTE;
if (!(idleMs >= 0) || !(stepTimeoutMs > 0)) throw new Error('--idle-seconds and --step-timeout-minutes want numbers');
const nodeCpus = values['node-cpus'] === undefined ? undefined : Number(values['node-cpus']);
if (nodeCpus !== undefined && !(Number.isInteger(nodeCpus) && nodeCpus > 0))
  throw new Error('--node-cpus wants a count');
const nodeMemoryGiB = values['node-memory-gib'] === undefined ? undefined : Number(values['node-memory-gib']);
if (nodeMemoryGiB !== undefined && !(nodeMemoryGiB > 0)) throw new Error('--node-memory-gib wants a size');
/** local, s2, s3, ...: the example's name first. */
const names = Array.from({ length: steps.at(-1)! }, (_, i) => (i === 0 ? 'local' : `s${i + 1}`));

if (values['dry-run']) {
  console.log(
    `would start one landscape, idle ${idleMs / 1000} s, then shoots ${steps.join(' → ')} (${names.join(', ')}), ` +
      `each step timing out after ${stepTimeoutMs / MINUTE} min` +
      (nodeCpus ? `, the landscape's Node declaring ${nodeCpus} CPUs` : ''),
  );
  process.exit(0);
}

interface Measurement {
  /** Shoots applied so far. */
  shoots: number;
  /** Of them, Create Succeeded with five conditions True when the RSS was read. */
  healthy: number;
  /** RSS of the tree (shared pages counted once per process). */
  totalMiB: number;
  /** PSS of the tree (shared pages counted once): what the machine spends. */
  pssMiB: number;
  /** By process name: PSS MiB and how many processes, largest first. */
  byName: [string, number, number][];
  processes: number;
  /** CPU the tree used during the idle wait before, in cores (CPU seconds / wall seconds). */
  idleCores: number;
  load: number[];
  at: Date;
}

interface Step {
  shoots: number;
  /** `kubectl apply` of the step's new shoots → the last of them Create Succeeded, ms. */
  allCreatedMs?: number;
  /** → the last of them with five conditions True, ms. */
  allHealthyMs?: number;
  /** Each new shoot: apply → Create Succeeded, ms. */
  createdMs: number[];
  /** Each new shoot: apply → five conditions True, ms. */
  healthyMs: number[];
  failure?: string;
}

interface ShootState {
  name: string;
  operation: string;
  created: boolean;
  healthy: boolean;
  conditions: string;
}

const loadAtStart = loadavg();
const startedAt = new Date();
const measurements: Measurement[] = [];
const done: Step[] = [];
let landscapeReadyMs: number | undefined;
let failure: string | undefined;
/** Every process seen in the landscape's tree, for the check that none is left after the stop. */
const seen = new Map<number, string>();
const left: string[] = [];

const dir = mkdtempSync(join(tmpdir(), 'bench-shoots-'));
const landscapeDir = join(dir, 'landscape');
const kc = join(landscapeDir, 'kubeconfig');
const example = readFileSync(SHOOT_EXAMPLE, 'utf8');
const manifest = (name: string) => {
  const file = join(dir, `shoot-${name}.yaml`);
  writeFileSync(file, example.replace(/^ {2}name: local$/m, `  name: ${name}`));
  return file;
};

// --node-cpus: the landscape's kubelet (in `gardener-local up`) declares its Node's CPU capacity from
// os.availableParallelism(), and the control plane of a shoot requests about 1 CPU (etcd main and events 300 m each plus
// the backup sidecar's 23 m, kube-apiserver 250 m, kube-controller-manager 100 m, ...), so on 2 cores the scheduler
// fits one shoot. A preload in `up` alone (the Pods inherit NODE_OPTIONS but skip it) makes the Node declare more, to
// measure the memory of more shoots on the same 2 cores: an overcommit of CPU requests, nothing else changes.
// --node-memory-gib likewise for memory (os.totalmem()): a shoot's control plane requests about 2.8 GiB (etcd main and
// events 1 G each, kube-apiserver 500 Mi, ...), so 24 GiB fit about 8 shoots by requests, not 10.
if (nodeCpus || nodeMemoryGiB) {
  const preload = join(dir, 'node-capacity.cjs');
  writeFileSync(
    preload,
    `if (process.argv[2] === 'up' && /gardener-local[\\/]cli\\.js$/.test(process.argv[1] ?? '')) {\n` +
      (nodeCpus ? `  require('node:os').availableParallelism = () => ${nodeCpus};\n` : '') +
      (nodeMemoryGiB ? `  require('node:os').totalmem = () => ${Math.round(nodeMemoryGiB * 2 ** 30)};\n` : '') +
      `  require('node:module').syncBuiltinESMExports();\n}\n`,
  );
  process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} --require ${preload}`.trim();
}

let landscape: Awaited<ReturnType<typeof startLandscape>> | undefined;
let stopping: Promise<void> | undefined;
/** Stops the landscape (SIGTERM, SIGKILL after 60 s), then ends any process of its tree or naming its data dir. */
const shutdown = () =>
  (stopping ??= (async () => {
    if (landscape) {
      const { proc } = landscape;
      if (proc.exitCode === null && proc.signalCode === null) {
        const killer = setTimeout(() => proc.kill('SIGKILL'), MINUTE);
        await stop(proc);
        clearTimeout(killer);
      }
    }
    const seenList = () => [...seen].map(([pid, args]) => ({ pid, args }));
    for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
      const rest = leftovers(landscapeDir, seenList());
      if (!rest.length) break;
      for (const p of rest) {
        if (signal === 'SIGTERM') left.push(`${p.pid} ${p.args.slice(0, 120)}`);
        try {
          process.kill(p.pid, signal);
        } catch {
          // gone meanwhile
        }
      }
      await sleep(10_000);
    }
    const still = leftovers(landscapeDir, seenList());
    if (still.length) left.push(`still running after SIGKILL: ${still.map((p) => p.pid).join(', ')}`);
    if (values['keep-logs']) process.stderr.write(`landscape kept in ${dir}\n`);
    else rmSync(dir, { recursive: true, force: true });
  })());

for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    failure ??= `stopped by ${signal}`;
    void shutdown().then(() => {
      report();
      process.exit(130);
    });
  });

try {
  const started = await startLandscape(landscapeDir, await freePort());
  landscape = started;
  landscapeReadyMs = started.run.readyMs;
  progress(`landscape ready after ${seconds(landscapeReadyMs)} s`);
  await measure(0);
  for (const count of steps) {
    const step = await createUpTo(count);
    done.push(step);
    await measure(count);
    if (step.failure) {
      failure = step.failure;
      break;
    }
  }
} catch (err) {
  failure ??= (err as Error).message;
  progress(`failed: ${failure}`);
} finally {
  await shutdown();
}
report();

/** Applies the shoots up to `count` at once; waits until each is Create Succeeded with five conditions True. */
async function createUpTo(count: number): Promise<Step> {
  const before = measurements.at(-1)!.shoots;
  const fresh = names.slice(before, count);
  const step: Step = { shoots: count, createdMs: [], healthyMs: [] };
  kubectl(kc, ['apply', ...fresh.flatMap((name) => ['-f', manifest(name)])]);
  const applied = performance.now();
  progress(`applied ${fresh.join(', ')}`);
  const created = new Map<string, number>();
  const healthy = new Map<string, number>();
  let last: ShootState[] = [];
  try {
    await until(
      `${fresh.length} shoot(s) Create Succeeded with five conditions True`,
      () => {
        try {
          last = shootStates().filter((s) => fresh.includes(s.name));
        } catch {
          return false; // the API server did not answer this time
        }
        const now = performance.now() - applied;
        for (const s of last) {
          if (s.created && !created.has(s.name)) created.set(s.name, now);
          if (s.created && s.healthy && !healthy.has(s.name)) healthy.set(s.name, now);
        }
        return healthy.size === fresh.length;
      },
      stepTimeoutMs,
      2000,
    );
  } catch (err) {
    const missing = fresh.filter((name) => !healthy.has(name));
    step.failure =
      `${(err as Error).message} after ${stepTimeoutMs / MINUTE} min: ${healthy.size} of ${fresh.length} new ` +
      `shoot(s) healthy; not: ${missing
        .map((name) => {
          const s = last.find((x) => x.name === name);
          return s ? `${name} (${s.operation}; conditions ${s.conditions || 'none'})` : `${name} (not listed)`;
        })
        .join('; ')}`;
  }
  step.createdMs = [...created.values()];
  step.healthyMs = [...healthy.values()];
  if (created.size === fresh.length) step.allCreatedMs = Math.max(...step.createdMs);
  if (healthy.size === fresh.length) step.allHealthyMs = Math.max(...step.healthyMs);
  progress(
    `step to ${count}: ` +
      (step.failure ??
        `all Create Succeeded ${seconds(step.allCreatedMs!)} s, healthy ${seconds(step.allHealthyMs!)} s`),
  );
  return step;
}

/** The shoots of the project with their last operation and conditions. */
function shootStates(): ShootState[] {
  const list = JSON.parse(kubectl(kc, ['-n', PROJECT_NAMESPACE, 'get', 'shoots', '-o', 'json'])) as {
    items: {
      metadata: { name: string };
      status?: {
        lastOperation?: { type?: string; state?: string; progress?: number; description?: string };
        conditions?: { type: string; status: string }[];
      };
    }[];
  };
  return list.items.map(({ metadata, status }) => {
    const op = status?.lastOperation;
    const conditions = status?.conditions ?? [];
    return {
      name: metadata.name,
      operation: op
        ? `${op.type} ${op.state} ${op.progress ?? '?'} %: ${(op.description ?? '').slice(0, 200)}`
        : 'no lastOperation',
      created: op?.type === 'Create' && op.state === 'Succeeded',
      healthy: conditions.length === 5 && conditions.every((c) => c.status === 'True'),
      conditions: conditions.map((c) => `${c.type}=${c.status}`).join(' '),
    };
  });
}

/** Waits `idleMs`, taking the tree's CPU over the wait, then reads its RSS. */
async function measure(shoots: number) {
  const pid = landscape!.proc.pid!;
  const cpuBefore = cpuTicks(processTree(pid));
  const idleStarted = performance.now();
  await sleep(idleMs);
  const wallS = (performance.now() - idleStarted) / 1000;
  const tree = processTree(pid);
  for (const p of tree) seen.set(p.pid, p.args);
  const cpuAfter = cpuTicks(tree);
  let ticks = 0;
  for (const [p, t] of cpuAfter) if (cpuBefore.has(p)) ticks += t - cpuBefore.get(p)!;
  const byName = new Map<string, [number, number]>();
  for (const p of tree) {
    const [mib, n] = byName.get(p.name) ?? [0, 0];
    byName.set(p.name, [mib + p.pssKiB / 1024, n + 1]);
  }
  let healthy = 0;
  try {
    healthy = shoots ? shootStates().filter((s) => s.created && s.healthy).length : 0;
  } catch {
    healthy = -1;
  }
  const m: Measurement = {
    shoots,
    healthy,
    totalMiB: tree.reduce((sum, p) => sum + p.rssKiB, 0) / 1024,
    pssMiB: tree.reduce((sum, p) => sum + p.pssKiB, 0) / 1024,
    byName: [...byName].map(([name, [mib, n]]): [string, number, number] => [name, mib, n]).sort((a, b) => b[1] - a[1]),
    processes: tree.length,
    idleCores: ticks / CLOCK_TICKS / wallS,
    load: loadavg(),
    at: new Date(),
  };
  measurements.push(m);
  progress(
    `${shoots} shoot(s), ${healthy} healthy: ${mib(m.totalMiB)} MiB in ${m.processes} processes, ` +
      `idle CPU ${m.idleCores.toFixed(2)} cores, load ${m.load.map((l) => l.toFixed(2)).join(' ')}`,
  );
}

/** utime + stime of each process, in clock ticks (/proc/<pid>/stat fields 14 and 15). */
function cpuTicks(tree: TreeProcess[]): Map<number, number> {
  const ticks = new Map<number, number>();
  for (const { pid } of tree) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // from field 3 (state) on
      ticks.set(pid, Number(fields[11]) + Number(fields[12]));
    } catch {
      // exited meanwhile
    }
  }
  return ticks;
}

function report() {
  const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(' ');
  console.log(
    `Node ${process.version}, ${startedAt.toISOString()} → ${new Date().toISOString()}, idle wait ${idleMs / 1000} s, ` +
      `load average ${load(loadAtStart)} at start, ${load(loadavg())} at end; landscape ready after ` +
      `${landscapeReadyMs === undefined ? '–' : seconds(landscapeReadyMs)} s` +
      (nodeCpus ? `; the landscape's Node declared ${nodeCpus} CPUs (--node-cpus)` : '') +
      (nodeMemoryGiB ? `; its memory ${nodeMemoryGiB} GiB (--node-memory-gib)` : '') +
      '\n',
  );
  console.log(
    '| shoots | healthy at the reading | step: apply → all Create Succeeded, s | → all five conditions True, s | ' +
      'per new shoot → five True, median (min–max), s | RSS of the tree, MiB | per shoot over idle, MiB | ' +
      'PSS of the tree, MiB | PSS per shoot over idle, MiB | processes | ' +
      'CPU idle, cores | load (1/5/15 min) |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  const idle = measurements[0];
  for (const m of measurements) {
    const step = done.find((s) => s.shoots === m.shoots);
    const spread = (xs: number[]) =>
      xs.length
        ? `${seconds(median(xs))} (${seconds(Math.min(...xs))}–${seconds(Math.max(...xs))}), ${xs.length}`
        : '–';
    console.log(
      `| ${m.shoots || 'idle'} | ${m.shoots ? m.healthy : '–'} | ${cell(step?.allCreatedMs, seconds)} | ` +
        `${cell(step?.allHealthyMs, seconds)} | ${step ? spread(step.healthyMs) : '–'} | ${mib(m.totalMiB)} | ` +
        `${m.shoots ? mib((m.totalMiB - idle.totalMiB) / m.shoots) : '–'} | ${mib(m.pssMiB)} | ` +
        `${m.shoots ? mib((m.pssMiB - idle.pssMiB) / m.shoots) : '–'} | ${m.processes} | ` +
        `${m.idleCores.toFixed(2)} | ${load(m.load)} |`,
    );
  }
  if (measurements.length) {
    const processNames = [...new Set(measurements.flatMap((m) => m.byName.map(([name]) => name)))];
    const last = measurements.at(-1)!;
    processNames.sort(
      (a, b) => (last.byName.find(([n]) => n === b)?.[1] ?? 0) - (last.byName.find(([n]) => n === a)?.[1] ?? 0),
    );
    console.log(
      `\n| process (PSS MiB, count) | ${measurements.map((m) => (m.shoots ? `${m.shoots} shoot(s)` : 'idle')).join(' | ')} |`,
    );
    console.log(`| --- | ${measurements.map(() => '---').join(' | ')} |`);
    for (const name of processNames)
      console.log(
        `| ${name} | ${measurements
          .map((m) => {
            const row = m.byName.find(([n]) => n === name);
            return row ? `${mib(row[1])} (${row[2]})` : '–';
          })
          .join(' | ')} |`,
      );
  }
  if (failure) console.log(`\nFailed: ${failure}`);
  console.log(
    left.length
      ? `\nLeft after the landscape stopped (ended by pid): ${left.join('; ')}`
      : '\nNothing of the landscape was left running after it stopped.',
  );
}

function progress(line: string) {
  process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);
}

function sleep(ms: number) {
  return new Promise((r) => setTimeout(r, ms));
}
