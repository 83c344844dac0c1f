// provider-local's ControlPlane controller against the local API server, with the ControlPlane and Cluster the
// gardenlet's own renderers make of the example shoot: the shoot's default StorageClass in a ManagedResource for the
// shoot's resource manager, the note that the local-path-provisioner is left out, and deletion that waits until the
// shoot's resource manager has let the ManagedResource go.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { renderCluster, renderControlPlane, type ShootValues } from '@gardener-ts/gardenlet-controllers';
import { ApiClient, Kinds, Manager, isNotFound, kind, type KubernetesObject } from '@gardener-ts/controller-runtime';
import type { ExtensionObject } from '@gardener-ts/extensions';
import { gardenerAsset, startTestEnvironment, waitFor, type TestEnvironment } from '@gardener-ts/testing';
import { addProviderLocalControllers } from '../src/controller/add.js';
import { exampleShootValues } from './support/shoot-values.js';

const crd = (group: string, plural: string) => gardenerAsset('crds', `10-crd-${group}_${plural}.yaml`);
const ControlPlaneKind = kind<ExtensionObject>('extensions.gardener.cloud/v1alpha1', 'ControlPlane');
const ManagedResourceKind = kind<KubernetesObject & { spec: any }>(
  'resources.gardener.cloud/v1alpha1',
  'ManagedResource',
);
const MR = 'extension-controlplane-storageclasses';
// The finalizer the shoot's gardener-resource-manager keeps on a ManagedResource while it deletes its objects.
const ResourceManagerFinalizer = 'resources.gardener.cloud/gardener-resource-manager';

let env: TestEnvironment;
let client: ApiClient;
let mgr: Manager;
let values: ShootValues;
let namespace: string;

beforeAll(async () => {
  env = await startTestEnvironment({
    crds: [
      crd('extensions.gardener.cloud', 'clusters'),
      crd('extensions.gardener.cloud', 'controlplanes'),
      crd('resources.gardener.cloud', 'managedresources'),
    ],
  });
  client = await ApiClient.create(env.kubeconfigPath);
  values = exampleShootValues();
  namespace = values.namespace;
  await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  await client.create(renderCluster(values) as KubernetesObject);
  mgr = await Manager.create({ clusters: { seed: { kubeConfig: env.kubeconfigPath } }, gracefulShutdownTimeoutMs: 0 });
  addProviderLocalControllers(mgr, ['controlplane']);
  await mgr.start();
}, 60_000);

afterAll(async () => {
  await mgr?.stop();
  client?.close();
  await env?.stop();
});

const gone = (what: string, get: () => Promise<unknown>) =>
  waitFor(`${what} to be gone`, () =>
    get().then(
      () => undefined,
      (err: unknown) => (isNotFound(err) ? true : Promise.reject(err)),
    ),
  );

describe('the ControlPlane controller', () => {
  it("puts the shoot's default StorageClass into a ManagedResource and removes it on deletion", async () => {
    const rendered = renderControlPlane(values, { now: new Date().toISOString() });
    expect(rendered.metadata?.namespace).toBe('shoot--local--local');
    await client.create(rendered as unknown as ExtensionObject);
    const cp = await waitFor(
      'the ControlPlane to succeed',
      async () => {
        const c = await client.get(ControlPlaneKind, { namespace, name: 'local' });
        return c.status?.lastOperation?.state === 'Succeeded' ? c : undefined;
      },
      { timeoutMs: 20_000 },
    );
    expect(cp.status?.lastOperation?.type).toBe('Create');
    expect(cp.metadata?.finalizers).toContain('extensions.gardener.cloud/controlplane');
    expect(cp.metadata?.annotations?.['gardener.cloud/operation']).toBeUndefined();

    const mr = await client.get(ManagedResourceKind, { namespace, name: MR });
    expect(mr.spec.class).toBeUndefined();
    expect(mr.metadata?.labels?.origin).toBeUndefined();
    expect(mr.spec.injectLabels).toEqual({ 'shoot.gardener.cloud/no-cleanup': 'true' });
    const secret = await client.get(Kinds.Secret, { namespace, name: mr.spec.secretRefs[0].name });
    const objects = Object.values(secret.data ?? {}).map((b64) => parse(Buffer.from(b64, 'base64').toString()));
    expect(objects).toMatchObject([
      {
        kind: 'StorageClass',
        metadata: { name: 'default', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
        provisioner: 'rancher.io/local-path',
      },
    ]);
    // No Deployment: the local-path-provisioner's image has no local program; the ControlPlane says so.
    expect(objects.some((o) => o.kind === 'Deployment')).toBe(false);
    const note = await waitFor('the event about the provisioner', async () => {
      const events = await client.list(Kinds.Event, { namespace });
      return events.items.find((e: any) => e.reason === 'LocalPathProvisionerNotDeployed') as any;
    });
    expect(note.involvedObject).toMatchObject({ kind: 'ControlPlane', name: 'local' });
    expect(note.message).toMatch(/local-path-provisioner is not deployed/);

    // The shoot's resource manager holds the ManagedResource while it deletes the StorageClass from the shoot.
    await client.patch(
      ManagedResourceKind,
      { namespace, name: MR },
      { type: 'merge', patch: { metadata: { finalizers: [ResourceManagerFinalizer] } } },
    );
    await client.delete(ControlPlaneKind, { namespace, name: 'local' });
    const waiting = await waitFor('the ControlPlane to wait for the ManagedResource', async () => {
      const c = await client.get(ControlPlaneKind, { namespace, name: 'local' });
      return c.status?.lastOperation?.type === 'Delete' && c.status.lastOperation.state === 'Error' ? c : undefined;
    });
    expect(waiting.status?.lastOperation?.description).toMatch(
      /waiting for ManagedResource shoot--local--local\/extension-controlplane-storageclasses to be deleted/,
    );
    expect((await client.get(Kinds.Secret, { namespace, name: mr.spec.secretRefs[0].name })).metadata?.name).toBe(MR);

    await client.patch(
      ManagedResourceKind,
      { namespace, name: MR },
      { type: 'merge', patch: { metadata: { finalizers: null } } },
    );
    await gone('the ControlPlane', () => client.get(ControlPlaneKind, { namespace, name: 'local' }));
    await gone('the ManagedResource', () => client.get(ManagedResourceKind, { namespace, name: MR }));
    await gone('its Secret', () => client.get(Kinds.Secret, { namespace, name: MR }));
  }, 40_000);
});
