// Benchmark of gardener-scheduler, every piece in its own process as in a landscape: the local API server
// (gardener-local apiserver, memory storage), nats-server, and the built scheduler (dist/apps/scheduler/main.js)
// with Gardener's example configuration. This script creates the objects and watches; it shares the cores too.
//
//  1. Throughput: SEEDS ready seeds (20 regions, allocatable 250 shoots each) and SHOOTS pending shoots exist before
//     the scheduler starts; measured from the scheduler's "Shoot scheduler started" line (caches synced) until every
//     shoot has spec.seedName, and from process spawn. Once per strategy.
//  2. Preview latency: PREVIEWS sequential NATS requests (SchedulingPreviewRequest with a shoot spec) against the
//     scheduler that holds those seeds and shoots; p50/p90/p99.
//
// Run: npx nx build scheduler gardener-local && npx tsx --conditions=@gardener-ts/source bench/scheduler/run.ts
// Env: BENCH_SEEDS (1000), BENCH_SHOOTS (1000), BENCH_PREVIEWS (1000), BENCH_STRATEGIES (SameRegion,MinimalDistance),
// BENCH_SCHEDULER_NODE_FLAGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" to profile the scheduler)
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir, cpus } from 'node:os';
import { join } from 'node:path';
import { loadYaml } from '@kubernetes/client-node';
import { generatedCRDs } from '@gardener-ts/api';
import { ApiClient, CustomResourceDefinitionKind, kind, type KubernetesObject } from '@gardener-ts/controller-runtime';
import { createLogger } from '@gardener-ts/logging';
import { MessagingClient } from '@gardener-ts/messaging';
import { requestPreview } from '@gardener-ts/scheduling';
// Straight from the sources: the harness packages' index imports vitest, which a plain script cannot load.
import { freePort } from '../../libs/test-support/src/ports.js';
import { waitFor } from '../../libs/test-support/src/wait.js';
import { workspaceRoot } from '../../libs/test-support/src/workspace.js';
import { startApiServerProcess } from '../support/apiserver-process.js';

const SEEDS = Number(process.env.BENCH_SEEDS ?? 1000);
const SHOOTS = Number(process.env.BENCH_SHOOTS ?? 1000);
const PREVIEWS = Number(process.env.BENCH_PREVIEWS ?? 1000);
const STRATEGIES = (process.env.BENCH_STRATEGIES ?? 'SameRegion,MinimalDistance').split(',');
const REGIONS = Array.from(
  { length: 20 },
  (_, i) => `region-${String.fromCharCode(97 + i)}-${i % 3 === 0 ? 'west' : i % 3 === 1 ? 'east' : 'central'}-1`,
);
const ROOT = workspaceRoot();
const SCHEDULER = join(ROOT, 'dist', 'apps', 'scheduler', 'main.js');

const ShootKind = kind<KubernetesObject & { spec: { seedName?: string } }>('core.gardener.cloud/v1beta1', 'Shoot');
const SeedKind = kind('core.gardener.cloud/v1beta1', 'Seed');
const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Runs `fn` for 0..n-1 with `concurrency` in flight. */
async function parallel(n: number, concurrency: number, fn: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) await fn(next++);
    }),
  );
}

function seed(i: number) {
  return {
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'Seed',
    metadata: { name: `seed-${String(i).padStart(4, '0')}` },
    spec: {
      provider: { type: 'local', region: REGIONS[i % REGIONS.length], zones: ['a', 'b', 'c'] },
      dns: { provider: { type: 'local' } },
      networks: {
        nodes: '172.18.0.0/16',
        pods: '10.1.0.0/16',
        services: '10.2.0.0/16',
        shootDefaults: { pods: '10.3.0.0/16', services: '10.4.0.0/16' },
      },
      settings: { scheduling: { visible: true } },
    },
  };
}

const readyStatus = {
  status: {
    lastOperation: { type: 'Reconcile', state: 'Succeeded', progress: 100, description: 'ok', lastUpdateTime: now },
    conditions: [
      {
        type: 'GardenletReady',
        status: 'True',
        reason: 'GardenletReady',
        message: '',
        lastTransitionTime: now,
        lastUpdateTime: now,
      },
    ],
    allocatable: { shoots: '250' },
  },
};

