// The ManagedSeed reconciler over in-memory fakes of the garden, the seed and the shoot, a chart renderer that records
// its values, and a fixed clock: ManagedSeeds of other seeds ignored; waiting for the shoot; the finalizer, the garden
// namespace, the bootstrap token and the gardenlet applied into the shoot with the merged configuration;
// SeedRegistered following the Seed; an already bootstrapped gardenlet; ServiceAccount and None bootstrapping; errors
// as ReconcileError; and the deletion in Gardener's order (Seed, gardenlet, namespace, finalizer).
import { describe, expect, it } from 'vitest';
import type { KubernetesObject, ReconcileContext } from '@gardener-ts/controller-runtime';
import { FakeCluster } from '../../../test/support/fake-cluster.js';
import type { GardenletChartRenderer } from '../../charts/gardenlet-chart.js';
import { bootstrapTokenID } from '../../charts/gardenlet-chart.js';
import { ManagedSeedReconciler, secretChecksum } from './reconciler.js';

const now = new Date('2026-11-30T12:00:00Z');
const ctx = { log: { info: () => undefined } } as unknown as ReconcileContext;
const req = { namespace: 'garden', name: 'infra' };
const WAIT = 15_000;
const SYNC = 3_600_000;

const parentConfig = {
  apiVersion: 'gardenlet.config.gardener.cloud/v1alpha1',
  kind: 'GardenletConfiguration',
  gardenClientConnection: {
    qps: 100,
    bootstrapKubeconfig: { name: 'gardenlet-kubeconfig-bootstrap', namespace: 'garden' },
    kubeconfigSecret: { name: 'gardenlet-kubeconfig', namespace: 'garden' },
  },
  seedClientConnection: { kubeconfig: '/parent/seed-kubeconfig' },
  controllers: { shootCare: { syncPeriod: '15s' } },
  seedConfig: { metadata: { name: 'local' }, spec: { provider: { type: 'local' } } },
};

interface Options {
  seedName?: string;
  bootstrap?: 'BootstrapToken' | 'ServiceAccount' | 'None';
  mergeWithParent?: boolean;
  shootReconciled?: boolean;
  backup?: boolean;
}

function setup(o: Options = {}) {
  const garden = new FakeCluster();
  const seed = new FakeCluster();
  const shootCluster = new FakeCluster();
  garden.put({
    apiVersion: 'seedmanagement.gardener.cloud/v1alpha1',
    kind: 'ManagedSeed',
    metadata: { name: 'infra', namespace: 'garden', generation: 1 },
    spec: {
      shoot: { name: 'infra' },
      gardenlet: {
        bootstrap: o.bootstrap ?? 'BootstrapToken',
        mergeWithParent: o.mergeWithParent ?? true,
        deployment: { replicaCount: 1 },
        config: {
          apiVersion: 'gardenlet.config.gardener.cloud/v1alpha1',
          kind: 'GardenletConfiguration',
          ...(o.bootstrap === 'None' ? { gardenClientConnection: { kubeconfig: '/etc/garden/kubeconfig' } } : {}),
          seedConfig: {
            spec: {
              provider: { type: 'local', region: 'infra' },
              ...(o.backup
                ? { backup: { credentialsRef: { apiVersion: 'v1', kind: 'Secret', namespace: 'garden', name: 'b' } } }
                : {}),
            },
          },
        },
      },
    },
  });
  garden.put({
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'Shoot',
    metadata: { name: 'infra', namespace: 'garden', generation: 3 },
    spec: { seedName: o.seedName ?? 'local' },
    status: {
      technicalID: 'shoot--garden--infra',
      observedGeneration: o.shootReconciled === false ? 2 : 3,
      lastOperation: { type: 'Reconcile', state: 'Succeeded' },
    },
  });
  const rendered: Record<string, any>[] = [];
  const replaced: (readonly (readonly string[])[])[] = [];
  const chart: GardenletChartRenderer = {
    async render(values, replace = []) {
      rendered.push(structuredClone(values));
      replaced.push(replace);
      const objects: KubernetesObject[] = [
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'gardenlet-config', namespace: 'garden' } },
        { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'gardenlet', namespace: 'garden' } },
        { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'gardenlet' } },
      ];
      if ((values['bootstrapKubeconfig'] as { kubeconfig?: string } | undefined)?.kubeconfig) {
        objects.push({
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: 'gardenlet-kubeconfig-bootstrap', namespace: 'garden' },
        });
      }
      return objects;
    },
  };
  let connections = 0;
  let closed = 0;
  const tokenRequests: string[] = [];
  const reconciler = new ManagedSeedReconciler({
    garden: garden as never,
    seed: seed as never,
    shootConnector: async (shoot) => {
      expect(shoot.status?.technicalID).toBe('shoot--garden--infra');
      connections++;
      return { client: shootCluster as never, close: () => void closed++ };
    },
    chart,
    requestServiceAccountToken: async (namespace, name) => {
      tokenRequests.push(`${namespace}/${name}`);
      return 'sa-token';
    },
    gardenCluster: { server: 'https://garden.example:443', 'certificate-authority-data': 'Q0E=' },
    parentConfig,
    seedName: 'local',
    waitSyncPeriodMs: WAIT,
    syncPeriodMs: SYNC,
    clock: { now: () => now },
  });
  const ms = () => garden.find('ManagedSeed', 'infra', 'garden');
  const condition = (type: string) => ms()?.status?.conditions?.find((c: { type: string }) => c.type === type);
  const registerSeed = (ready: string) =>
    garden.put({
      apiVersion: 'core.gardener.cloud/v1beta1',
      kind: 'Seed',
      metadata: { name: 'infra', finalizers: ['gardener'] },
      status: { conditions: [{ type: 'GardenletReady', status: ready }] },
    });
  return {
    garden,
    seed,
    shootCluster,
    reconciler,
    rendered,
    replaced,
    ms,
    condition,
    registerSeed,
    tokenRequests,
    stats: () => ({ connections, closed }),
  };
}

