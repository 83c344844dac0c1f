import { describe, expect, it } from 'vitest';
import { ApiError, type KubernetesObject, type Patch } from '@gardener-ts/controller-runtime';
import { ControllerInstallationReconciler } from './reconciler.js';

type Obj = KubernetesObject & Record<string, any>;

function fakes(ci: Obj, extra: Obj[] = []) {
  const garden = new Map<string, Obj>([[`ControllerInstallation/${ci.metadata!.name}`, ci]]);
  for (const o of extra) garden.set(`${o.kind}/${o.metadata!.name}`, o);
  garden.set('Seed/local', {
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'Seed',
    metadata: { name: 'local', labels: { a: 'b' } },
    spec: { provider: { type: 'local' } },
  });
  const seed = new Map<string, Obj>();
  const applied: string[] = [];
  const gardenClient = {
    async get(kind: { kind: string }, key: { name: string }) {
      const o = garden.get(`${kind.kind}/${key.name}`);
      if (!o) throw new ApiError(404, 'NotFound', 'nope');
      return structuredClone(o);
    },
    async patch(kind: { kind: string }, key: { name: string }, patch: Patch, opts?: { subresource?: string }) {
      const o = garden.get(`${kind.kind}/${key.name}`)!;
      const body = patch.patch as Obj;
      if (opts?.subresource === 'status') o.status = { ...o.status, ...body.status };
      else o.metadata = { ...o.metadata, ...body.metadata };
      return structuredClone(o);
    },
  };
  const seedClient = {
    async apply(o: Obj) {
      applied.push(`${o.kind}/${o.metadata!.name}`);
      seed.set(`${o.kind}/${o.metadata?.namespace ?? ''}/${o.metadata!.name}`, o);
      return o;
    },
    async get(kind: { kind: string }, key: { namespace?: string; name: string }) {
      const o = seed.get(`${kind.kind}/${key.namespace ?? ''}/${key.name}`);
      if (!o) throw new ApiError(404, 'NotFound', 'nope');
      return o;
    },
    async delete(kind: { kind: string }, key: { namespace?: string; name: string }) {
      if (!seed.delete(`${kind.kind}/${key.namespace ?? ''}/${key.name}`)) throw new ApiError(404, 'NotFound', 'nope');
    },
  };
  return { garden, seed, applied, gardenClient, seedClient };
}

const installation = (): Obj => ({
  apiVersion: 'core.gardener.cloud/v1beta1',
  kind: 'ControllerInstallation',
  metadata: { name: 'ext-abc', generation: 1 },
  spec: { registrationRef: { name: 'ext' }, deploymentRef: { name: 'ext' }, seedRef: { name: 'local' } },
});
const registration: Obj = {
  apiVersion: 'core.gardener.cloud/v1beta1',
  kind: 'ControllerRegistration',
  metadata: { name: 'ext' },
  spec: {},
};
const deployment = (helm: Record<string, unknown>): Obj => ({
  apiVersion: 'core.gardener.cloud/v1',
  kind: 'ControllerDeployment',
  metadata: { name: 'ext' },
  helm,
});
const conditions = (o: Obj) =>
  Object.fromEntries((o.status?.conditions ?? []).map((c: Obj) => [c.type, `${c.status}/${c.reason}`]));

