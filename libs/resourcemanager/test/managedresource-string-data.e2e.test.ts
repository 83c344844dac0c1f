// A ManagedResource whose Secret is written the way Gardener's docs write it — `stringData` with plain YAML, applied
// with the real kubectl — against two local API servers (source with the ManagedResource CRD, target empty) and the
// resource-manager started in-process: the objects appear in the target with the injected origin annotation and
// managed-by label, `ResourcesApplied` turns True, and deleting the ManagedResource deletes them.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { Registry } from 'prom-client';
import YAML from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  loadComponentConfig,
  resourceManagerConfigSpec,
  type ResourceManagerConfiguration,
} from '@gardener-ts/component-config';
import {
  ApiClient,
  Checks,
  isNotFound,
  kind,
  type ComponentContext,
  type KubernetesObject,
} from '@gardener-ts/controller-runtime';
import { createLogger } from '@gardener-ts/logging';
import { gardenerAsset, kubectl, startTestEnvironment, waitFor, type TestEnvironment } from '@gardener-ts/testing';
import { startResourceManager } from '../src/index.js';

const MR = kind<KubernetesObject & { status?: any }>('resources.gardener.cloud/v1alpha1', 'ManagedResource');
const ConfigMapK = kind<KubernetesObject & { data?: Record<string, string> }>('v1', 'ConfigMap');
const SecretK = kind<KubernetesObject & { data?: Record<string, string>; stringData?: unknown }>('v1', 'Secret');

let source: TestEnvironment;
let target: TestEnvironment;
let tgt: ApiClient;
let src: ApiClient;
let dir: string;
let stop: (() => Promise<void>) | undefined;
const abort = new AbortController();
const logs: string[] = [];

beforeAll(async () => {
  [source, target] = await Promise.all([
    startTestEnvironment({ crds: [gardenerAsset('crds', '10-crd-resources.gardener.cloud_managedresources.yaml')] }),
    startTestEnvironment(),
  ]);
  src = await ApiClient.create(source.kubeconfigPath);
  tgt = await ApiClient.create(target.kubeconfigPath);
  dir = await mkdtemp(join(tmpdir(), 'rm-string-data-'));
  const configPath = join(dir, 'config.yaml');
  await writeFile(
    configPath,
    YAML.stringify({
      apiVersion: 'resourcemanager.config.gardener.cloud/v1alpha1',
      kind: 'ResourceManagerConfiguration',
      sourceClientConnection: { kubeconfig: source.kubeconfigPath },
      targetClientConnection: { kubeconfig: target.kubeconfigPath },
      leaderElection: { leaderElect: false },
      logLevel: 'error',
      server: { healthProbes: { bindAddress: '127.0.0.1', port: 0 }, metrics: { bindAddress: '127.0.0.1', port: 0 } },
      controllers: {
        managedResource: { syncPeriod: '15s', concurrentSyncs: 5, managedByLabelValue: 'gardener' },
        health: { syncPeriod: '15s', concurrentSyncs: 5 },
      },
    }),
  );
  const { config } = await loadComponentConfig(resourceManagerConfigSpec, configPath);
  const endpoint = { address: '127.0.0.1', port: 0 };
  const ctx = {
    config,
    // Kept, not printed: optimistic-concurrency retries are logged as errors and are part of normal operation.
    log: createLogger({
      name: 'gardener-resource-manager',
      level: 'error',
      destination: new Writable({ write: (chunk, _enc, done) => (logs.push(String(chunk)), done()) }),
    }),
    metrics: new Registry(),
    health: new Checks(),
    ready: new Checks(),
    endpoints: { healthProbes: endpoint, metrics: endpoint },
    signal: abort.signal,
  } as unknown as ComponentContext<ResourceManagerConfiguration>;
  stop = await startResourceManager(ctx);
}, 60_000);

afterAll(async () => {
  abort.abort();
  await stop?.();
  src?.close();
  tgt?.close();
  await Promise.all([source?.stop(), target?.stop()]);
  if (dir) await rm(dir, { recursive: true, force: true });
});

// As in Gardener's docs (docs/concepts/resource-manager.md): a Secret with the objects as plain YAML in stringData.
const manifests = `apiVersion: v1
kind: Secret
metadata:
  name: managedresource-string-data
  namespace: default
type: Opaque
stringData:
  objects.yaml: |
    apiVersion: v1
    kind: ConfigMap
    metadata:
      name: from-string-data
      namespace: default
    data:
      key: value
---
apiVersion: resources.gardener.cloud/v1alpha1
kind: ManagedResource
metadata:
  name: string-data
  namespace: default
spec:
  secretRefs:
  - name: managedresource-string-data
`;

const get = async <T extends KubernetesObject>(client: ApiClient, k: ReturnType<typeof kind<T>>, name: string) => {
  try {
    return await client.get(k, { namespace: 'default', name });
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
};

describe('ManagedResource with a stringData Secret', () => {
  it('applies the objects with the injected labels, reports ResourcesApplied=True and deletes them with the MR', async () => {
    await kubectl(source.kubeconfigPath, ['apply', '-f', '-'], { input: manifests });
    // The API server stored the Secret the way kube does: data, no stringData.
    const secret = await src.get(SecretK, { namespace: 'default', name: 'managedresource-string-data' });
    expect(secret.stringData).toBeUndefined();
    expect(Buffer.from(secret.data!['objects.yaml'], 'base64').toString()).toContain('name: from-string-data');

    const cm = await waitFor('the ConfigMap in the target', () => get(tgt, ConfigMapK, 'from-string-data'), {
      timeoutMs: 20_000,
    });
    expect(cm.data).toEqual({ key: 'value' });
    expect(cm.metadata?.annotations?.['resources.gardener.cloud/origin']).toBe('default/string-data');
    expect(cm.metadata?.labels?.['resources.gardener.cloud/managed-by']).toBe('gardener');
    const applied = await waitFor(
      'ResourcesApplied=True',
      async () =>
        (await get(src, MR, 'string-data'))?.status?.conditions?.find(
          (c: any) => c.type === 'ResourcesApplied' && c.status === 'True',
        ),
      { timeoutMs: 20_000 },
    );
    expect(applied.reason).toBe('ApplySucceeded');
    expect((await get(src, MR, 'string-data'))?.status?.resources?.map((r: any) => r.name)).toEqual([
      'from-string-data',
    ]);

    await kubectl(source.kubeconfigPath, ['delete', 'managedresource', 'string-data', '-n', 'default', '--wait=false']);
    await waitFor('the ConfigMap to be deleted', async () => !(await get(tgt, ConfigMapK, 'from-string-data')), {
      timeoutMs: 20_000,
    });
    await waitFor('the ManagedResource to be gone', async () => !(await get(src, MR, 'string-data')), {
      timeoutMs: 20_000,
    });
  });
});
