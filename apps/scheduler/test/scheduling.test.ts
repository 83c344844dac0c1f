// The built scheduler against the local API server with Gardener's CRDs, Gardener's own example objects
// (Gardener's examples vendored in deploy/gardener/examples: the local CloudProfile and Shoot, the general Seed) and made-up ones, started with
// Gardener's example scheduler configuration (fixtures/config.yaml: MinimalDistance) plus a NATS server.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedCRDs, parseManifests, type Seed, type Shoot } from '@gardener-ts/api';
import { ApiClient, kind, type KubernetesObject } from '@gardener-ts/controller-runtime';
import { MessagingClient, subscribeEvents, type SchedulingDecision } from '@gardener-ts/messaging';
import { createLogger } from '@gardener-ts/logging';
import { requestPreview } from '@gardener-ts/scheduling';
import {
  appBundle,
  gardenerAsset,
  startProcess,
  startTestEnvironment,
  stopAllProcesses,
  waitFor,
  type RunningProcess,
  type TestEnvironment,
} from '@gardener-ts/testing';

const EXAMPLES = gardenerAsset('examples');
const example = (file: string) =>
  parseManifests(readFileSync(join(EXAMPLES, file), 'utf8'), file)[0] as Record<string, any>;
const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

const ShootKind = kind<Shoot>('core.gardener.cloud/v1beta1', 'Shoot');
const SeedKind = kind<Seed>('core.gardener.cloud/v1beta1', 'Seed');
const EventKind = kind<
  KubernetesObject & { reason?: string; message?: string; type?: string; involvedObject?: { name?: string } }
>('v1', 'Event');

const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
const condition = (type: string) => ({
  type,
  status: 'True',
  reason: type,
  message: '',
  lastTransitionTime: now,
  lastUpdateTime: now,
});
const readyStatus = (withBackup: boolean) => ({
  lastOperation: {
    type: 'Reconcile',
    state: 'Succeeded',
    progress: 100,
    description: 'Seed reconciled',
    lastUpdateTime: now,
  },
  conditions: [condition('GardenletReady'), ...(withBackup ? [condition('BackupBucketsReady')] : [])],
  allocatable: { shoots: '250' },
});

function madeUpSeed(name: string, type: string, region: string, labels: Record<string, string> = {}): Seed {
  return {
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'Seed',
    metadata: { name, labels },
    spec: {
      provider: { type, region, zones: [`${region}-a`] },
      dns: { provider: { type: 'local' } },
      networks: {
        nodes: '172.18.0.0/16',
        pods: '10.1.0.0/16',
        services: '10.2.0.0/16',
        shootDefaults: { pods: '10.3.0.0/16', services: '10.4.0.0/16' },
      },
      settings: { scheduling: { visible: true } },
    },
  } as Seed;
}

function madeUpShoot(
  namespace: string,
  name: string,
  change: (s: Record<string, any>) => void = () => undefined,
): Shoot {
  const s = structuredClone(example('local/shoot.yaml'));
  s.metadata = { name, namespace };
  change(s);
  return s as Shoot;
}

let env: TestEnvironment;
let client: ApiClient;
let scheduler: RunningProcess;
let nats: MessagingClient;
const decisions: { shoot: string; decision: SchedulingDecision }[] = [];

async function createSeed(seed: Seed, withBackup = false): Promise<void> {
  await client.create(seed);
  await client.patch(
    SeedKind,
    { name: seed.metadata!.name! },
    { type: 'merge', patch: { status: readyStatus(withBackup) } },
    { subresource: 'status' },
  );
}

const seedOf = async (namespace: string, name: string) =>
  (await client.get(ShootKind, { namespace, name })).spec.seedName;
const boundTo = (namespace: string, name: string, timeoutMs = 15_000) =>
  waitFor(`shoot ${namespace}/${name} to be bound`, () => seedOf(namespace, name), { timeoutMs });
const eventsOf = async (namespace: string, name: string) =>
  (await client.list(EventKind, { namespace })).items.filter((e) => e.involvedObject?.name === name);

beforeAll(async () => {
  env = await startTestEnvironment({ crds: generatedCRDs(), nats: true });
  client = await ApiClient.create(env.kubeconfigPath);
  for (const name of ['garden', 'garden-dev'])
    await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  await client.create(example('local/namespace.yaml'));

  // Gardener's local CloudProfile, unchanged, and a made-up one that has a region config.
  const local = example('local/cloudprofile.yaml');
  await client.create(local);
  await client.create({ ...structuredClone(local), metadata: { name: 'local-regions' } });
  await client.create({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: 'scheduler-regions',
      namespace: 'garden',
      labels: { 'scheduling.gardener.cloud/purpose': 'region-config' },
      annotations: { 'scheduling.gardener.cloud/cloudprofiles': 'other,local-regions' },
    },
    data: { 'eu-1': 'remote: 1\nlocal: 5\n' },
  });

  // Gardener's example Seed, adapted to the local provider (its placeholders filled in, shoot defaults enabled).
  const mySeed = example('50-seed.yaml');
  mySeed.spec.provider = { type: 'local', region: 'local', zones: ['local-a'] };
  mySeed.spec.backup.provider = 'local';
  mySeed.spec.backup.region = 'local';
  mySeed.spec.networks.shootDefaults = { pods: '100.96.0.0/11', services: '100.64.0.0/13' };
  await createSeed(mySeed as Seed, true);
  await createSeed(madeUpSeed('remote-seed', 'local', 'remote'));
  await createSeed(madeUpSeed('aws-seed', 'aws', 'local'));

  nats = new MessagingClient({
    servers: env.nats!.url,
    name: 'test',
    logger: createLogger({ name: 'test', level: 'silent' }),
  }).start();
  subscribeEvents(nats, { kind: 'Shoot' }, (envelope) => {
    if (envelope.schedulingDecision)
      decisions.push({
        shoot: `${envelope.metadata?.object?.namespace}/${envelope.metadata?.object?.name}`,
        decision: envelope.schedulingDecision,
      });
  });
  await nats.connection();
  await nats.flush();

  // Gardener's example scheduler configuration, plus where NATS is.
  const config = join(mkdtempSync(join(tmpdir(), 'scheduler-')), 'config.yaml');
  writeFileSync(config, `${readFileSync(fixture('config.yaml'), 'utf8')}nats:\n  servers: ${env.nats!.url}\n`);
  scheduler = startProcess(process.execPath, [appBundle('scheduler'), '--config', config], {
    env: { ...process.env, KUBECONFIG: env.kubeconfigPath },
  });
  await waitFor(
    'the scheduler to lead',
    () =>
      scheduler.output().includes('Elected leader') ||
      (scheduler.child.exitCode !== null ? Promise.reject(new Error(scheduler.output())) : false),
    {
      timeoutMs: 30_000,
    },
  );
}, 90_000);