describe('ControllerInstallationReconciler', () => {
  it('renders the chart with the gardener values and deploys it as a ManagedResource; Installed pending', async () => {
    const f = fakes(installation(), [
      registration,
      deployment({ rawChart: Buffer.from('TGZ').toString('base64'), values: { replicas: 2 } }),
    ]);
    const renders: unknown[] = [];
    const r = new ControllerInstallationReconciler({
      garden: f.gardenClient as never,
      seed: f.seedClient as never,
      seedName: 'local',
      version: '1.0.0',
      featureGates: {},
      render: async (archive, release, namespace, values) => {
        renders.push({ archive: archive.toString(), release, namespace, values });
        return [{ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'ext', namespace } }];
      },
    });
    await r.reconcile({ namespace: '', name: 'ext-abc' });
    const ci = f.garden.get('ControllerInstallation/ext-abc')!;
    expect(ci.metadata?.finalizers).toEqual(['core.gardener.cloud/controllerinstallation']);
    expect(renders).toEqual([
      expect.objectContaining({
        archive: 'TGZ',
        release: 'ext',
        namespace: 'extension-ext-abc',
        values: expect.objectContaining({ replicas: 2, gardener: expect.objectContaining({ version: '1.0.0' }) }),
      }),
    ]);
    expect(f.applied).toEqual([
      'Namespace/extension-ext-abc',
      'Secret/managedresource-ext-abc',
      'ManagedResource/ext-abc',
    ]);
    expect(conditions(ci)).toEqual({ Valid: 'True/RegistrationValid', Installed: 'False/InstallationPending' });
  });

  it('reports a ControllerDeployment without a raw chart as ChartInformationInvalid and does not retry', async () => {
    const f = fakes(installation(), [registration, deployment({ ociRepository: { ref: 'example.com/chart:1' } })]);
    const r = new ControllerInstallationReconciler({
      garden: f.gardenClient as never,
      seed: f.seedClient as never,
      seedName: 'local',
      version: '1',
      featureGates: {},
      render: async () => [],
    });
    expect(await r.reconcile({ namespace: '', name: 'ext-abc' })).toBeUndefined();
    const ci = f.garden.get('ControllerInstallation/ext-abc')!;
    expect(conditions(ci).Installed).toBe('False/ChartInformationInvalid');
    expect(ci.status.conditions.find((c: Obj) => c.type === 'Installed').message).toContain('has no helm.rawChart');
    expect(f.applied).toEqual([]);
  });

  it('sets InstallationFailed when rendering fails and retries', async () => {
    const f = fakes(installation(), [registration, deployment({ rawChart: 'eA==' })]);
    const r = new ControllerInstallationReconciler({
      garden: f.gardenClient as never,
      seed: f.seedClient as never,
      seedName: 'local',
      version: '1',
      featureGates: {},
      render: async () => {
        throw new Error('helm template failed: parse error');
      },
    });
    await expect(r.reconcile({ namespace: '', name: 'ext-abc' })).rejects.toThrow(
      /rendering the chart of ControllerInstallation ext-abc: helm template failed/,
    );
    expect(conditions(f.garden.get('ControllerInstallation/ext-abc')!).Installed).toBe('False/InstallationFailed');
  });

  it('ignores installations of other seeds', async () => {
    const other = { ...installation(), spec: { ...installation().spec, seedRef: { name: 'other' } } };
    const f = fakes(other, [registration]);
    const r = new ControllerInstallationReconciler({
      garden: f.gardenClient as never,
      seed: f.seedClient as never,
      seedName: 'local',
      version: '1',
      featureGates: {},
      render: async () => [],
    });
    await r.reconcile({ namespace: '', name: 'ext-abc' });
    expect(f.garden.get('ControllerInstallation/ext-abc')!.metadata?.finalizers).toBeUndefined();
  });

  it('on deletion removes the ManagedResource, its Secret and the namespace, then the finalizer', async () => {
    const ci = {
      ...installation(),
      metadata: {
        ...installation().metadata,
        deletionTimestamp: '2026-01-01T00:00:00Z',
        finalizers: ['core.gardener.cloud/controllerinstallation'],
      },
    };
    const f = fakes(ci, [registration]);
    f.seed.set('ManagedResource/garden/ext-abc', {
      kind: 'ManagedResource',
      metadata: { name: 'ext-abc', namespace: 'garden' },
    });
    f.seed.set('Secret/garden/managedresource-ext-abc', {
      kind: 'Secret',
      metadata: { name: 'managedresource-ext-abc' },
    });
    f.seed.set('Namespace//extension-ext-abc', { kind: 'Namespace', metadata: { name: 'extension-ext-abc' } });
    const r = new ControllerInstallationReconciler({
      garden: f.gardenClient as never,
      seed: f.seedClient as never,
      seedName: 'local',
      version: '1',
      featureGates: {},
      render: async () => [],
    });
    await r.reconcile({ namespace: '', name: 'ext-abc' });
    expect([...f.seed.keys()]).toEqual([]);
    expect(f.garden.get('ControllerInstallation/ext-abc')!.metadata?.finalizers ?? []).toEqual([]);
  });
});
