import { describe, expect, it } from 'vitest';
import { ApiError, type KubernetesObject, type Patch } from '@gardener-ts/controller-runtime';
import { ControllerInstallationReconciler, type ControllerInstallationReconcilerDeps } from './reconciler.js';

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
  const gardenDeleted: string[] = [];
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
    async delete(kind: { kind: string }, key: { namespace?: string; name: string }) {
      gardenDeleted.push(`${kind.kind}/${key.namespace ?? ''}/${key.name}`);
      throw new ApiError(404, 'NotFound', 'nope');
    },
  };
  const seedClient = {
    async apply(o: Obj) {
      applied.push(`${o.kind}/${o.metadata!.name}`);
      seed.set(`${o.kind}/${o.metadata?.namespace ?? ''}/${o.metadata!.name}`, o);
      return o;
    },
    async create(o: Obj) {
      const key = `${o.kind}/${o.metadata?.namespace ?? ''}/${o.metadata!.name}`;
      if (seed.has(key)) throw new ApiError(409, 'AlreadyExists', 'exists');
      applied.push(`created ${o.kind}/${o.metadata!.name}`);
      seed.set(key, o);
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
  return { garden, seed, applied, gardenDeleted, gardenClient, seedClient };
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
/** The reconciler of seed `local` over the fakes' clients; `deps` override the defaults (version 1, renders nothing). */
const reconcilerOf = (
  f: ReturnType<typeof fakes>,
  deps: Partial<Omit<ControllerInstallationReconcilerDeps, 'garden' | 'seed'>> = {},
) =>
  new ControllerInstallationReconciler({
    garden: f.gardenClient as never,
    seed: f.seedClient as never,
    seedName: 'local',
    version: '1',
    featureGates: {},
    render: async () => [],
    ...deps,
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
    const r = reconcilerOf(f, {
      version: '1.0.0',
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

  it('reports a ControllerDeployment with neither chart nor OCI repository as ChartInformationInvalid, no retry', async () => {
    const f = fakes(installation(), [registration, deployment({ values: { a: 1 } })]);
    const r = reconcilerOf(f);
    expect(await r.reconcile({ namespace: '', name: 'ext-abc' })).toBeUndefined();
    const ci = f.garden.get('ControllerInstallation/ext-abc')!;
    expect(conditions(ci).Installed).toBe('False/ChartInformationInvalid');
    expect(ci.status.conditions.find((c: Obj) => c.type === 'Installed').message).toBe(
      'ControllerDeployment ext has neither helm.rawChart nor helm.ociRepository',
    );
    expect(f.applied).toEqual([]);
  });

  it('installs the chart pulled for helm.ociRepository as it installs a raw chart', async () => {
    const oci = { repository: 'registry.example.com/charts/ext', tag: '1.0.0', pullSecretRef: { name: 'pull' } };
    const f = fakes(installation(), [registration, deployment({ ociRepository: oci })]);
    const pulled: unknown[] = [];
    const rendered: string[] = [];
    const r = reconcilerOf(f, {
      pullChart: async (o) => {
        pulled.push(o);
        return Buffer.from('PULLED-TGZ');
      },
      render: async (archive, _release, namespace) => {
        rendered.push(archive.toString());
        return [{ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'ext', namespace } }];
      },
    });
    await r.reconcile({ namespace: '', name: 'ext-abc' });
    expect(pulled).toEqual([oci]);
    expect(rendered).toEqual(['PULLED-TGZ']);
    expect(f.applied).toEqual([
      'Namespace/extension-ext-abc',
      'Secret/managedresource-ext-abc',
      'ManagedResource/ext-abc',
    ]);
    expect(conditions(f.garden.get('ControllerInstallation/ext-abc')!)).toEqual({
      Valid: 'True/RegistrationValid',
      Installed: 'False/InstallationPending',
    });
  });

  it('prefers helm.rawChart over helm.ociRepository, as Gardener does', async () => {
    const f = fakes(installation(), [
      registration,
      deployment({ rawChart: Buffer.from('RAW').toString('base64'), ociRepository: { ref: 'r.example.com/x:1' } }),
    ]);
    const rendered: string[] = [];
    const r = reconcilerOf(f, {
      pullChart: async () => {
        throw new Error('must not pull');
      },
      render: async (archive) => {
        rendered.push(archive.toString());
        return [];
      },
    });
    await r.reconcile({ namespace: '', name: 'ext-abc' });
    expect(rendered).toEqual(['RAW']);
  });

  it('sets Valid and Installed False OCIChartCannotBePulled naming the deployment and the reference, and retries', async () => {
    const f = fakes(installation(), [
      registration,
      deployment({ ociRepository: { ref: 'oci://registry.example.com/charts/ext:1.0.0' } }),
    ]);
    const r = reconcilerOf(f, {
      pullChart: async () => {
        throw new Error('failed to pull artifact registry.example.com/charts/ext:1.0.0: GET manifest: HTTP 404');
      },
      render: async () => {
        throw new Error('must not render');
      },
    });
    await expect(r.reconcile({ namespace: '', name: 'ext-abc' })).rejects.toThrow(
      /pulling the chart of ControllerInstallation ext-abc: failed to pull artifact/,
    );
    const ci = f.garden.get('ControllerInstallation/ext-abc')!;
    expect(conditions(ci)).toEqual({
      Valid: 'False/OCIChartCannotBePulled',
      Installed: 'False/OCIChartCannotBePulled',
    });
    expect(ci.status.conditions.find((c: Obj) => c.type === 'Installed').message).toBe(
      'Pulling the chart of ControllerDeployment ext from registry.example.com/charts/ext:1.0.0 failed: ' +
        'failed to pull artifact registry.example.com/charts/ext:1.0.0: GET manifest: HTTP 404',
    );
    expect(f.applied).toEqual(['Namespace/extension-ext-abc']);
  });

  it('sets InstallationFailed when rendering fails and retries', async () => {
    const f = fakes(installation(), [registration, deployment({ rawChart: 'eA==' })]);
    const r = reconcilerOf(f, {
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
    const r = reconcilerOf(f);
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
    const r = reconcilerOf(f);
    await r.reconcile({ namespace: '', name: 'ext-abc' });
    expect([...f.seed.keys()]).toEqual([]);
    // The extension's ServiceAccount in the garden goes too (already gone here: NotFound is fine).
    expect(f.gardenDeleted).toEqual(['ServiceAccount/seed-local/extension-ext-abc']);
    expect(f.garden.get('ControllerInstallation/ext-abc')!.metadata?.finalizers ?? []).toEqual([]);
  });
});

describe('ControllerInstallationReconciler with injectGardenKubeconfig', () => {
  const garden = { server: 'https://garden.example:6443', caData: Buffer.from('PEM').toString('base64') };
  const workload = (namespace: string, labels?: Record<string, string>): Obj => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'ext', namespace, ...(labels ? { labels } : {}) },
    spec: { template: { spec: { containers: [{ name: 'ext', image: 'ext:v1' }] } } },
  });
  const managedObjects = (f: ReturnType<typeof fakes>) =>
    Object.values(f.seed.get('Secret/garden/managedresource-ext-abc')!.data as Record<string, string>).map((v) =>
      JSON.parse(Buffer.from(v, 'base64').toString()),
    );

  /** A reconciler that knows the garden address and renders one workload, keeping the values it was given. */
  const renderingWorkload = (f: ReturnType<typeof fakes>) => {
    const values: Record<string, any> = {};
    const r = reconcilerOf(f, {
      genericGardenCluster: garden,
      render: async (_archive, _release, namespace, v) => {
        Object.assign(values, v);
        return [workload(namespace)];
      },
    });
    return { r, values };
  };

  it('creates the generic garden kubeconfig and the garden access Secret and mounts both into the workloads', async () => {
    const f = fakes(installation(), [registration, deployment({ rawChart: Buffer.from('TGZ').toString('base64') })]);
    f.garden.get('ControllerDeployment/ext')!.injectGardenKubeconfig = true;
    const { r, values } = renderingWorkload(f);
    await r.reconcile({ namespace: '', name: 'ext-abc' });

    const kubeconfigSecretName = values.gardener.garden.genericKubeconfigSecretName;
    expect(kubeconfigSecretName).toMatch(/^generic-garden-kubeconfig-[0-9a-f]{8}$/);
    expect(f.applied).toEqual([
      'Namespace/extension-ext-abc',
      `created Secret/${kubeconfigSecretName}`,
      'Secret/garden-access-extension',
      'Secret/managedresource-ext-abc',
      'ManagedResource/ext-abc',
    ]);
    const kubeconfig = Buffer.from(
      f.seed.get(`Secret/extension-ext-abc/${kubeconfigSecretName}`)!.data.kubeconfig,
      'base64',
    ).toString();
    expect(kubeconfig).toContain('server: https://garden.example:6443');
    const access = f.seed.get('Secret/extension-ext-abc/garden-access-extension')!;
    expect(access.metadata?.labels).toEqual({
      'resources.gardener.cloud/purpose': 'token-requestor',
      'resources.gardener.cloud/class': 'garden',
    });
    expect(access.metadata?.annotations?.['serviceaccount.resources.gardener.cloud/name']).toBe('extension-ext-abc');

    const [deployed] = managedObjects(f);
    const pod = deployed.spec.template.spec;
    expect(pod.volumes[0].projected.sources.map((s: Obj) => s.secret.name)).toEqual([
      kubeconfigSecretName,
      'garden-access-extension',
    ]);
    expect(pod.containers[0].env).toEqual([
      { name: 'GARDEN_KUBECONFIG', value: '/var/run/secrets/gardener.cloud/garden/generic-kubeconfig/kubeconfig' },
      { name: 'SEED_NAME', value: 'local' },
    ]);

    // A second reconcile finds the immutable kubeconfig Secret in place and keeps it.
    await r.reconcile({ namespace: '', name: 'ext-abc' });
    expect(f.applied.filter((a) => a.startsWith('created'))).toHaveLength(1);
    expect(conditions(f.garden.get('ControllerInstallation/ext-abc')!).Installed).toBe('False/InstallationPending');
  });

  it('removes the garden access Secret when no workload wants it and injects only SEED_NAME', async () => {
    const f = fakes(installation(), [registration, deployment({ rawChart: 'eA==' })]);
    f.garden.get('ControllerDeployment/ext')!.injectGardenKubeconfig = true;
    f.seed.set('Secret/extension-ext-abc/garden-access-extension', { kind: 'Secret', metadata: { name: 'x' } });
    const r = reconcilerOf(f, {
      genericGardenCluster: garden,
      render: async (_a, _r, namespace) => [
        workload(namespace, { 'extensions.gardener.cloud/inject-garden-kubeconfig': 'false' }),
      ],
    });
    await r.reconcile({ namespace: '', name: 'ext-abc' });
    expect(f.seed.has('Secret/extension-ext-abc/garden-access-extension')).toBe(false);
    const [deployed] = managedObjects(f);
    expect(deployed.spec.template.spec.volumes).toBeUndefined();
    expect(deployed.spec.template.spec.containers[0].env).toEqual([{ name: 'SEED_NAME', value: 'local' }]);
  });

  it('without it, has no garden access Secret and no kubeconfig value', async () => {
    const f = fakes(installation(), [registration, deployment({ rawChart: 'eA==' })]);
    const { r, values } = renderingWorkload(f);
    await r.reconcile({ namespace: '', name: 'ext-abc' });
    expect(values.gardener.garden).toEqual({ clusterIdentity: '' });
    expect(f.applied).toEqual([
      'Namespace/extension-ext-abc',
      'Secret/managedresource-ext-abc',
      'ManagedResource/ext-abc',
    ]);
    expect(managedObjects(f)[0].spec.template.spec.volumes).toBeUndefined();
  });

  it('fails the installation naming the ControllerDeployment when the gardenlet knows no garden address', async () => {
    const f = fakes(installation(), [registration, deployment({ rawChart: 'eA==' })]);
    f.garden.get('ControllerDeployment/ext')!.injectGardenKubeconfig = true;
    const r = reconcilerOf(f);
    await expect(r.reconcile({ namespace: '', name: 'ext-abc' })).rejects.toThrow(
      /ControllerDeployment ext sets injectGardenKubeconfig, but the gardenlet knows no garden address/,
    );
    const ci = f.garden.get('ControllerInstallation/ext-abc')!;
    expect(conditions(ci).Installed).toBe('False/InstallationFailed');
    expect(f.applied).toEqual(['Namespace/extension-ext-abc']);
  });
});