afterAll(async () => {
  await stopAllProcesses();
  await nats?.close();
  client?.close();
  await env?.stop();
});

describe('the scheduler binary', () => {
  it("binds Gardener's example shoot to the nearest usable seed of its provider", async () => {
    await client.create(example('local/shoot.yaml'));
    expect(await boundTo('garden-local', 'local')).toBe('my-seed');
    await waitFor('the SchedulingSuccessful event', async () =>
      (await eventsOf('garden-local', 'local')).find(
        (e) => e.reason === 'SchedulingSuccessful' && e.message === "Scheduled to seed 'my-seed'",
      ),
    );
    const decision = await waitFor('the decision on NATS', () =>
      decisions.find((d) => d.shoot === 'garden-local/local'),
    );
    expect(decision.decision.seed).toBe('my-seed');
    expect(decision.decision.reason).toBe('MinimalDistance');
    expect(decision.decision.candidates.find((c) => c.seed === 'aws-seed')?.rejectionReason).toContain(
      'provider type "aws"',
    );
  });

  it('schedules a testing shoot regardless of region, to the least used seed', async () => {
    await client.create(
      madeUpShoot('garden-dev', 'tester', (s) => ((s.spec.purpose = 'testing'), (s.spec.region = 'far-away'))),
    );
    expect(await boundTo('garden-dev', 'tester')).toBe('remote-seed');
  });

  it("follows the cloud profile's region config", async () => {
    await client.create(
      madeUpShoot(
        'garden-dev',
        'eu',
        (s) => ((s.spec.cloudProfile = { name: 'local-regions' }), (s.spec.region = 'eu-1')),
      ),
    );
    expect(await boundTo('garden-dev', 'eu')).toBe('remote-seed');
  });

  it('leaves shoots of other schedulers alone', async () => {
    await client.create(madeUpShoot('garden-dev', 'custom', (s) => (s.spec.schedulerName = 'custom-scheduler')));
    await client.create(madeUpShoot('garden-dev', 'after-custom'));
    await boundTo('garden-dev', 'after-custom');
    await new Promise((r) => setTimeout(r, 500));
    expect(await seedOf('garden-dev', 'custom')).toBeUndefined();
    expect(await eventsOf('garden-dev', 'custom')).toEqual([]);
  });

  it('reports a shoot that fits nowhere, naming why each seed was rejected, and binds it once a fitting seed appears', async () => {
    await client.create(
      madeUpShoot('garden-dev', 'gpu', (s) => (s.spec.seedSelector = { matchLabels: { gpu: 'true' } })),
    );
    const failed = await waitFor('the SchedulingFailed event', async () =>
      (await eventsOf('garden-dev', 'gpu')).find((e) => e.reason === 'SchedulingFailed'),
    );
    expect(failed.type).toBe('Warning');
    expect(failed.message).toMatch(
      /^Failed to schedule Shoot: none out of the 3 seeds has the matching labels required by seed selector of 'Shoot' \(selector: 'gpu=true'\)/,
    );
    for (const seed of ['my-seed', 'remote-seed', 'aws-seed']) expect(failed.message).toContain(seed);
    // The event is recorded before the status is written, as Gardener's scheduler does: wait for the status too.
    const pending = await waitFor('the Pending lastOperation', async () => {
      const shoot = await client.get(ShootKind, { namespace: 'garden-dev', name: 'gpu' });
      return shoot.status?.lastOperation ? shoot : undefined;
    });
    expect(pending.status?.lastOperation).toMatchObject({ type: 'Create', state: 'Pending' });
    expect(pending.spec.seedName).toBeUndefined();

    await createSeed(madeUpSeed('gpu-seed', 'local', 'local', { gpu: 'true' }));
    expect(await boundTo('garden-dev', 'gpu', 10_000)).toBe('gpu-seed');
  });

  it('previews the ranked candidates of a shoot spec over NATS without binding it', async () => {
    const shoot = madeUpShoot('garden-dev', 'preview-only');
    const answer = await requestPreview(nats, { shoot });
    expect(answer.error).toBe('');
    expect(answer.strategy).toBe('MinimalDistance');
    expect(answer.candidates.map((c) => c.seed)).toEqual(['gpu-seed', 'my-seed']);
    expect(answer.seed).toBe('gpu-seed');
    expect(answer.rejected.map((r) => r.seed).sort()).toEqual(['aws-seed', 'remote-seed']);
    await expect(client.get(ShootKind, { namespace: 'garden-dev', name: 'preview-only' })).rejects.toThrow(/not found/);
  });
});
