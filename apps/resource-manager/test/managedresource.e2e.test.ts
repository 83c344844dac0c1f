// End to end: the built resource-manager with Gardener's example configuration against two local API servers —
// ManagedResources in the source, their objects in the target.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ConfigMapK,
  DeploymentK,
  MR,
  NamespaceK,
  PodK,
  SecretK,
  b64,
  condition,
  getOrUndefined,
  startLandscape,
  waitFor,
  writeRequests,
  type Landscape,
} from './harness.js';

// The Secrets of the seed document's two examples, verbatim.
const EXAMPLE1_DATA =
  'YXBpVmVyc2lvbjogdjEKa2luZDogQ29uZmlnTWFwCm1ldGFkYXRhOgogIG5hbWU6IHRlc3QtMTIzNAogIG5hbWVzcGFjZTogZGVmYXVsdAotLS0KYXBpVmVyc2lvbjogdjEKa2luZDogQ29uZmlnTWFwCm1ldGFkYXRhOgogIG5hbWU6IHRlc3QtNTY3OAogIG5hbWVzcGFjZTogZGVmYXVsdAo=';
const EXAMPLE2_DATA =
  'YXBpVmVyc2lvbjogYXBwcy92MSAjIGZvciB2ZXJzaW9ucyBiZWZvcmUgMS45LjAgdXNlIGFwcHMvdjFiZXRhMgpraW5kOiBEZXBsb3ltZW50Cm1ldGFkYXRhOgogIG5hbWU6IG5naW54LWRlcGxveW1lbnQKc3BlYzoKICBzZWxlY3RvcjoKICAgIG1hdGNoTGFiZWxzOgogICAgICBhcHA6IG5naW54CiAgcmVwbGljYXM6IDIgIyB0ZWxscyBkZXBsb3ltZW50IHRvIHJ1biAyIHBvZHMgbWF0Y2hpbmcgdGhlIHRlbXBsYXRlCiAgdGVtcGxhdGU6CiAgICBtZXRhZGF0YToKICAgICAgbGFiZWxzOgogICAgICAgIGFwcDogbmdpbngKICAgIHNwZWM6CiAgICAgIGNvbnRhaW5lcnM6CiAgICAgIC0gbmFtZTogbmdpbngKICAgICAgICBpbWFnZTogbmdpbng6MS43LjkKICAgICAgICBwb3J0czoKICAgICAgICAtIGNvbnRhaW5lclBvcnQ6IDgwCg==';

const ns = 'default';
let land: Landscape;

async function createSecret(name: string, data: Record<string, string>) {
  await land.src.create({ apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: ns }, type: 'Opaque', data });
}
async function createMR(name: string, spec: Record<string, unknown>) {
  await land.src.create({
    apiVersion: 'resources.gardener.cloud/v1alpha1',
    kind: 'ManagedResource',
    metadata: { name, namespace: ns },
    spec,
  });
}
const mr = (name: string) => getOrUndefined(land.src, MR, ns, name);
async function waitForCondition(name: string, type: string, status: string, reason?: string, timeoutMs = 15_000) {
  return waitFor(
    `${name} ${type}=${status}${reason ? ` (${reason})` : ''}`,
    async () => {
      const c = condition(await mr(name), type);
      return c && c.status === status && (!reason || c.reason === reason) ? c : undefined;
    },
    { timeoutMs },
  );
}

beforeAll(async () => {
  land = await startLandscape();
  // The seed's garbage-collector example, in the target before the resource-manager starts.
  const gcLabel = { 'resources.gardener.cloud/garbage-collectable-reference': 'true' };
  for (const name of ['test-1234', 'test-5678']) {
    await land.tgt.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: ns, labels: gcLabel } });
  }
  await land.tgt.create({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'example',
      namespace: ns,
      annotations: { 'reference.resources.gardener.cloud/configmap-82a3537f': 'test-5678' },
    },
    spec: { containers: [{ name: 'nginx', image: 'nginx:1.14.2' }], terminationGracePeriodSeconds: 2 },
  });
  await land.start();
}, 60_000);

afterAll(async () => {
  if (land?.app && process.env.RM_E2E_DEBUG) console.log(land.app.output());
  await land?.stop();
});

describe('garbage collector', () => {
  it('deletes exactly ConfigMap test-1234 of the seed example', async () => {
    await waitFor(
      'test-1234 to be collected',
      async () => !(await getOrUndefined(land.tgt, ConfigMapK, ns, 'test-1234')),
    );
    expect(await getOrUndefined(land.tgt, ConfigMapK, ns, 'test-5678')).toBeDefined();
    expect(await getOrUndefined(land.tgt, PodK, ns, 'example')).toBeDefined();
    // Clean up for the ManagedResource examples, which use the same names.
    await land.tgt.delete(ConfigMapK, { namespace: ns, name: 'test-5678' });
    await land.tgt.delete(PodK, { namespace: ns, name: 'example' }, { gracePeriodSeconds: 0 });
  });
});

