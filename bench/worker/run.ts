// Machines of a shoot on the local landscape (issue #18): Gardener's provider-local example Shoot on a fresh landscape,
// then (a) the memory of its one idle machine — the RSS of the process tree of the machine Pod (`machine-*` in the
// shoot's control plane namespace of the seed: the machine process with node-agent, its kubelet and kube-proxy), after
// an idle wait; (b) the worker pool scaled 1 → 2 (`kubectl patch shoot` of minimum and maximum) and the time until 2
// Nodes are Ready in the shoot; back to 1; (c) scaled 1 → 10, the time until 10 Nodes are Ready and the RSS the 9 extra
// machines add. The small step comes first so that a pool of 10 that does not fit still leaves the per-machine time.
// Each round is one landscape; prints markdown tables of medians and, for anything that failed, what happened.
//
//   npx nx run-many -t build && npx tsx bench/worker/run.ts [--rounds 1] [--idle-seconds 30] [--machines 10]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  CLI,
  freePort,
  kubectl,
  median,
  SHOOT_EXAMPLE,
  startLandscape,
  stop,
  treeRss,
  until,
} from '../support/landscape.js';

const NAMESPACE = 'shoot--local--local';
const MINUTE = 60_000;

const { values } = parseArgs({
  options: {
    rounds: { type: 'string' },
    'idle-seconds': { type: 'string' },
    machines: { type: 'string' },
    'keep-logs': { type: 'boolean' },
  },
});
const rounds = Number(values.rounds ?? 1);
const idleMs = Number(values['idle-seconds'] ?? 30) * 1000;
const many = Number(values.machines ?? 10);

interface Round {
  /** `kubectl apply` → Create Succeeded and the shoot's one Node Ready, ms. */
  createdMs?: number;
  /** RSS of the one machine Pod's process tree after the idle wait, MiB, and by process. */
  oneMachineMiB?: number;
  oneMachineTop?: [string, number][];
  /** Patch 1 → 2 until 2 Nodes Ready, ms. */
  twoMs?: number;
  /** Patch 2 → 1 until 1 machine Pod and 1 Node are left, ms. */
  backToOneMs?: number;
  /** Patch 1 → many until `many` Nodes Ready, ms. */
  manyMs?: number;
  /** Per machine Pod after the idle wait at `many`, MiB. */
  manyMachinesMiB?: number[];
  /** By process, summed over the machine Pods at `many`, MiB. */
  manyTop?: [string, number][];
  /** Growth of the whole landscape's process tree from 1 machine to `many`, MiB. */
  landscapeGrowthMiB?: number;
  /** Ready Nodes over time while scaling to `many`: [s after the patch, Ready count]. */
  manyProgress: [number, number][];
  failure?: string;
}

