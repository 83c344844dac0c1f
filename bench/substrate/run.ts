// Benchmark of the local substrate's path from a StatefulSet with a volume claim template to a running Pod, the path a
// shoot's etcd takes (its StatefulSet names no StorageClass, so its claims get the cluster's default one): one local
// cluster (API server, controller manager, kubelet, service proxy) runs in this process from the sources, as the
// substrate's own tests run it; the script creates StatefulSets one after the other and watches claims, volumes and
// Pods, recording when each step was first seen (watch events, millisecond clock of this process):
//   claim created → default class set → node selected → volume created → claim Bound → Pod created → Pod bound to a
//   node → container running.
// It also counts the kubelet's "Volumes not ready" retries per Pod (from the cluster's log).
// Run: npx tsx --conditions=@gardener-ts/source bench/substrate/run.ts [--runs 5] [--log debug]
//      (--log sets the cluster's log level and keeps <tmp>/cluster.log)
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ApiClient } from '@gardener-ts/controller-runtime';
import { createLogger } from '@gardener-ts/logging';
import { defaultComponents } from '../../libs/local-cluster/src/cluster/components.js';
import { clusterLayout } from '../../libs/local-cluster/src/cluster/layout.js';
import { runCluster } from '../../libs/local-cluster/src/cluster/supervisor.js';
import {
  type PersistentVolume,
  type PersistentVolumeClaim,
  PersistentVolumeClaimKind,
  PersistentVolumeKind,
  type Pod,
  PodKind,
  type StatefulSet,
} from '../../libs/local-cluster/src/controllers/shared/kinds.js';

const { values: flags } = parseArgs({ options: { runs: { type: 'string', default: '5' }, log: { type: 'string' } } });
const RUNS = Number(flags.runs);
const NAMESPACE = 'default';
const TIMEOUT_MS = 120_000;

const STEPS = [
  'claim created',
  'default class set',
  'node selected',
  'volume created',
  'claim Bound',
  'Pod created',
  'Pod unschedulable',
  'Pod bound to node',
  'container running',
] as const;
type Step = (typeof STEPS)[number];

const log = (msg: string) => process.stderr.write(`[${new Date().toISOString().slice(11, 23)}] ${msg}\n`);
const median = (xs: number[]) => {
  const s = xs.slice().sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** A StatefulSet like the etcd one in what matters here: one replica, one claim template without a class. */
function statefulSet(name: string): StatefulSet {
  const labels = { app: name };
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name, namespace: NAMESPACE },
    spec: {
      replicas: 1,
      serviceName: name,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: {
          terminationGracePeriodSeconds: 0,
          containers: [
            { name: 'main', image: 'bench.local/sleep:v1', volumeMounts: [{ name: 'data', mountPath: '/data' }] },
          ],
        },
      },
      volumeClaimTemplates: [
        {
          metadata: { name: 'data' },
          spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
        },
      ],
    },
  };
}

/** First time each step of each StatefulSet was seen, in ms since its create request. */
class Timeline {
  private readonly starts = new Map<string, number>();
  private readonly seen = new Map<string, Map<Step, number>>();
  private readonly waiters = new Map<string, () => void>();

  start(set: string): void {
    this.starts.set(set, performance.now());
    this.seen.set(set, new Map());
  }

  mark(set: string | undefined, step: Step): void {
    const steps = set === undefined ? undefined : this.seen.get(set);
    if (!steps || steps.has(step)) return;
    steps.set(step, performance.now() - this.starts.get(set!)!);
    if (step === 'container running') this.waiters.get(set!)?.();
  }

