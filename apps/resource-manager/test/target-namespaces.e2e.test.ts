// End to end: `targetClientConnection.namespaces` restricts the target cluster's cache (Gardener passes it as the
// cache's DefaultNamespaces). Objects in those namespaces (and cluster-scoped ones) are managed as usual, manual edits
// reverted through the per-namespace watches; an object in a namespace outside cannot be read from the cache, so its
// ManagedResource fails to apply with controller-runtime's error — which is why Gardener extensions add the
// namespaces their ManagedResources deploy to to this list.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kind } from '@gardener-ts/controller-runtime';
import { ConfigMapK, MR, b64, condition, getOrUndefined, startLandscape, waitFor, type Landscape } from './harness.js';

const ClusterRoleK = kind('rbac.authorization.k8s.io/v1', 'ClusterRole');
const ns = 'default';
let land: Landscape;

async function createMR(name: string, objectsYAML: string) {
  await land.src.create({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, namespace: ns },
    type: 'Opaque',
    data: { 'objects.yaml': b64(objectsYAML) },
  });
  await land.src.create({
    apiVersion: 'resources.gardener.cloud/v1alpha1',
    kind: 'ManagedResource',
    metadata: { name, namespace: ns },
    spec: { secretRefs: [{ name }] },
  });
}
async function waitForApplied(name: string, status: string) {
  return waitFor(
    `${name} ResourcesApplied=${status}`,
    async () => {
      const c = condition(await getOrUndefined(land.src, MR, ns, name), 'ResourcesApplied');
      return c?.status === status ? c : undefined;
    },
    { timeoutMs: 20_000 },
  );
}

beforeAll(async () => {
  land = await startLandscape((config) => {
    config.targetClientConnection.namespaces = ['inside'];
  });
  for (const name of ['inside', 'outside'])
    await land.tgt.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  await land.start();
}, 60_000);

afterAll(async () => {
  if (land?.app && process.env.RM_E2E_DEBUG) console.log(land.app.output());
  await land?.stop();
});

describe('targetClientConnection.namespaces', () => {
  it('manages objects in the listed namespace and cluster-scoped objects; reverts manual edits there', async () => {
    await createMR(
      'inside',
      [
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: managed\n  namespace: inside\ndata:\n  k: v\n',
        'apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: managed-inside\nrules: []\n',
      ].join('---\n'),
    );
    expect(await waitForApplied('inside', 'True')).toMatchObject({ reason: 'ApplySucceeded' });
    expect((await land.tgt.get(ConfigMapK, { namespace: 'inside', name: 'managed' })).data).toEqual({ k: 'v' });
    expect(
      (await land.tgt.get(ClusterRoleK, { name: 'managed-inside' })).metadata?.annotations?.[
        'resources.gardener.cloud/origin'
      ],
    ).toBe('default/inside');

    // A manual edit is seen through the cache's watch of `inside` and reverted (long before the 15 s sync period).
    const started = Date.now();
    await land.tgt.patch(
      ConfigMapK,
      { namespace: 'inside', name: 'managed' },
      { type: 'merge', patch: { data: { k: 'edited' } } },
    );
    await waitFor(
      'the edit to be reverted',
      async () => (await land.tgt.get(ConfigMapK, { namespace: 'inside', name: 'managed' })).data?.k === 'v',
      { timeoutMs: 10_000 },
    );
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('does not apply an object in a namespace outside: ResourcesApplied=False with the cache error', async () => {
    await createMR(
      'outside',
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: managed\n  namespace: outside\ndata:\n  k: v\n',
    );
    const applied = await waitForApplied('outside', 'False');
    expect(applied.reason).toBe('ApplyFailed');
    expect(applied.message).toContain('unable to get: outside/managed because of unknown namespace for the cache');
    expect(await getOrUndefined(land.tgt, ConfigMapK, 'outside', 'managed')).toBeUndefined();
  });
});