const loadAtStart = loadavg();
const results: Round[] = [];
for (let round = 0; round < rounds; round++) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-worker-'));
  const landscapeDir = join(dir, 'landscape');
  const kc = join(landscapeDir, 'kubeconfig');
  const shootKc = join(dir, 'shoot-kubeconfig');
  const result: Round = { manyProgress: [] };
  results.push(result);
  const { proc } = await startLandscape(landscapeDir, await freePort());
  const shoot = (path: string) =>
    kubectl(kc, ['-n', 'garden-local', 'get', 'shoot', 'local', '--ignore-not-found', '-o', `jsonpath=${path}`]);
  const readyNodes = () => {
    try {
      const out = kubectl(shootKc, [
        'get',
        'nodes',
        '-o',
        'jsonpath={range .items[*]}{.status.conditions[?(@.type=="Ready")].status}{"\\n"}{end}',
      ]);
      return out.split('\n').filter((s) => s === 'True').length;
    } catch {
      return -1; // the shoot's API server did not answer this time
    }
  };
  const scale = (machines: number) =>
    kubectl(kc, [
      '-n',
      'garden-local',
      'patch',
      'shoot',
      'local',
      '--type=json',
      '-p',
      JSON.stringify([
        { op: 'replace', path: '/spec/provider/workers/0/minimum', value: machines },
        { op: 'replace', path: '/spec/provider/workers/0/maximum', value: machines },
      ]),
    ]);
  try {
    kubectl(kc, ['apply', '-f', SHOOT_EXAMPLE]);
    result.createdMs = await until(
      'Create Succeeded',
      () => shoot('{.status.lastOperation.type} {.status.lastOperation.state}') === 'Create Succeeded',
      15 * MINUTE,
      1000,
    );
    writeFileSync(
      shootKc,
      execFileSync(process.execPath, [CLI, 'shoot', 'kubeconfig', 'local', '-n', 'garden-local', '--kubeconfig', kc], {
        encoding: 'utf8',
      }),
    );
    result.createdMs += await until('the Node Ready', () => readyNodes() === 1, 5 * MINUTE, 1000);

    // (a) one idle machine
    await new Promise((r) => setTimeout(r, idleMs));
    const one = machineTrees(kc, landscapeDir);
    if (one.length !== 1) throw new Error(`expected 1 machine Pod with a process, found ${one.length}`);
    result.oneMachineMiB = one[0].rss.totalMiB;
    result.oneMachineTop = one[0].rss.top;
    const landscapeAtOne = treeRss(proc.pid!).totalMiB;

    // (b) 1 → 2, then back to 1
    scale(2);
    result.twoMs = await until('2 Nodes Ready', () => readyNodes() === 2, 10 * MINUTE, 1000);
    scale(1);
    result.backToOneMs = await until(
      '1 machine left',
      () => machinePods(kc).length === 1 && readyNodes() === 1 && nodeCount(shootKc) === 1,
      10 * MINUTE,
      1000,
    );

    // (c) 1 → many
    scale(many);
    const patched = performance.now();
    let last = -2;
    result.manyMs = await until(
      `${many} Nodes Ready`,
      () => {
        const ready = readyNodes();
        if (ready !== last) result.manyProgress.push([(performance.now() - patched) / 1000, (last = ready)]);
        return ready === many;
      },
      15 * MINUTE,
      1000,
    );
    await new Promise((r) => setTimeout(r, idleMs));
    const trees = machineTrees(kc, landscapeDir);
    result.manyMachinesMiB = trees.map((t) => t.rss.totalMiB);
    const byName = new Map<string, number>();
    for (const [name, size] of trees.flatMap((t) => t.rss.top)) byName.set(name, (byName.get(name) ?? 0) + size);
    result.manyTop = [...byName].sort((a, b) => b[1] - a[1]);
    result.landscapeGrowthMiB = treeRss(proc.pid!).totalMiB - landscapeAtOne;
  } catch (err) {
    result.failure = `${(err as Error).message}; machine Pods: ${describeMachinePods(kc)}; Ready Nodes: ${readyNodes()}`;
    process.stderr.write(`round ${round + 1}: ${result.failure}\n`);
  } finally {
    await stop(proc);
    if (values['keep-logs']) process.stderr.write(`landscape of round ${round + 1} kept in ${dir}\n`);
    else rmSync(dir, { recursive: true, force: true });
  }
  process.stderr.write(`round ${round + 1}/${rounds} done\n`);
}

interface MachinePod {
  name: string;
  uid: string;
  phase: string;
}

/** The machine Pods (`machine-*`) in the shoot's control plane namespace of the seed (the landscape's cluster). */
function machinePods(kc: string): MachinePod[] {
  const out = kubectl(kc, [
    '-n',
    NAMESPACE,
    'get',
    'pods',
    '-o',
    'jsonpath={range .items[*]}{.metadata.name} {.metadata.uid} {.status.phase}{"\\n"}{end}',
  ]);
  return out
    .split('\n')
    .filter((line) => line.startsWith('machine-'))
    .map((line) => {
      const [name, uid, phase] = line.split(' ');
      return { name, uid, phase };
    });
}

function describeMachinePods(kc: string): string {
  try {
    const pods = machinePods(kc);
    return `${pods.length} (${pods.map((p) => p.phase).join(', ')})`;
  } catch (err) {
    return `unknown (${(err as Error).message.split('\n')[0]})`;
  }
}

function nodeCount(shootKc: string): number {
  try {
    return kubectl(shootKc, ['get', 'nodes', '-o', 'name']).split('\n').filter(Boolean).length;
  } catch {
    return -1;
  }
}

/**
 * The process tree of each machine Pod: the landscape's kubelet records every container's process (group leader) in
 * `<data dir>/kubelet/pods/<uid>/pids/<container>.json`; the machine's node-agent, kubelet and kube-proxy are its
 * descendants.
 */
function machineTrees(kc: string, landscapeDir: string) {
  return machinePods(kc).flatMap((pod) => {
    const pids = join(landscapeDir, 'kubelet', 'pods', pod.uid, 'pids');
    if (!existsSync(pids)) return [];
    return readdirSync(pids).map((file) => {
      const { pid } = JSON.parse(readFileSync(join(pids, file), 'utf8')) as { pid: number };
      return { pod: pod.name, rss: treeRss(pid) };
    });
  });
}