const decode = (v: string) => Buffer.from(v, 'base64').toString();

describe('ManagedSeedReconciler', () => {
  it('leaves ManagedSeeds whose shoot another seed hosts alone', async () => {
    const { garden, reconciler, stats } = setup({ seedName: 'other' });
    expect(await reconciler.reconcile(req, ctx)).toBeUndefined();
    expect(garden.calls).toEqual([]);
    expect(stats().connections).toBe(0);
  });

  it('waits for the shoot to be reconciled: finalizer, observedGeneration and ShootReconciled False', async () => {
    const { reconciler, ms, condition, stats } = setup({ shootReconciled: false });
    expect(await reconciler.reconcile(req, ctx)).toEqual({ requeueAfter: WAIT });
    expect(ms()?.metadata?.finalizers).toEqual(['gardener']);
    expect(ms()?.status?.observedGeneration).toBe(1);
    expect(condition('ShootReconciled')).toMatchObject({ status: 'False', reason: 'Reconciling' });
    expect(condition('SeedRegistered')).toBeUndefined();
    expect(stats().connections).toBe(0);
  });

  it('deploys the gardenlet with a bootstrap token into the shoot, then follows the Seed', async () => {
    const { garden, shootCluster, reconciler, rendered, replaced, condition, registerSeed, stats } = setup();
    expect(await reconciler.reconcile(req, ctx)).toEqual({ requeueAfter: WAIT });

    // The garden namespace and the chart's objects, applied into the shoot.
    expect(shootCluster.find('Namespace', 'garden')).toBeDefined();
    expect(shootCluster.find('Deployment', 'gardenlet', 'garden')).toBeDefined();
    expect(shootCluster.find('ClusterRole', 'gardenlet')).toBeDefined();
    expect(shootCluster.find('Secret', 'gardenlet-kubeconfig-bootstrap', 'garden')).toBeDefined();
    expect(shootCluster.calls).toContain('apply Deployment gardenlet');
    expect(stats()).toEqual({ connections: 1, closed: 1 });

    // The bootstrap token in the garden's kube-system, described for the ManagedSeed, valid 24 h.
    const id = bootstrapTokenID({ namespace: 'garden', name: 'infra' });
    const token = garden.find('Secret', `bootstrap-token-${id}`, 'kube-system')!;
    expect(token.type).toBe('bootstrap.kubernetes.io/token');
    expect(decode(token.data.description)).toBe('A bootstrap token for the Gardenlet for managed seed garden/infra.');
    expect(decode(token.data.expiration)).toBe('2026-12-01T12:00:00Z');
    const secret = decode(token.data['token-secret']);

    // The values: the merged configuration, the bootstrap kubeconfig with the token, the deployment.
    const values = rendered[0]!;
    expect(values.replicas).toBe(1);
    expect(values.bootstrapKubeconfig.kubeconfig).toContain(`token: ${id}.${secret}`);
    expect(values.bootstrapKubeconfig.kubeconfig).toContain('server: https://garden.example:443');
    expect(values.config.controllers).toEqual({ shootCare: { syncPeriod: '15s' } }); // from the parent
    expect(values.config.seedConfig).toEqual({
      metadata: { name: 'infra' },
      spec: { provider: { type: 'local', region: 'infra' } },
    });
    expect(values.config.seedClientConnection).toEqual({});
    expect(values.config.gardenClientConnection).toEqual({
      qps: 100,
      kubeconfigSecret: { name: 'gardenlet-kubeconfig', namespace: 'garden' },
      bootstrapKubeconfig: { name: 'gardenlet-kubeconfig-bootstrap', namespace: 'garden' },
    });
    expect(values.config.leaderElection).toEqual({ resourceNamespace: 'garden' });
    expect(replaced[0]).toEqual([['config', 'seedConfig']]);

    expect(condition('ShootReconciled')).toMatchObject({ status: 'True', reason: 'Reconciled' });
    expect(condition('SeedRegistered')).toMatchObject({
      status: 'False',
      reason: 'Reconciling',
      message: 'Waiting for seed infra to be registered by its gardenlet',
    });

    // The new gardenlet registered its Seed and is ready.
    registerSeed('True');
    expect(await reconciler.reconcile(req, ctx)).toEqual({ requeueAfter: SYNC });
    expect(condition('SeedRegistered')).toMatchObject({ status: 'True', message: 'Seed infra has been registered' });
    // The token was still valid: reused, not issued again.
    expect(decode(garden.find('Secret', `bootstrap-token-${id}`, 'kube-system')!.data['token-secret'])).toBe(secret);
  });

  it('deploys without a bootstrap kubeconfig once the gardenlet has its kubeconfig Secret', async () => {
    const { garden, shootCluster, reconciler, rendered } = setup();
    shootCluster.put({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'gardenlet-kubeconfig', namespace: 'garden' },
    });
    await reconciler.reconcile(req, ctx);
    expect(rendered[0]!.bootstrapKubeconfig).toBeUndefined();
    expect(rendered[0]!.config.gardenClientConnection.bootstrapKubeconfig).toBeUndefined();
    expect([...garden.objects.keys()].some((k) => k.startsWith('Secret/kube-system/'))).toBe(false);
  });

  it('renews the kubeconfig on renew-kubeconfig and removes the annotation', async () => {
    const { garden, shootCluster, reconciler, rendered, ms } = setup();
    garden.put({
      ...ms()!,
      metadata: { ...ms()!.metadata, annotations: { 'gardener.cloud/operation': 'renew-kubeconfig' } },
    });
    shootCluster.put({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'gardenlet-kubeconfig', namespace: 'garden' },
    });
    await reconciler.reconcile(req, ctx);
    expect(shootCluster.calls).toContain('delete Secret gardenlet-kubeconfig');
    expect(rendered[0]!.bootstrapKubeconfig.kubeconfig).toContain('token:');
    expect(ms()?.metadata?.annotations?.['gardener.cloud/operation']).toBeUndefined();
  });

  it('bootstraps with a ServiceAccount token bound to the seed-bootstrapper role', async () => {
    const { garden, reconciler, rendered, tokenRequests } = setup({ bootstrap: 'ServiceAccount' });
    await reconciler.reconcile(req, ctx);
    expect(garden.find('ServiceAccount', 'gardenlet-bootstrap-infra', 'garden')).toBeDefined();
    const binding = garden.find(
      'ClusterRoleBinding',
      'gardener.cloud:system:seed-bootstrapper:garden:gardenlet-bootstrap-infra',
    )!;
    expect(binding.roleRef.name).toBe('gardener.cloud:system:seed-bootstrapper');
    expect(binding.subjects).toEqual([
      { kind: 'ServiceAccount', name: 'gardenlet-bootstrap-infra', namespace: 'garden' },
    ]);
    expect(tokenRequests).toEqual(['garden/gardenlet-bootstrap-infra']);
    expect(rendered[0]!.bootstrapKubeconfig.kubeconfig).toContain('token: sa-token');
  });

  it('deploys with bootstrap None and mergeWithParent false: the configuration as given, no kubeconfig Secrets', async () => {
    const { garden, reconciler, rendered, replaced } = setup({ bootstrap: 'None', mergeWithParent: false });
    await reconciler.reconcile(req, ctx);
    const values = rendered[0]!;
    expect(values.bootstrapKubeconfig).toBeUndefined();
    expect(values.config.gardenClientConnection).toEqual({ kubeconfig: '/etc/garden/kubeconfig' });
    expect(values.config.controllers).toBeUndefined();
    expect(replaced[0]).toEqual([
      ['config', 'seedConfig'],
      ['config', 'gardenClientConnection'],
    ]);
    expect([...garden.objects.keys()].some((k) => k.startsWith('Secret/kube-system/'))).toBe(false);
  });

  it("rolls the gardenlet with the backup Secret's checksum and fails as ReconcileError when it is missing", async () => {
    const { garden, reconciler, rendered, condition } = setup({ backup: true });
    await expect(reconciler.reconcile(req, ctx)).rejects.toThrow('could not reconcile ManagedSeed garden/infra');
    expect(condition('SeedRegistered')).toMatchObject({
      status: 'False',
      reason: 'ReconcileError',
      message: 'the configured backup secret garden/b does not exist',
    });
    garden.put({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'b', namespace: 'garden' }, data: { k: 'dg==' } });
    await reconciler.reconcile(req, ctx);
    expect(rendered[0]!.podAnnotations).toEqual({
      'checksum/seed-backup-secret': `b-${secretChecksum({ k: 'dg==' })}`,
    });
  });

  it('refuses a seed with its own VPA in a shoot that has one', async () => {
    const { seed, reconciler, condition } = setup();
    seed.put({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'vpa-admission-controller', namespace: 'shoot--garden--infra' },
    });
    await expect(reconciler.reconcile(req, ctx)).rejects.toThrow();
    expect(condition('SeedRegistered')).toMatchObject({
      reason: 'ReconcileError',
      message: 'runtime VPA is enabled but target cluster already has a VPA',
    });
  });

  it('deletes in order: the Seed, then the gardenlet, then the garden namespace, then the finalizer', async () => {
    const { garden, shootCluster, reconciler, ms, condition, registerSeed } = setup();
    await reconciler.reconcile(req, ctx);
    registerSeed('True');
    await reconciler.reconcile(req, ctx);
    // The shoot's namespace controller keeps the namespace while it has content.
    shootCluster.put({
      ...shootCluster.find('Namespace', 'garden')!,
      metadata: { name: 'garden', finalizers: ['kubernetes'] },
    });
    await garden.delete({ kind: 'ManagedSeed' }, req);

    // 1. The Seed is deleted; its gardenlet still runs to clean it up.
    expect(await reconciler.reconcile(req, ctx)).toEqual({ requeueAfter: WAIT });
    expect(garden.find('Seed', 'infra')?.metadata?.deletionTimestamp).toBeDefined();
    expect(shootCluster.find('Deployment', 'gardenlet', 'garden')).toBeDefined();
    expect(condition('SeedRegistered')).toMatchObject({
      status: 'False',
      reason: 'Deleting',
      message: 'Waiting for seed "infra" to be deleted',
    });
    // Still there: waited for, not deleted again.
    garden.calls.length = 0;
    await reconciler.reconcile(req, ctx);
    expect(garden.calls.filter((c) => c.startsWith('delete'))).toEqual([]);

    // 2. The Seed is gone (its gardenlet released it): the gardenlet's objects are deleted from the shoot.
    garden.objects.delete('Seed//infra');
    expect(await reconciler.reconcile(req, ctx)).toEqual({ requeueAfter: WAIT });
    expect(shootCluster.find('Deployment', 'gardenlet', 'garden')).toBeUndefined();
    expect(shootCluster.find('ClusterRole', 'gardenlet')).toBeUndefined();
    expect(shootCluster.find('Namespace', 'garden')).toBeDefined();
    expect(condition('SeedRegistered')).toMatchObject({
      message: 'Waiting for gardenlet to be deleted from target cluster',
    });

    // 3. The garden namespace is deleted and waited for.
    expect(await reconciler.reconcile(req, ctx)).toEqual({ requeueAfter: WAIT });
    expect(shootCluster.find('Namespace', 'garden')?.metadata?.deletionTimestamp).toBeDefined();
    expect(ms()?.metadata?.finalizers).toEqual(['gardener']);

    // 4. The namespace is gone: the finalizer is released and the ManagedSeed goes.
    shootCluster.objects.delete('Namespace//garden');
    expect(await reconciler.reconcile(req, ctx)).toBeUndefined();
    expect(ms()).toBeUndefined();
  });

  it('reports deletion errors as DeleteError and keeps the finalizer', async () => {
    const { garden, shootCluster, reconciler, ms, condition } = setup();
    await reconciler.reconcile(req, ctx);
    await garden.delete({ kind: 'ManagedSeed' }, req);
    shootCluster.failWrites = new Error('shoot API server unavailable');
    await expect(reconciler.reconcile(req, ctx)).rejects.toThrow(
      'could not reconcile ManagedSeed garden/infra deletion',
    );
    expect(condition('SeedRegistered')).toMatchObject({
      reason: 'DeleteError',
      message: 'shoot API server unavailable',
    });
    expect(ms()?.metadata?.finalizers).toEqual(['gardener']);
  });

  it('does nothing for a ManagedSeed being deleted without its finalizer, or a gone one', async () => {
    const { garden, reconciler, ms } = setup();
    garden.put({
      ...ms()!,
      metadata: { ...ms()!.metadata, deletionTimestamp: '2026-11-30T12:00:00Z', finalizers: ['other'] },
    });
    garden.calls.length = 0;
    expect(await reconciler.reconcile(req, ctx)).toBeUndefined();
    expect(garden.calls).toEqual([]);
    expect(await reconciler.reconcile({ namespace: 'garden', name: 'gone' }, ctx)).toBeUndefined();
  });
});
