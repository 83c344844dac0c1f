// A shoot on the local landscape, as a user creates one: Gardener's provider-local example Shoot applied with kubectl
// to a fresh landscape; the time until its lastOperation is Create Succeeded 100 %, the memory the shoot adds to the
// landscape (the process tree of `gardener-local up`: every Pod is a child process), and the time from deletion to the
// Shoot being gone. Also the time until the shoot is healthy (its five conditions True: the machine's node joined),
// and where the Create flow's time goes: each task's start (seconds after `kubectl apply`) and duration from the
// flow's progress events on NATS (started → succeeded), in the order they started, for the tasks of the first round
// that took 0.5 s or more. Prints markdown tables of medians.
//
//   npx nx run-many -t build && npx tsx bench/shoot/run.ts [--rounds 2] [--idle-seconds 10] [--keep-logs] [--task-ms 500]
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { connect } from '@nats-io/transport-node';
import { fromTimestamp, replayEvents } from '@gardener-ts/messaging';
import {
  freePort,
  kubectl,
  median,
  SHOOT_EXAMPLE as SHOOT,
  startLandscape,
  stop,
  treeRss,
  until,
} from '../support/landscape.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string' },
    'idle-seconds': { type: 'string' },
    'keep-logs': { type: 'boolean' },
    'task-ms': { type: 'string' },
  },
});
const rounds = Number(values.rounds ?? 2);
/** The tasks listed: those that took at least this long (`--task-ms`, 500 by default). */
const taskMs = Number(values['task-ms'] ?? 500);
const idleMs = Number(values['idle-seconds'] ?? 10) * 1000;
const created: number[] = [];
const healthy: number[] = [];
let slowTasks: TaskTiming[] = [];
const deleted: number[] = [];
const shootMiB: number[] = [];
const shootPssMiB: number[] = [];
const shootProcesses: [string, number][][] = [];
const load = loadavg()[0];
for (let round = 0; round < rounds; round++) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-shoot-'));
  const kc = join(dir, 'landscape', 'kubeconfig');
  const { proc, run } = await startLandscape(join(dir, 'landscape'), await freePort());
  try {
    await new Promise((r) => setTimeout(r, idleMs));
    const before = treeRss(proc.pid!);
    const applied = new Date();
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
    // From the apply: the time to Create Succeeded plus the wait after it.
    healthy.push(
      created.at(-1)! +
        (await until(
          'the five conditions True',
          () => jsonpath('{.status.conditions[*].status}') === 'True True True True True',
          900_000,
        )),
    );
    if (round === 0 && run.natsUrl) slowTasks = await taskTimings(run.natsUrl, applied);
    await new Promise((r) => setTimeout(r, idleMs));
    const after = treeRss(proc.pid!);
    shootMiB.push(after.totalMiB - before.totalMiB);
    shootPssMiB.push(after.pssMiB - before.pssMiB);
    const grew = after.top
      .map(([name, mib]): [string, number] => [name, mib - (before.top.find(([n]) => n === name)?.[1] ?? 0)])
      .filter(([, mib]) => mib > 5);
    shootProcesses.push(grew);
    // --keep-logs: the shoot's Pods (its machine's own kubelet and Pods among them) are deleted with the shoot; their
    // logs are copied first, to <dir>/shoot-logs.
    if (values['keep-logs']) keepPodLogs(join(dir, 'landscape'), join(dir, 'shoot-logs'));
    kubectl(kc, ['-n', 'garden-local', 'annotate', 'shoot', 'local', 'confirmation.gardener.cloud/deletion=true']);
    kubectl(kc, ['-n', 'garden-local', 'delete', 'shoot', 'local', '--wait=false']);
    deleted.push(await until('the Shoot to be gone', () => jsonpath('{.metadata.name}') === '', 900_000));
  } finally {
    await stop(proc);
    // --keep-logs: the landscape's data dir (the components' and the Pods' logs) stays for a look at where time went.
    if (values['keep-logs']) process.stderr.write(`landscape of round ${round + 1} kept in ${dir}\n`);
    else rmSync(dir, { recursive: true, force: true });
  }
  process.stderr.write(`round ${round + 1}/${rounds} done\n`);
}

/** Copies every file under a `logs` folder of `from` to the same relative path under `to`. */
function keepPodLogs(from: string, to: string): void {
  for (const entry of readdirSync(from, { recursive: true, withFileTypes: true })) {
    const file = join(entry.parentPath, entry.name);
    const rel = relative(from, file);
    if (!entry.isFile() || !rel.split(sep).includes('logs')) continue;
    mkdirSync(dirname(join(to, rel)), { recursive: true });
    copyFileSync(file, join(to, rel));
  }
}

interface TaskTiming {
  task: string;
  /** ms after `kubectl apply`. */
  startedAt: number;
  took: number;
}

/** The tasks of the Create flow of shoot garden-local/local that took `taskMs` or more, in the order they started. */
async function taskTimings(natsUrl: string, since: Date): Promise<TaskTiming[]> {
  const nc = await connect({ servers: natsUrl });
  const started = new Map<string, number>();
  const timings: TaskTiming[] = [];
  const replay = await replayEvents(
    nc,
    { since, filter: { kind: 'Shoot', namespace: 'garden-local', name: 'local' } },
    (event) => {
      const task = event.payload === 'operationProgress' ? event.operationProgress.task : undefined;
      const time = event.metadata?.time && fromTimestamp(event.metadata.time).getTime();
      if (!task?.id || !time) return;
      if (task.phase === 'TASK_PHASE_STARTED') started.set(task.id, time);
      else if (task.phase === 'TASK_PHASE_SUCCEEDED' && started.has(task.id)) {
        const at = started.get(task.id)!;
        timings.push({ task: task.id, startedAt: at - since.getTime(), took: time - at });
      }
    },
  );
  await new Promise((r) => setTimeout(r, 3_000));
  await replay.stop();
  await nc.close();
  return timings.filter((t) => t.took >= taskMs).sort((a, b) => a.startedAt - b.startedAt);
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
console.log(`| \`kubectl apply\` to the five conditions True (node joined), s | ${seconds(median(healthy))} |`);
console.log(`| RSS the shoot adds to the landscape, MiB | ${median(shootMiB).toFixed(0)} |`);
console.log(
  `| PSS the shoot adds (shared pages counted once: what the machine spends), MiB | ${median(shootPssMiB).toFixed(0)} |`,
);
console.log(`| \`kubectl delete\` to the Shoot gone, s | ${seconds(median(deleted))} |`);
console.log('\n| process (grew by the shoot, first round) | PSS, MiB |\n| --- | --- |');
for (const [name, mib] of shootProcesses[0]) console.log(`| ${name} | ${mib.toFixed(0)} |`);
console.log(
  `\n| tasks of the Create flow taking ${seconds(taskMs)} s or more (first round) | started, s after apply | took, s |`,
);
console.log('| --- | --- | --- |');
for (const t of slowTasks) console.log(`| ${t.task} | ${seconds(t.startedAt)} | ${seconds(t.took)} |`);
