// Benchmark of @gardener-ts/controller-runtime against a local API server in its own process:
//  - heap of an informer cache holding 10,000 Secrets of 1 KiB each (after GC, beyond the heap before the cache);
//  - no-op reconciles per second: a controller over those Secrets, first the initial 10,000, then a full re-enqueue,
//    with 1 and 8 workers.
// Run: npx nx build gardener-local && npx tsx --conditions=@gardener-ts/source bench/controller-runtime/run.ts
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ApiClient, Manager, SecretKind, controllerFor, type Controller } from '@gardener-ts/controller-runtime';
import { startApiServerProcess } from '../support/apiserver-process.js';

const OBJECTS = Number(process.env.BENCH_OBJECTS ?? 10_000);

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heapMiB = () => {
  for (let i = 0; i < 3; i++) gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
};

async function createSecrets(client: ApiClient): Promise<void> {
  const payload = Buffer.alloc(768, 'x').toString('base64'); // 1 KiB once base64-encoded
  let next = 0;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (next < OBJECTS) {
        const i = next++;
        await client.create({
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: `s-${i}`, namespace: 'default', labels: { bench: 'yes' } },
          data: { payload },
        });
      }
    }),
  );
}

/** Reconciles per second for the initial OBJECTS keys, then for a re-enqueue of all of them. */
async function reconcileRate(mgr: Manager, workers: number): Promise<{ initial: number; requeued: number }> {
  let count = 0;
  let target = OBJECTS;
  let finished!: () => void;
  let done = new Promise<void>((r) => (finished = r));
  const controller: Controller = controllerFor(mgr, `noop-${workers}`)
    .for(SecretKind, { predicates: [(e) => e.object.metadata?.labels?.bench === 'yes'] })
    .withOptions({ maxConcurrentReconciles: workers })
    .complete(async () => {
      if (++count === target) finished();
    });
  let start = performance.now();
  await waitUntil(() => controller.queue.length > 0 || count > 0);
  start = Math.min(start, performance.now());
  await done;
  const initial = OBJECTS / ((performance.now() - start) / 1000);

  target += OBJECTS;
  done = new Promise<void>((r) => (finished = r));
  start = performance.now();
  for (let i = 0; i < OBJECTS; i++) controller.queue.add(`default/s-${i}`);
  await done;
  return { initial, requeued: OBJECTS / ((performance.now() - start) / 1000) };
}

async function waitUntil(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setTimeout(r, 1));
}

const dir = await mkdtemp(join(tmpdir(), 'bench-controller-runtime-'));
const server = await startApiServerProcess(dir);
try {
  const client = await ApiClient.create(server.kubeconfig);
  await createSecrets(client);
  client.close();

  const before = heapMiB();
  const mgr = await Manager.create({ clusters: { main: server.kubeconfig } });
  mgr.cluster().cache.informerFor(SecretKind);
  const syncStart = performance.now();
  await mgr.start();
  const syncMs = performance.now() - syncStart;
  const cached = mgr.cluster().cache.informerFor(SecretKind).store.size;
  const heap = heapMiB() - before;

  const rates: Record<number, { initial: number; requeued: number }> = {};
  for (const workers of [1, 8]) rates[workers] = await reconcileRate(mgr, workers);
  await mgr.stop();

  console.log(`Node ${process.version}, ${OBJECTS} Secrets of 1 KiB`);
  console.log(`cache sync: ${cached} objects in ${syncMs.toFixed(0)} ms; heap for the cache: ${heap.toFixed(1)} MiB`);
  for (const [workers, r] of Object.entries(rates)) {
    console.log(
      `no-op reconciles/s, ${workers} worker(s): initial ${r.initial.toFixed(0)}, re-enqueued ${r.requeued.toFixed(0)}`,
    );
  }
} finally {
  await server.stop();
  await rm(dir, { recursive: true, force: true });
}
