// Storage benchmark of the local API server: memory, file and etcd backends, with raw etcd puts through the same
// client (etcd3) as the floor the etcd backend is compared with. Prints a markdown table of the medians over runs.
//   npx tsx bench/storage/run.ts [--runs 3] [--count 10000]
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Etcd3 } from 'etcd3';
import {
  EtcdStorage,
  FileStorage,
  MemoryStorage,
  type KubeObject,
  type Storage,
} from '../../libs/local-apiserver/src/storage/index.js';
import { startEtcd } from '../../libs/local-apiserver/test/storage/etcd-process.js';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '3' }, count: { type: 'string', default: '10000' } },
});
const RUNS = Number(values.runs);
const COUNT = Number(values.count);
const CONCURRENCY = 32;
const WATCHERS = 100;
const WATCH_WRITES = 200;

type Metrics = Record<string, number>;

const pod = (name: string, i: number): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name,
    namespace: 'bench',
    labels: { app: 'bench', shard: String(i % 16) },
    annotations: { note: 'x'.repeat(200) },
  },
  spec: {
    nodeName: `node-${i % 8}`,
    containers: [
      {
        name: 'main',
        image: 'registry.local/bench:1.0',
        args: ['--serve', `--id=${i}`],
        resources: { requests: { cpu: '10m', memory: '16Mi' } },
      },
    ],
  },
  status: { phase: 'Running', podIP: `10.0.${(i >> 8) & 255}.${i & 255}` },
});

/** Runs `op(i)` for i in [0, count) with `concurrency` workers; returns operations per second. */
async function rate(count: number, concurrency: number, op: (i: number) => Promise<unknown>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < count; i = next++) await op(i);
    }),
  );
  return count / ((performance.now() - started) / 1000);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Latency from the start of a write to its delivery, over WATCHERS watchers of the written prefix. */
async function watchLatency(storage: Storage, prefix: string): Promise<{ p50: number; p99: number }> {
  const samples: number[] = [];
  let writeStarted = 0;
  let delivered = 0;
  let measuring = false;
  let allDelivered: () => void = () => {};
  const watches = Array.from({ length: WATCHERS }, () =>
    storage.watch(
      { prefix },
      () => {
        if (measuring) samples.push(performance.now() - writeStarted);
        if (++delivered === WATCHERS) allDelivered();
      },
      (err) => console.error('watch failed:', err.message),
    ),
  );
  const key = `${prefix}watched`;
  const writeAndWait = async (i: number) => {
    delivered = 0;
    const done = new Promise<void>((resolve) => (allDelivered = resolve));
    writeStarted = performance.now();
    await (i === 0 ? storage.create(key, pod('watched', i)) : storage.update(key, pod('watched', i)));
    await done;
  };
  await writeAndWait(0); // every watcher is established once it has seen the first write
  measuring = true;
  for (let i = 1; i <= WATCH_WRITES; i++) await writeAndWait(i);
  for (const w of watches) w.stop();
  return { p50: percentile(samples, 50), p99: percentile(samples, 99) };
}

async function benchStorage(storage: Storage, run: number): Promise<Metrics> {
  const root = `/registry/bench-${run}/`;
  const seqKey = (i: number) => `${root}pods/seq/p${String(i).padStart(6, '0')}`;
  const m: Metrics = {};
  m.seq = await rate(COUNT, 1, (i) => storage.create(seqKey(i), pod(`p${i}`, i)));
  m.conc = await rate(COUNT, CONCURRENCY, (i) => storage.create(`${root}pods/conc/p${i}`, pod(`p${i}`, i)));
  m.gets = await rate(COUNT, 1, async (i) => {
    if (!(await storage.get(seqKey(i)))) throw new Error(`missing ${seqKey(i)}`);
  });
  const lists: number[] = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    const list = await storage.list({ prefix: `${root}pods/seq/` });
    lists.push(performance.now() - started);
    if (list.items.length !== COUNT) throw new Error(`listed ${list.items.length}`);
  }
  m.list = median(lists);
  const latency = await watchLatency(storage, `${root}watch/`);
  m.p50 = latency.p50;
  m.p99 = latency.p99;
  return m;
}

async function benchRawEtcd(endpoint: string, run: number): Promise<Metrics> {
  const client = new Etcd3({ hosts: endpoint });
  const value = (i: number) => Buffer.from(JSON.stringify(pod(`p${i}`, i)));
  try {
    return {
      seq: await rate(COUNT, 1, (i) => client.kv.put({ key: Buffer.from(`/raw-${run}/seq/p${i}`), value: value(i) })),
      conc: await rate(COUNT, CONCURRENCY, (i) =>
        client.kv.put({ key: Buffer.from(`/raw-${run}/conc/p${i}`), value: value(i) }),
      ),
    };
  } finally {
    client.close();
  }
}

const etcd = await startEtcd();
const temp = await mkdtemp(join(tmpdir(), 'storage-bench-'));
const results: Record<string, Metrics[]> = { memory: [], file: [], etcd: [], 'raw etcd put': [] };
try {
  for (let run = 0; run < RUNS; run++) {
    const stores: [string, Storage][] = [
      ['memory', new MemoryStorage()],
      ['file', new FileStorage(join(temp, `file-${run}`))],
      ['etcd', new EtcdStorage({ endpoints: [etcd.endpoint] })],
    ];
    for (const [name, storage] of stores) {
      await storage.open();
      results[name].push(await benchStorage(storage, run));
      await storage.close();
    }
    results['raw etcd put'].push(await benchRawEtcd(etcd.endpoint, run));
    console.error(`run ${run + 1}/${RUNS} done`);
  }
} finally {
  await etcd.stop();
  await rm(temp, { recursive: true, force: true });
}

const med = (name: string, metric: string) => {
  const vals = results[name].map((m) => m[metric]).filter((v) => v !== undefined);
  return vals.length ? median(vals) : undefined;
};
const fmt = (v: number | undefined, digits = 0) =>
  v === undefined ? '–' : v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const etcdVersion = execFileSync('etcd', ['--version']).toString().split('\n')[0];
console.log(
  `Machine: ${cpus().length} cores (${cpus()[0]?.model.trim()}), Node ${process.version}, ${etcdVersion}; ${COUNT.toLocaleString('en-US')} objects; medians of ${RUNS} runs.\n`,
);
console.log(
  `| backend | creates/s sequential | creates/s ${CONCURRENCY} concurrent | gets/s | list ${COUNT.toLocaleString('en-US')} (ms) | watch p50 (ms) | watch p99 (ms) |`,
);
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const name of Object.keys(results)) {
  const row = [
    fmt(med(name, 'seq')),
    fmt(med(name, 'conc')),
    fmt(med(name, 'gets')),
    fmt(med(name, 'list'), 1),
    fmt(med(name, 'p50'), 3),
    fmt(med(name, 'p99'), 3),
  ];
  console.log(`| ${name} | ${row.join(' | ')} |`);
}
const ratio = (metric: string) => (med('raw etcd put', metric)! / med('etcd', metric)!).toFixed(2);
console.log(
  `\netcd backend vs raw etcd puts (raw ÷ backend, target ≤ 1.5): sequential ${ratio('seq')}×, ${CONCURRENCY} concurrent ${ratio('conc')}×`,
);
console.log(
  `watch latency over ${WATCHERS} watchers × ${WATCH_WRITES} writes, from the start of a write to each delivery.`,
);