  done(set: string): Promise<void> {
    if (this.seen.get(set)?.has('container running')) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${set}: no running container after ${TIMEOUT_MS} ms`)),
        TIMEOUT_MS,
      );
      this.waiters.set(set, () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  steps(set: string): Map<Step, number> {
    return this.seen.get(set) ?? new Map();
  }
}

// The StatefulSet an object belongs to: claims are `data-<set>-0`, Pods `<set>-0`, volumes name their claim.
const setOfPod = (name = '') => /^(.*)-\d+$/.exec(name)?.[1];
const setOfClaim = (name = '') => setOfPod(name.replace(/^data-/, ''));

function watchAll(api: ApiClient, timeline: Timeline, signal: AbortSignal): void {
  const forever = (run: () => Promise<void>, what: string): void => {
    const loop = async () => {
      while (!signal.aborted) {
        await run().catch((err: unknown) => {
          if (!signal.aborted) log(`watch of ${what} broke: ${(err as Error).message}`);
        });
      }
    };
    void loop();
  };
  forever(
    () =>
      api.watch<PersistentVolumeClaim>(PersistentVolumeClaimKind, { namespace: NAMESPACE, signal }, ({ object: c }) => {
        const set = setOfClaim(c.metadata?.name);
        timeline.mark(set, 'claim created');
        if (c.spec?.storageClassName) timeline.mark(set, 'default class set');
        if (c.metadata?.annotations?.['volume.kubernetes.io/selected-node']) timeline.mark(set, 'node selected');
        if (c.status?.phase === 'Bound') timeline.mark(set, 'claim Bound');
      }),
    'claims',
  );
  forever(
    () =>
      api.watch<PersistentVolume>(PersistentVolumeKind, { signal }, ({ object: v }) =>
        timeline.mark(setOfClaim(v.spec?.claimRef?.name), 'volume created'),
      ),
    'volumes',
  );
  forever(
    () =>
      api.watch<Pod>(PodKind, { namespace: NAMESPACE, signal }, ({ object: p }) => {
        const set = setOfPod(p.metadata?.name);
        timeline.mark(set, 'Pod created');
        const scheduled = p.status?.conditions?.find((c) => c.type === 'PodScheduled');
        if (scheduled?.status === 'False') timeline.mark(set, 'Pod unschedulable');
        if (p.spec?.nodeName) timeline.mark(set, 'Pod bound to node');
        if (p.status?.containerStatuses?.some((s) => s.state?.running)) timeline.mark(set, 'container running');
      }),
    'pods',
  );
}

/** Per Pod (`namespace/name`), how often the kubelet found its volumes not ready (an unbound claim) and retried. */
async function volumeRetries(logFile: string): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const line of (await readFile(logFile, 'utf8')).split('\n')) {
    if (!line.includes('Volumes not ready')) continue;
    const pod = (JSON.parse(line) as { pod?: string }).pod ?? '';
    counts.set(pod, (counts.get(pod) ?? 0) + 1);
  }
  return counts;
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-substrate-'));
  const imageMap = join(dir, 'images.json');
  await writeFile(
    imageMap,
    JSON.stringify({ images: [{ image: 'bench.local/sleep:v1', command: ['sleep', 'infinity'] }] }),
  );
  // The cluster's log (info: the kubelet's "Volumes not ready" lines are counted below).
  const logFile = join(dir, 'cluster.log');
  const logStream = createWriteStream(logFile);
  const logger = createLogger({
    name: 'bench-substrate',
    level: (flags.log ?? 'info') as 'info',
    destination: logStream,
  });
  log(`cores ${cpus().length}, load average ${load()} at start`);
  const layout = clusterLayout(dir, 'substrate');
  const cluster = await runCluster(layout, defaultComponents({ imageMapFile: imageMap }), logger);
  const api = await ApiClient.create(cluster.context.kubeConfig);
  const abort = new AbortController();
  const timeline = new Timeline();
  const sets: string[] = [];
  try {
    watchAll(api, timeline, abort.signal);
    await new Promise((resolve) => setTimeout(resolve, 1000)); // the watches open; the cluster settles
    for (let i = 0; i < RUNS; i++) {
      const name = `etcd-like-${i}`;
      sets.push(name);
      timeline.start(name);
      await api.create(statefulSet(name));
      await timeline.done(name);
      const steps = timeline.steps(name);
      log(`${name}: ${STEPS.map((s) => `${s} ${steps.get(s)?.toFixed(0) ?? '–'}`).join(', ')} ms`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  } finally {
    abort.abort();
    log(`load average ${load()} at end`);
    api.close();
    await cluster.stop();
    await new Promise((resolve) => setTimeout(resolve, 300)); // the log's last lines reach the file
  }
  const retries = await volumeRetries(logFile);
  if (flags.log) log(`cluster log kept: ${logFile}`);
  else await rm(dir, { recursive: true, force: true });

  // Markdown table: per step the median and range of the time since the create request.
  const rows = STEPS.map((step) => {
    const xs = sets.flatMap((s) => {
      const t = timeline.steps(s).get(step);
      return t === undefined ? [] : [t];
    });
    const cell = xs.length
      ? `${median(xs).toFixed(0)} (${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)})`
      : '–';
    return `| ${step} | ${cell} | ${xs.length}/${sets.length} |`;
  });
  const counts = sets.map((s) => retries.get(`${NAMESPACE}/${s}-0`) ?? 0);
  rows.push(
    `| kubelet "Volumes not ready" per Pod | ${median(counts)} (${Math.min(...counts)}–${Math.max(...counts)}) | – |`,
  );
  process.stdout.write(
    [
      '| step (first seen) | ms after create, median (min–max) | runs that saw it |',
      '| --- | --- | --- |',
      ...rows,
    ].join('\n') + '\n',
  );
}

await main();
