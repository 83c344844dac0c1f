// Two provider-local replicas (startProviderLocal in-process, each with its own configuration, metrics and identity)
// against the local API server, with leader election on the Lease provider-local-leader-election of the extension's
// namespace: only the leader reconciles Infrastructures, both serve the webhooks on the configured port; a leader
// whose Lease is taken fails (the process would exit 1) and stops reconciling; the other replica takes over once the
// Lease's holder has not renewed it for the lease duration, reconciles, and releases the Lease when it stops.
import { createServer } from 'node:net';
import { request } from 'node:https';
import { readFileSync } from 'node:fs';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseManifests } from '@gardener-ts/api';
import { parseComponentConfig, providerLocalConfigSpec } from '@gardener-ts/component-config';
import {
  ApiClient,
  Checks,
  LeaseKind,
  kind,
  microTime,
  type ComponentContext,
  type KubernetesObject,
} from '@gardener-ts/controller-runtime';
import type { ExtensionObject } from '@gardener-ts/extensions';
import { clusterObject, extensionResource } from '@gardener-ts/extensions/testing';
import { createLogger } from '@gardener-ts/logging';
import { gardenerAsset, startTestEnvironment, waitFor, type TestEnvironment } from '@gardener-ts/testing';
import { startProviderLocal } from '../src/provider-local.js';
import { SeedWebhookConfigurationName, WebhookPaths, WebhookServiceName } from '../src/webhook/configurations.js';

const crd = (plural: string) => gardenerAsset('crds', `10-crd-extensions.gardener.cloud_${plural}.yaml`);
const example = (...path: string[]) =>
  parseManifests(readFileSync(gardenerAsset('examples', ...path), 'utf8'))[0] as Record<string, any>;
const InfrastructureKind = kind<ExtensionObject>('extensions.gardener.cloud/v1alpha1', 'Infrastructure');
const MutatingWebhookConfigurationKind = kind<
  KubernetesObject & { webhooks?: { clientConfig: { caBundle: string } }[] }
>('admissionregistration.k8s.io/v1', 'MutatingWebhookConfiguration');

const extensionNamespace = 'extension-provider-local-le';
const shootNamespace = 'shoot--local--le';
const leaseName = 'provider-local-leader-election';
/** Short durations, so a takeover happens within seconds (Gardener's are 15s/10s/2s). */
const leaseDurationMs = 3000;
const retryPeriodMs = 500;

interface Replica {
  identity: string;
  webhookPort: number;
  metrics: Registry;
  ready: Checks;
  abort: AbortController;
  failures: unknown[];
  stop?: () => Promise<void>;
}

let env: TestEnvironment;
let client: ApiClient;
const replicas: Replica[] = [];

/** A port nothing listens on now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function startReplica(identity: string): Promise<Replica> {
  const webhookPort = await freePort();
  const { config } = parseComponentConfig(
    providerLocalConfigSpec,
    [
      'apiVersion: local.provider.extensions.config.gardener.cloud/v1alpha1',
      'kind: ControllerConfiguration',
      `clientConnection: { kubeconfig: ${JSON.stringify(env.kubeconfigPath)} }`,
      `server: { webhooks: { bindAddress: 127.0.0.1, port: ${webhookPort} } }`,
      `leaderElection: { leaseDuration: ${leaseDurationMs}ms, renewDeadline: 2s, retryPeriod: ${retryPeriodMs}ms }`,
    ].join('\n'),
  );
  const replica: Replica = {
    identity,
    webhookPort,
    metrics: new Registry(),
    ready: new Checks(),
    abort: new AbortController(),
    failures: [],
  };
  const ctx: ComponentContext<typeof config> = {
    config,
    log: createLogger({ name: identity, level: (process.env.PROVIDER_LOCAL_TEST_LOG as 'info') ?? 'silent' }),
    metrics: replica.metrics,
    health: new Checks(),
    ready: replica.ready,
    endpoints: { healthProbes: { bindAddress: '127.0.0.1', port: 0 }, metrics: { bindAddress: '127.0.0.1', port: 0 } },
    signal: replica.abort.signal,
    fail: (err) => replica.failures.push(err),
  };
  replica.stop =
    (await startProviderLocal(ctx, {
      env: { POD_NAMESPACE: extensionNamespace },
      controllers: ['infrastructure'],
      identity,
    })) ?? undefined;
  replicas.push(replica);
  return replica;
}

async function stopReplica(replica: Replica): Promise<void> {
  const stop = replica.stop;
  replica.stop = undefined;
  replica.abort.abort();
  await stop?.();
}

/** How many Infrastructure reconciles a replica's controller ran (its own metrics registry). */
async function infrastructureReconciles(replica: Replica): Promise<number> {
  const metric = replica.metrics.getSingleMetric('controller_runtime_reconcile_total');
  if (!metric) return 0;
  const { values } = await metric.get();
  return values
    .filter((v) => String(v.labels.controller ?? '').includes('infrastructure'))
    .reduce((sum, v) => sum + v.value, 0);
}

const holder = async () => (await client.get(LeaseKind, { namespace: extensionNamespace, name: leaseName })).spec ?? {};

