// provider-local's Infrastructure and local-ext-seed Extension controllers through the extension SDK against the local
// API server: the NetworkPolicy between machine Pods and the control plane, the local-ext-seed ServiceAccount, both
// removed on deletion.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseManifests } from '@gardener-ts/api';
import { ApiClient, Kinds, Manager, isNotFound, kind } from '@gardener-ts/controller-runtime';
import type { ExtensionObject } from '@gardener-ts/extensions';
import { clusterObject, extensionResource } from '@gardener-ts/extensions/testing';
import { gardenerAsset, startTestEnvironment, waitFor, type TestEnvironment } from '@gardener-ts/testing';
import { addProviderLocalControllers } from '../src/controller/add.js';

const crd = (plural: string) => gardenerAsset('crds', `10-crd-extensions.gardener.cloud_${plural}.yaml`);
const example = (...path: string[]) =>
  parseManifests(readFileSync(gardenerAsset('examples', ...path), 'utf8'))[0] as Record<string, any>;
const InfrastructureKind = kind<ExtensionObject>('extensions.gardener.cloud/v1alpha1', 'Infrastructure');
const ExtensionKind = kind<ExtensionObject>('extensions.gardener.cloud/v1alpha1', 'Extension');
const NetworkPolicyKind = kind<any>('networking.k8s.io/v1', 'NetworkPolicy');
const namespace = 'shoot--local--infra';

let env: TestEnvironment;
let client: ApiClient;
let mgr: Manager;

beforeAll(async () => {
  env = await startTestEnvironment({ crds: [crd('clusters'), crd('infrastructures'), crd('extensions')] });
  client = await ApiClient.create(env.kubeconfigPath);
  await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  const shoot = {
    ...example('local', 'shoot.yaml'),
    status: {
      lastOperation: {
        type: 'Reconcile',
        state: 'Processing',
        progress: 10,
        description: '',
        lastUpdateTime: '2026-01-01T00:00:00Z',
      },
    },
  };
  await client.create(
    clusterObject(namespace, {
      shoot,
      seed: example('50-seed.yaml'),
      cloudProfile: example('local', 'cloudprofile.yaml'),
    }),
  );
  mgr = await Manager.create({ clusters: { seed: { kubeConfig: env.kubeconfigPath } }, gracefulShutdownTimeoutMs: 0 });
  addProviderLocalControllers(mgr, ['infrastructure', 'extension-local-ext-seed']);
  await mgr.start();
}, 60_000);

afterAll(async () => {
  await mgr?.stop();
  client?.close();
  await env?.stop();
});

const gone = (get: () => Promise<unknown>) =>
  waitFor('the object to be gone', () =>
    get().then(
      () => undefined,
      (err: unknown) => (isNotFound(err) ? true : Promise.reject(err)),
    ),
  );

describe('the Infrastructure and local-ext-seed controllers', () => {
  it('opens the network between machine Pods and the control plane', async () => {
    await client.create(
      extensionResource('Infrastructure', namespace, 'local', {
        type: 'local',
        region: 'local',
        secretRef: { name: 'cloudprovider', namespace },
      }),
    );
    const infra = await waitFor('the Infrastructure to succeed', async () => {
      const i = await client.get(InfrastructureKind, { namespace, name: 'local' });
      return i.status?.lastOperation?.state === 'Succeeded' ? i : undefined;
    });
    expect(infra.status?.providerStatus).toEqual({
      apiVersion: 'local.provider.extensions.gardener.cloud/v1alpha1',
      kind: 'InfrastructureStatus',
    });
    const policy = await client.get(NetworkPolicyKind, { namespace, name: 'allow-machine-pods' });
    expect(policy.spec.podSelector).toEqual({ matchLabels: { app: 'machine' } });
    expect(policy.spec.ingress).toEqual([{ from: [{ podSelector: {} }] }]);

    await client.delete(InfrastructureKind, { namespace, name: 'local' });
    await gone(() => client.get(NetworkPolicyKind, { namespace, name: 'allow-machine-pods' }));
  });

  it('keeps the local-ext-seed ServiceAccount', async () => {
    await client.create(extensionResource('Extension', namespace, 'local-ext-seed', { type: 'local-ext-seed' }));
    await waitFor('the Extension to succeed', async () => {
      const e = await client.get(ExtensionKind, { namespace, name: 'local-ext-seed' });
      return e.status?.lastOperation?.state === 'Succeeded' ? e : undefined;
    });
    expect((await client.get(Kinds.ServiceAccount, { namespace, name: 'local-ext-seed' })).metadata?.name).toBe(
      'local-ext-seed',
    );
    await client.delete(ExtensionKind, { namespace, name: 'local-ext-seed' });
    await gone(() => client.get(Kinds.ServiceAccount, { namespace, name: 'local-ext-seed' }));
  });
});
