// A shoot on the local landscape, as a user creates one: Gardener's provider-local example Shoot applied with kubectl
// to a fresh landscape; the time until its lastOperation is Create Succeeded 100 %, the memory the shoot adds to the
// landscape (the process tree of `gardener-local up`: every Pod is a child process), and the time from deletion to the
// Shoot being gone. Prints a markdown table of medians.
//
//   npx nx run-many -t build && npx tsx bench/shoot/run.ts [--rounds 2] [--idle-seconds 10]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { freePort, median, ROOT, startLandscape, stop, treeRss } from '../support/landscape.js';

const KUBECTL = join(ROOT, 'tools', 'k8s-binaries', 'vendor', 'kubectl');
const SHOOT = join(ROOT, 'deploy', 'gardener', 'examples', 'local', 'shoot.yaml');

const kubectl = (kubeconfig: string, args: string[]) =>
  execFileSync(KUBECTL, ['--kubeconfig', kubeconfig, ...args], { encoding: 'utf8' });

async function until(what: string, check: () => boolean, timeoutMs: number): Promise<number> {
  const started = performance.now();
  for (;;) {
    if (check()) return performance.now() - started;
    if (performance.now() - started > timeoutMs) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const { values } = parseArgs({ options: { rounds: { type: 'string' }, 'idle-seconds': { type: 'string' } } });
const rounds = Number(values.rounds ?? 2);
const idleMs = Number(values['idle-seconds'] ?? 10) * 1000;
const created: number[] = [];
const deleted: number[] = [];
const shootMiB: number[] = [];
const shootProcesses: [string, number][][] = [];
const load = loadavg()[0];
for (let round = 0; round < rounds; round++) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-shoot-'));
  const kc = join(dir, 'landscape', 'kubeconfig');
  const { proc } = await startLandscape(join(dir, 'landscape'), await freePort());
  try {
    await new Promise((r) => setTimeout(r, idleMs));
    const before = treeRss(proc.pid!);
    kubectl(kc, ['apply', '-f', SHOOT]);
    const jsonpath = (path: string) =>
      kubectl(kc, ['-n', 'garden-local', 'get', 'shoot', 'local', '--ignore-not-found', '-o', `jsonpath=${path}`]);
    created.push(
      await until(
        'Create Succeeded',
        () => jsonpath('{.status.lastOperation.type} {.status.lastOperation.state}') === 'Create Succeeded',
        900_000,
      ),
    );
    await new Promise((r) => setTimeout(r, idleMs));
    const after = treeRss(proc.pid!);
    shootMiB.push(after.totalMiB - before.totalMiB);
    const grew = after.top
      .map(([name, mib]): [string, number] => [name, mib - (before.top.find(([n]) => n === name)?.[1] ?? 0)])
      .filter(([, mib]) => mib > 5);
    shootProcesses.push(grew);
    kubectl(kc, ['-n', 'garden-local', 'annotate', 'shoot', 'local', 'confirmation.gardener.cloud/deletion=true']);
    kubectl(kc, ['-n', 'garden-local', 'delete', 'shoot', 'local', '--wait=false']);
    deleted.push(await until('the Shoot to be gone', () => jsonpath('{.metadata.name}') === '', 900_000));
  } finally {
    await stop(proc);
    rmSync(dir, { recursive: true, force: true });
  }
  process.stderr.write(`round ${round + 1}/${rounds} done\n`);
}

const seconds = (ms: number) => (ms / 1000).toFixed(1);
console.log(
  `Node ${process.version}, ${rounds} rounds, load average ${load.toFixed(2)} at start, ${loadavg()[0].toFixed(2)} at end\n`,
);
console.log('| | median |');
console.log('| --- | --- |');
console.log(
  `| \`kubectl apply\` of the example shoot to lastOperation Create Succeeded, s | ${seconds(median(created))} |`,
);
console.log(`| RSS the shoot adds to the landscape, MiB | ${median(shootMiB).toFixed(0)} |`);
console.log(`| \`kubectl delete\` to the Shoot gone, s | ${seconds(median(deleted))} |`);
console.log('\n| process (grew by the shoot, first round) | MiB |\n| --- | --- |');
for (const [name, mib] of shootProcesses[0]) console.log(`| ${name} | ${mib.toFixed(0)} |`);