function shootSpec(i: number) {
  return {
    cloudProfile: { name: 'local' },
    region: REGIONS[(i * 7) % REGIONS.length],
    kubernetes: { version: '1.33.0' },
    networking: { type: 'calico', nodes: '10.0.0.0/16' },
    provider: { type: 'local', workers: [{ name: 'local', machine: { type: 'local' }, minimum: 1, maximum: 2 }] },
  };
}

async function startNats(): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const proc: ChildProcess = spawn(process.env.NATS_SERVER ?? 'nats-server', ['-a', '127.0.0.1', '-p', String(port)], {
    stdio: 'ignore',
  });
  return {
    url: `nats://127.0.0.1:${port}`,
    async stop() {
      const exited = once(proc, 'exit');
      proc.kill('SIGTERM');
      await exited;
    },
  };
}

async function prepare(kubeconfig: string): Promise<ApiClient> {
  const client = await ApiClient.create(kubeconfig);
  const crds = generatedCRDs() as unknown as KubernetesObject[];
  for (const crd of crds) await client.create(crd);
  await waitFor(
    'the CRDs to be established',
    async () => {
      const listed = await client.list(CustomResourceDefinitionKind);
      return (
        listed.items.filter((c) =>
          (c.status?.conditions as { type: string; status: string }[] | undefined)?.some(
            (x) => x.type === 'Established' && x.status === 'True',
          ),
        ).length >= crds.length
      );
    },
    { timeoutMs: 60_000 },
  );
  for (const name of ['garden', 'garden-bench'])
    await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  const profile = loadYaml<KubernetesObject>(
    await readFile(join(ROOT, '..', 'shared', 'gardener-examples', 'local', 'cloudprofile.yaml'), 'utf8'),
  );
  await client.create(profile);
  await parallel(SEEDS, 32, async (i) => {
    const s = seed(i);
    await client.create(s);
    await client.patch(
      SeedKind,
      { name: s.metadata.name },
      { type: 'merge', patch: readyStatus },
      { subresource: 'status' },
    );
  });
  await parallel(SHOOTS, 32, (i) =>
    client.create({
      apiVersion: 'core.gardener.cloud/v1beta1',
      kind: 'Shoot',
      metadata: { name: `shoot-${i}`, namespace: 'garden-bench' },
      spec: shootSpec(i),
    }),
  );
  return client;
}

interface Run {
  strategy: string;
  fromStartedMs: number;
  fromSpawnMs: number;
  seedsUsed: number;
  maxPerSeed: number;
  preview?: { p50: number; p90: number; p99: number; max: number };
}