const seconds = (ms: number) => (ms / 1000).toFixed(1);
const med = (xs: (number | undefined)[], format: (n: number) => string) => {
  const measured = xs.filter((x): x is number => x !== undefined);
  return measured.length ? `${format(median(measured))} (${measured.length} of ${xs.length})` : 'not measured';
};
const mib = (n: number) => n.toFixed(0);
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
console.log(
  `Node ${process.version}, ${rounds} round(s), idle wait ${idleMs / 1000} s, load average ` +
    `${loadAtStart.map((l) => l.toFixed(2)).join(' ')} at start, ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} at end\n`,
);
console.log('| | median (rounds measured) |');
console.log('| --- | --- |');
console.log(
  `| \`kubectl apply\` to Create Succeeded and the Node Ready, s | ${med(
    results.map((r) => r.createdMs),
    seconds,
  )} |`,
);
console.log(
  `| RSS of one idle machine Pod (process tree), MiB | ${med(
    results.map((r) => r.oneMachineMiB),
    mib,
  )} |`,
);
console.log(
  `| patch 1 → 2 to 2 Nodes Ready, s | ${med(
    results.map((r) => r.twoMs),
    seconds,
  )} |`,
);
console.log(
  `| patch 2 → 1 to 1 machine and 1 Node left, s | ${med(
    results.map((r) => r.backToOneMs),
    seconds,
  )} |`,
);
console.log(
  `| patch 1 → ${many} to ${many} Nodes Ready, s | ${med(
    results.map((r) => r.manyMs),
    seconds,
  )} |`,
);
console.log(
  `| RSS the ${many - 1} extra machine Pods add (sum of the machine trees at ${many} − the one at 1), MiB | ${med(
    results.map((r) => (r.manyMachinesMiB && r.oneMachineMiB ? sum(r.manyMachinesMiB) - r.oneMachineMiB : undefined)),
    mib,
  )} |`,
);
console.log(
  `| the same per extra machine, MiB | ${med(
    results.map((r) =>
      r.manyMachinesMiB && r.oneMachineMiB ? (sum(r.manyMachinesMiB) - r.oneMachineMiB) / (many - 1) : undefined,
    ),
    mib,
  )} |`,
);
console.log(
  `| growth of the landscape's whole process tree from 1 machine to ${many}, MiB | ${med(
    results.map((r) => r.landscapeGrowthMiB),
    mib,
  )} |`,
);
console.log(
  `\n| round | create → Node Ready, s | one machine, MiB | 1 → 2, s | 2 → 1, s | 1 → ${many}, s | ${many - 1} extra, MiB |`,
);
console.log('| --- | --- | --- | --- | --- | --- | --- |');
const cell = (n: number | undefined, format: (n: number) => string) => (n === undefined ? '–' : format(n));
for (const [i, r] of results.entries()) {
  const extra = r.manyMachinesMiB && r.oneMachineMiB ? sum(r.manyMachinesMiB) - r.oneMachineMiB : undefined;
  console.log(
    `| ${i + 1} | ${cell(r.createdMs, seconds)} | ${cell(r.oneMachineMiB, mib)} | ${cell(r.twoMs, seconds)} | ` +
      `${cell(r.backToOneMs, seconds)} | ${cell(r.manyMs, seconds)} | ${cell(extra, mib)} |`,
  );
}
const first = results[0];
if (first.oneMachineTop) {
  console.log('\n| process of the one machine Pod (first round) | MiB |\n| --- | --- |');
  for (const [name, size] of first.oneMachineTop) console.log(`| ${name} | ${mib(size)} |`);
}
if (first.manyTop) {
  console.log(
    `\n| process, summed over the ${many} machine Pods (first round) | MiB | per machine |\n| --- | --- | --- |`,
  );
  for (const [name, size] of first.manyTop) console.log(`| ${name} | ${mib(size)} | ${mib(size / many)} |`);
}
if (first.manyMachinesMiB) {
  console.log(`\nMachine Pods at ${many} (first round), MiB each: ${first.manyMachinesMiB.map(mib).join(', ')}`);
}
if (first.manyProgress.length) {
  console.log(
    `\nReady Nodes after the patch to ${many} (first round; s: count): ` +
      first.manyProgress.map(([s, n]) => `${s.toFixed(0)}: ${n}`).join(', '),
  );
}
for (const [i, r] of results.entries()) if (r.failure) console.log(`\nRound ${i + 1} failed: ${r.failure}`);