describe('ManagedResource controller', () => {
  it('applies the seed example 1 into the target cluster and reports healthy conditions', async () => {
    await createSecret('managedresource-example1', { 'objects.yaml': EXAMPLE1_DATA });
    await createMR('example', { secretRefs: [{ name: 'managedresource-example1' }] });
    const applied = await waitForCondition('example', 'ResourcesApplied', 'True');
    expect(applied).toMatchObject({ reason: 'ApplySucceeded', message: 'All resources are applied.' });
    expect(await waitForCondition('example', 'ResourcesHealthy', 'True')).toMatchObject({
      reason: 'ResourcesHealthy',
      message: 'All resources are healthy.',
    });
    expect(await waitForCondition('example', 'ResourcesProgressing', 'False')).toMatchObject({
      reason: 'ResourcesRolledOut',
      message: 'All resources have been fully rolled out.',
    });
    for (const name of ['test-1234', 'test-5678']) {
      const cm = await land.tgt.get(ConfigMapK, { namespace: ns, name });
      expect(cm.metadata?.annotations?.['resources.gardener.cloud/origin']).toBe('default/example');
      expect(cm.metadata?.labels?.['resources.gardener.cloud/managed-by']).toBe('gardener');
    }
    // Nothing of it in the source cluster.
    expect(await getOrUndefined(land.src, ConfigMapK, ns, 'test-1234')).toBeUndefined();
    const m = await mr('example');
    expect(m?.metadata?.finalizers).toContain('resources.gardener.cloud/gardener-resource-manager');
    expect(m?.status.resources.map((r: { name: string }) => r.name)).toEqual(['test-1234', 'test-5678']);
  });

  it('reverts a manual change in the target cluster', async () => {
    await land.tgt.patch(
      ConfigMapK,
      { namespace: ns, name: 'test-1234' },
      {
        type: 'merge',
        patch: {
          metadata: { labels: { 'resources.gardener.cloud/managed-by': 'someone-else' } },
          data: { foo: 'bar' },
        },
      },
    );
    await waitFor('manual change to be reverted', async () => {
      const cm = await land.tgt.get(ConfigMapK, { namespace: ns, name: 'test-1234' });
      return cm.metadata?.labels?.['resources.gardener.cloud/managed-by'] === 'gardener' && cm.data === undefined;
    });
  });

  it('injects labels into the Deployment and its pod template (seed example 2) and follows its rollout', async () => {
    await createSecret('managedresource-example2', { 'other-objects.yaml': EXAMPLE2_DATA });
    await createMR('example2', { secretRefs: [{ name: 'managedresource-example2' }], injectLabels: { foo: 'bar' } });
    await waitForCondition('example2', 'ResourcesApplied', 'True');
    const d = await land.tgt.get(DeploymentK, { namespace: ns, name: 'nginx-deployment' });
    expect(d.metadata?.labels).toMatchObject({ foo: 'bar' });
    expect(d.spec.template.metadata.labels).toMatchObject({ app: 'nginx', foo: 'bar' });
    // No controller manager runs here: the Deployment is not rolled out, so it is unhealthy and progressing.
    expect((await waitForCondition('example2', 'ResourcesHealthy', 'False')).reason).toBe('DeploymentUnhealthy');
    expect((await waitForCondition('example2', 'ResourcesProgressing', 'True')).reason).toBe('DeploymentProgressing');
    // Play the deployment controller: the rollout finishes.
    const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    await land.tgt.updateStatus({
      ...d,
      status: {
        observedGeneration: d.metadata?.generation,
        replicas: 2,
        updatedReplicas: 2,
        readyReplicas: 2,
        availableReplicas: 2,
        conditions: [
          {
            type: 'Available',
            status: 'True',
            reason: 'MinimumReplicasAvailable',
            message: 'ok',
            lastUpdateTime: now,
            lastTransitionTime: now,
          },
          {
            type: 'Progressing',
            status: 'True',
            reason: 'NewReplicaSetAvailable',
            message: 'ok',
            lastUpdateTime: now,
            lastTransitionTime: now,
          },
        ],
      },
    });
    expect((await waitForCondition('example2', 'ResourcesHealthy', 'True')).reason).toBe('ResourcesHealthy');
    expect((await waitForCondition('example2', 'ResourcesProgressing', 'False')).reason).toBe('ResourcesRolledOut');
  });

  it('makes no write request for converged ManagedResources on resync', async () => {
    // Everything has settled: take the write counters, wait longer than the sync periods (15 s), compare.
    await new Promise((r) => setTimeout(r, 1500));
    const before = [await writeRequests(land.source.kubeconfigPath), await writeRequests(land.target.kubeconfigPath)];
    await new Promise((r) => setTimeout(r, 17_000));
    const after = [await writeRequests(land.source.kubeconfigPath), await writeRequests(land.target.kubeconfigPath)];
    expect(before[1]).toBeGreaterThan(0); // the counters do count writes
    expect(after).toEqual(before);
    expect(land.app!.output()).not.toContain('"level":50');
  }, 30_000);

  it('deletes an object that is removed from the Secret', async () => {
    await land.src.patch(
      SecretK,
      { namespace: ns, name: 'managedresource-example1' },
      {
        type: 'merge',
        patch: {
          data: {
            'objects.yaml': b64(
              'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: test-5678\n  namespace: default\n',
            ),
          },
        },
      },
    );
    await waitFor(
      'test-1234 to be deleted',
      async () => !(await getOrUndefined(land.tgt, ConfigMapK, ns, 'test-1234')),
    );
    expect(await getOrUndefined(land.tgt, ConfigMapK, ns, 'test-5678')).toBeDefined();
    await waitFor('status to list one object', async () => (await mr('example'))?.status?.resources?.length === 1);
  });

  it('reports unknown kinds and undecodable Secret data in ResourcesApplied=False', async () => {
    await createSecret('unknown-kind', {
      'a.yaml': b64('apiVersion: example.com/v1\nkind: Foo\nmetadata:\n  name: x\n'),
    });
    await createMR('unknown-kind', { secretRefs: [{ name: 'unknown-kind' }] });
    const c = await waitForCondition('unknown-kind', 'ResourcesApplied', 'False', 'ApplyFailed');
    expect(c.message).toContain('no matches for kind "Foo" in version "example.com/v1"');

    await createSecret('bad-data', {
      'a.yaml': b64('kind: [unclosed\n'),
      'b.yaml': b64('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fine\n'),
    });
    await createMR('bad-data', { secretRefs: [{ name: 'bad-data' }] });
    const d = await waitForCondition('bad-data', 'ResourcesApplied', 'False', 'DecodingFailed');
    expect(d.message).toContain("could not decode resource at index 0 in 'a.yaml' in secret 'default/bad-data'");
    expect(await getOrUndefined(land.tgt, ConfigMapK, ns, 'fine')).toBeDefined();

    await createMR('missing-secret', { secretRefs: [{ name: 'does-not-exist' }] });
    expect(
      (await waitForCondition('missing-secret', 'ResourcesApplied', 'False', 'CannotReadSecret')).message,
    ).toContain('does-not-exist');
  });

  it('deletes every object (Namespace after its contents) when the ManagedResource is deleted', async () => {
    await createSecret('with-namespace', {
      'ns.yaml': b64(
        'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: managed\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: inside\n  namespace: managed\n',
      ),
    });
    await createMR('with-namespace', { secretRefs: [{ name: 'with-namespace' }] });
    await waitForCondition('with-namespace', 'ResourcesApplied', 'True');
    expect(await getOrUndefined(land.tgt, ConfigMapK, 'managed', 'inside')).toBeDefined();
    await land.src.delete(MR, { namespace: ns, name: 'with-namespace' });
    await waitFor('ManagedResource to be gone', async () => !(await mr('with-namespace')), { timeoutMs: 30_000 });
    await waitFor(
      'namespace to be gone',
      async () => !(await getOrUndefined(land.tgt, NamespaceK, undefined, 'managed')),
      { timeoutMs: 30_000 },
    );

    await land.src.delete(MR, { namespace: ns, name: 'example' });
    await waitFor('example to be gone', async () => !(await mr('example')), { timeoutMs: 30_000 });
    expect(await getOrUndefined(land.tgt, ConfigMapK, ns, 'test-5678')).toBeUndefined();
  }, 60_000);

  it('keeps the objects with keepObjects', async () => {
    await createSecret('keep', { 'a.yaml': b64('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: kept\n') });
    await createMR('keep', { secretRefs: [{ name: 'keep' }], keepObjects: true });
    await waitForCondition('keep', 'ResourcesApplied', 'True');
    await land.src.delete(MR, { namespace: ns, name: 'keep' });
    await waitFor('keep to be gone', async () => !(await mr('keep')), { timeoutMs: 30_000 });
    expect(await getOrUndefined(land.tgt, ConfigMapK, ns, 'kept')).toBeDefined();
  });
});