async function runStrategy(strategy: string): Promise<Run> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-scheduler-'));
  const server = await startApiServerProcess(dir);
  const nats = await startNats();
  let scheduler: ReturnType<typeof spawn> | undefined;
  try {
    const client = await prepare(server.kubeconfig);
    const config = join(dir, 'scheduler.yaml');
    const fixture = await readFile(join(ROOT, 'apps', 'scheduler', 'test', 'fixtures', 'config.yaml'), 'utf8');
    // Gardener's example config throttles the client at qps 100 / burst 130, which caps 1,000 bindings plus their events
    // at about 20 s for Gardener and for us alike; the bench measures the scheduler, so it lifts the throttle unless
    // BENCH_SCHEDULER_THROTTLED=1 asks for the example's own limits.
    const throttled = process.env.BENCH_SCHEDULER_THROTTLED === '1';
    const limits = throttled ? fixture : fixture.replace(/qps: \d+/, 'qps: 5000').replace(/burst: \d+/, 'burst: 5000');
    await writeFile(
      config,
      `${limits.replace('candidateDeterminationStrategy: MinimalDistance', `candidateDeterminationStrategy: ${strategy}`)}nats:\n  servers: ${nats.url}\n`,
    );

    // Watch the shoots from here: count those bound.
    const bound = new Set<string>();
    let allBound!: () => void;
    const done = new Promise<void>((r) => (allBound = r));
    const watchAbort = new AbortController();
    const list = await client.list(ShootKind, { namespace: 'garden-bench' });
    void client
      .watch(
        ShootKind,
        { namespace: 'garden-bench', resourceVersion: list.metadata.resourceVersion, signal: watchAbort.signal },
        (event) => {
          if (event.object.spec?.seedName) bound.add(event.object.metadata!.name!);
          if (bound.size === SHOOTS) allBound();
        },
      )
      .catch(() => undefined);

    const spawned = performance.now();
    let started = 0;
    const nodeFlags = (process.env.BENCH_SCHEDULER_NODE_FLAGS ?? '').split(' ').filter(Boolean);
    scheduler = spawn(process.execPath, [...nodeFlags, SCHEDULER, '--config', config], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, KUBECONFIG: server.kubeconfig },
    });
    let log = '';
    scheduler.stderr!.on('data', (d: Buffer) => {
      log += d.toString();
      if (!started && log.includes('Shoot scheduler started')) started = performance.now();
      if (log.length > 1 << 20) log = log.slice(-(1 << 16));
    });
    await Promise.race([
      done,
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error(`only ${bound.size} of ${SHOOTS} bound after 120 s`)), 120_000),
      ),
    ]);
    const finished = performance.now();
    watchAbort.abort();

    const shoots = (await client.list(ShootKind, { namespace: 'garden-bench' })).items;
    const perSeed = new Map<string, number>();
    for (const s of shoots) perSeed.set(s.spec.seedName!, (perSeed.get(s.spec.seedName!) ?? 0) + 1);
    const run: Run = {
      strategy,
      fromStartedMs: finished - started,
      fromSpawnMs: finished - spawned,
      seedsUsed: perSeed.size,
      maxPerSeed: Math.max(...perSeed.values()),
    };

    if (PREVIEWS > 0) {
      const messaging = new MessagingClient({
        servers: nats.url,
        name: 'bench',
        logger: createLogger({ name: 'bench', level: 'silent' }),
      }).start();
      await messaging.connection();
      const latencies: number[] = [];
      for (let i = 0; i < 20; i++)
        await requestPreview(messaging, { shoot: { metadata: { namespace: 'garden-bench' }, spec: shootSpec(i) } }); // warm-up
      for (let i = 0; i < PREVIEWS; i++) {
        const t = performance.now();
        const answer = await requestPreview(messaging, {
          shoot: { metadata: { name: `preview-${i}`, namespace: 'garden-bench' }, spec: shootSpec(i) },
        });
        latencies.push(performance.now() - t);
        if (!answer.seed) throw new Error(`preview found no seed: ${answer.error || answer.message}`);
      }
      await messaging.close();
      latencies.sort((a, b) => a - b);
      const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))];
      run.preview = { p50: q(0.5), p90: q(0.9), p99: q(0.99), max: latencies[latencies.length - 1] };
    }
    client.close();
    return run;
  } finally {
    if (scheduler && scheduler.exitCode === null) {
      await new Promise((r) => (scheduler!.once('exit', r), scheduler!.kill('SIGTERM')));
    }
    await nats.stop();
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

const load = loadavg()
  .map((l) => l.toFixed(2))
  .join(' ');
console.log(`Node ${process.version}, ${cpus().length} cores, load average before: ${load}`);
console.log(`${SEEDS} seeds in ${REGIONS.length} regions, ${SHOOTS} pending shoots, ${PREVIEWS} preview requests`);
const runs: Run[] = [];
for (const strategy of STRATEGIES) {
  const run = await runStrategy(strategy);
  runs.push(run);
  console.log(JSON.stringify(run));
}
console.log(
  `load average after: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
console.log(
  '\n| strategy | all bound after caches synced, s | from process spawn, s | seeds used | max shoots on one seed | preview p50 ms | p90 ms | p99 ms | max ms |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
for (const r of runs) {
  const p = r.preview;
  console.log(
    `| ${r.strategy} | ${(r.fromStartedMs / 1000).toFixed(2)} | ${(r.fromSpawnMs / 1000).toFixed(2)} | ${r.seedsUsed} | ${r.maxPerSeed} | ${p ? p.p50.toFixed(1) : '–'} | ${p ? p.p90.toFixed(1) : '–'} | ${p ? p.p99.toFixed(1) : '–'} | ${p ? p.max.toFixed(1) : '–'} |`,
  );
}