async function createInfrastructure(name: string): Promise<void> {
  await client.create(
    extensionResource('Infrastructure', shootNamespace, name, {
      type: 'local',
      region: 'local',
      secretRef: { name: 'cloudprovider', namespace: shootNamespace },
    }),
  );
}

const succeeded = (name: string) =>
  waitFor(`Infrastructure ${name} to succeed`, async () => {
    const infra = await client.get(InfrastructureKind, { namespace: shootNamespace, name });
    return infra.status?.lastOperation?.state === 'Succeeded' ? infra : undefined;
  });

/** Calls a replica's node webhook directly, trusting the CA of the seed's webhook configuration. */
async function callNodeWebhook(replica: Replica): Promise<{ allowed: boolean; patch?: string }> {
  const configuration = await client.get(MutatingWebhookConfigurationKind, { name: SeedWebhookConfigurationName });
  const ca = Buffer.from(configuration.webhooks![0]!.clientConfig.caBundle, 'base64');
  const node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' }, status: { capacity: { cpu: '2' } } };
  const body = JSON.stringify({
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid: 'u1',
      kind: { group: '', version: 'v1', kind: 'Node' },
      resource: { group: '', version: 'v1', resource: 'nodes' },
      subResource: 'status',
      name: 'n1',
      operation: 'UPDATE',
      object: node,
      oldObject: node,
      userInfo: { username: 'system:node:n1' },
    },
  });
  const text = await new Promise<string>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: replica.webhookPort,
        path: WebhookPaths.node,
        method: 'POST',
        ca,
        // The name the seed's API server verifies: the extension's Service.
        servername: `${WebhookServiceName}.${extensionNamespace}.svc`,
        headers: { 'content-type': 'application/json' },
      },
      (res) => {
        let data = '';
        res.on('data', (chunk: Buffer) => (data += chunk.toString()));
        res.on('end', () => resolve(data));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
  return (JSON.parse(text) as { response: { allowed: boolean; patch?: string } }).response;
}

beforeAll(async () => {
  env = await startTestEnvironment({ crds: [crd('clusters'), crd('infrastructures')] });
  client = await ApiClient.create(env.kubeconfigPath);
  for (const name of [extensionNamespace, shootNamespace])
    await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  await client.create(
    clusterObject(shootNamespace, {
      shoot: example('local', 'shoot.yaml'),
      seed: example('50-seed.yaml'),
      cloudProfile: example('local', 'cloudprofile.yaml'),
    }),
  );
}, 60_000);

afterAll(async () => {
  for (const replica of replicas) await stopReplica(replica).catch(() => undefined);
  client?.close();
  await env?.stop();
});

describe('provider-local with leader election', () => {
  let a: Replica;
  let b: Replica;

  it('lets only the leader reconcile, while every replica is ready and serves the webhooks', async () => {
    a = await startReplica('replica-a');
    await waitFor('replica-a to lead', async () => (await holder()).holderIdentity === 'replica-a');
    b = await startReplica('replica-b');
    await waitFor('replica-b to be ready (caches synced, not leading)', async () => (await b.ready.run()).ok);

    await createInfrastructure('one');
    await succeeded('one');
    expect(await infrastructureReconciles(a)).toBeGreaterThan(0);
    expect(await infrastructureReconciles(b)).toBe(0);
    expect((await holder()).holderIdentity).toBe('replica-a');

    for (const replica of [a, b]) {
      const response = await callNodeWebhook(replica);
      expect(response.allowed, replica.identity).toBe(true);
      expect(Buffer.from(response.patch ?? '', 'base64').toString(), replica.identity).toContain('/status/capacity');
    }
    expect([...a.failures, ...b.failures]).toEqual([]);
  }, 60_000);

  it('stops a leader whose Lease is taken; the other replica takes over once the Lease expires', async () => {
    // Another holder (a replica that then dies: it never renews) takes the Lease from replica-a.
    const lease = await client.get(LeaseKind, { namespace: extensionNamespace, name: leaseName });
    const takenAt = Date.now();
    await client.update({
      ...lease,
      spec: { ...lease.spec, holderIdentity: 'replica-gone', renewTime: microTime(new Date()) },
    });
    await waitFor('replica-a to fail on the lost Lease', () => a.failures.length > 0, { timeoutMs: 10_000 });
    expect(String(a.failures[0])).toMatch(/leader election lost/);
    const reconcilesOfA = await infrastructureReconciles(a);

    // Nobody leads while the dead holder's Lease is valid; replica-b leads within a lease duration after it.
    expect((await holder()).holderIdentity).toBe('replica-gone');
    await waitFor('replica-b to lead', async () => (await holder()).holderIdentity === 'replica-b', {
      timeoutMs: leaseDurationMs + 2.2 * retryPeriodMs + 2000,
    });
    expect(Date.now() - takenAt).toBeGreaterThanOrEqual(leaseDurationMs);

    await createInfrastructure('two');
    await succeeded('two');
    expect(await infrastructureReconciles(b)).toBeGreaterThan(0);
    expect(await infrastructureReconciles(a)).toBe(reconcilesOfA);
    expect(b.failures).toEqual([]);
  }, 60_000);

  it('releases the Lease when the leader stops', async () => {
    await stopReplica(a);
    await stopReplica(b);
    expect((await holder()).holderIdentity ?? '').toBe('');
    expect(b.failures).toEqual([]);
  }, 60_000);
});
