// Cleaning a shoot before deletion, against the local API server playing the shoot: what users created goes, what the
// shoot's ManagedResources and kube itself keep there stays, a finalizer nobody releases is removed after its grace
// period, and a cleanup that does not finish names what is left with Gardener's error code.
import { ApiClient, Kinds, kind, type KubernetesObject } from '@gardener-ts/controller-runtime';
import { startTestEnvironment, type TestEnvironment } from '@gardener-ts/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanPass, cleanUntilGone, KubernetesResourceTargets, WebhookTargets } from './cleanup.js';

let env: TestEnvironment;
let client: ApiClient;
const signal = new AbortController().signal;
const Deployment = kind<KubernetesObject>('apps/v1', 'Deployment');
const Webhooks = kind<KubernetesObject>('admissionregistration.k8s.io/v1', 'ValidatingWebhookConfiguration');

const deployment = (name: string, labels: Record<string, string> = {}) =>
  ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'hello', labels },
    spec: {
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'web', image: 'nats' }] } },
    },
  }) as KubernetesObject;

const webhook = (name: string, labels: Record<string, string> = {}) =>
  ({
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name, labels },
    webhooks: [
      {
        name: `${name}.example.com`,
        clientConfig: { url: 'https://127.0.0.1:9/validate' },
        admissionReviewVersions: ['v1'],
        sideEffects: 'None',
        rules: [{ operations: ['CREATE'], apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['things'] }],
      },
    ],
  }) as KubernetesObject;

const names = async (k: typeof Deployment, namespace?: string) =>
  (await client.list(k, namespace ? { namespace } : {})).items.map((o) => o.metadata!.name!).sort();

beforeAll(async () => {
  env = await startTestEnvironment();
  client = await ApiClient.create(env.kubeconfigPath);
  await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'hello' } });
});
afterAll(async () => {
  client?.close();
  await env?.stop();
});

describe('cleaning the shoot', () => {
  it("deletes the users' webhooks and keeps those of Gardener's system components and ManagedResources", async () => {
    await client.create(webhook('users'));
    await client.create(webhook('system', { 'gardener.cloud/role': 'system-component' }));
    await client.create(webhook('managed', { 'shoot.gardener.cloud/no-cleanup': 'true' }));
    await cleanUntilGone(client, WebhookTargets, { interval: 50, timeout: 10_000 }, signal);
    expect(await names(Webhooks)).toEqual(['managed', 'system']);
  });

  it("deletes workloads, Services and PVCs in every namespace, keeping kube's kubernetes Service and managed objects", async () => {
    await client.create(deployment('web'));
    await client.create(deployment('kube-proxy', { 'shoot.gardener.cloud/no-cleanup': 'true' }));
    await client.create({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web', namespace: 'hello' },
      spec: { type: 'NodePort', selector: { app: 'web' }, ports: [{ port: 80 }] },
    } as KubernetesObject);
    await client.create({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'data', namespace: 'hello' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    } as KubernetesObject);
    await client.create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'lonely', namespace: 'default' },
      spec: { containers: [{ name: 'c', image: 'nats' }] },
    } as KubernetesObject);

    await cleanUntilGone(client, KubernetesResourceTargets, { interval: 50, timeout: 10_000 }, signal);
    expect(await names(Deployment, 'hello')).toEqual(['kube-proxy']);
    expect(await names(Kinds.Service, 'hello')).toEqual([]);
    expect(await names(Kinds.Service, 'default')).toEqual(['kubernetes']);
    expect(await names(kind<KubernetesObject>('v1', 'PersistentVolumeClaim'), 'hello')).toEqual([]);
    expect(await names(Kinds.Pod, 'default')).toEqual([]);
  });

  it('removes the finalizers of what is still there after the grace period, and names what is left before', async () => {
    await client.create({
      ...deployment('stuck'),
      metadata: { name: 'stuck', namespace: 'hello', finalizers: ['example.com/never'] },
    });
    // Within the finalize grace period: deleted, but its finalizer holds it; the wait fails naming it, with the code.
    const failure = await cleanUntilGone(
      client,
      KubernetesResourceTargets,
      { interval: 50, timeout: 300 },
      signal,
    ).catch((err: unknown) => err as Error & { codes?: string[] });
    expect(failure?.message).toBe('resources in the shoot are not gone yet: Deployment hello/stuck');
    expect(failure?.codes).toEqual(['ERR_CLEANUP_CLUSTER_RESOURCES']);
    expect(
      (await client.get(Deployment, { namespace: 'hello', name: 'stuck' })).metadata?.deletionTimestamp,
    ).toBeDefined();

    // Five minutes later (Gardener's finalize grace period) its finalizers go, and so does it.
    const later = () => new Date(Date.now() + 5 * 60_000 + 1_000);
    expect(await cleanPass(client, KubernetesResourceTargets, { now: later })).toEqual(['Deployment hello/stuck']);
    expect(await cleanPass(client, KubernetesResourceTargets, { now: later })).toEqual([]);
    expect(await names(Deployment, 'hello')).toEqual(['kube-proxy']);
  });
});
