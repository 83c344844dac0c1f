// The seed's BackupBucket: rendered from `spec.backup` (pure), and written by the seed reconciler into a garden served
// by the local API server — created after the flow, updated when the backup changes, deleted when it is removed.
// Then the Seed's deletion on that cluster, which is garden and seed at once: it waits for a BackupBucket bound to the
// seed, deletes the machine CRDs and the PriorityClasses, keeps what the garden needs, and the Seed goes.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedCRDs } from '@gardener-ts/api';
import { ApiClient, isNotFound, Kinds } from '@gardener-ts/controller-runtime';
import { installCrds, loadCrds, startTestCluster, workspaceRoot, type TestCluster } from '@gardener-ts/testing';
import { exampleSeed } from '../../component/testdata/fixtures.js';
import { SeedKind, type Seed } from '../../seed-kind.js';
import { BackupBucketKind } from '../backupbucket/kinds.js';
import { controlledBySeed, renderSeedBackupBucket } from './backup-bucket.js';
import type { SeedSystem } from './flow.js';
import { SeedReconciler } from './reconciler.js';
import { ClusterSeedSystem } from './seed-system.js';

describe("the seed's BackupBucket", () => {
  it("is named after the seed's UID, controlled by the Seed, with spec.backup and the seed's region", () => {
    const seed = exampleSeed((s) => {
      delete s.spec.backup!.region;
      s.spec.provider.region = 'eu-1';
      s.spec.backup!.providerConfig = { apiVersion: 'local.provider.extensions.gardener.cloud/v1alpha1' };
    });
    const bucket = renderSeedBackupBucket(seed)!;
    expect(bucket).toEqual({
      apiVersion: 'core.gardener.cloud/v1beta1',
      kind: 'BackupBucket',
      metadata: {
        name: '5f0c0f4e-1111-4e4e-9c9c-000000000001',
        annotations: { 'gardener.cloud/operation': 'reconcile' },
        ownerReferences: [
          {
            apiVersion: 'core.gardener.cloud/v1beta1',
            kind: 'Seed',
            name: 'local',
            uid: '5f0c0f4e-1111-4e4e-9c9c-000000000001',
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      },
      spec: {
        provider: { type: 'local', region: 'eu-1' },
        providerConfig: { apiVersion: 'local.provider.extensions.gardener.cloud/v1alpha1' },
        credentialsRef: { apiVersion: 'v1', kind: 'Secret', name: 'backup-local', namespace: 'garden' },
        seedName: 'local',
      },
    });
    expect(renderSeedBackupBucket(exampleSeed())!.spec.provider.region).toBe('local');
    expect(renderSeedBackupBucket(exampleSeed((s) => delete s.spec.backup))).toBeUndefined();
    expect(controlledBySeed(bucket, seed)).toBe(true);
    expect(
      controlledBySeed(
        bucket,
        exampleSeed((s) => (s.metadata!.uid = 'other')),
      ),
    ).toBe(false);
  });

  describe('written by the seed reconciler', () => {
    let cluster: TestCluster;
    let garden: ApiClient;
    const system: SeedSystem = {
      kubernetesVersion: async () => 'v1.33.0',
      apply: async () => undefined,
      crds: async () => [],
      checkEstablished: async () => undefined,
      resourceManager: async () => [],
      isGarden: async () => false,
      delete: async () => undefined,
      checkGone: async () => undefined,
      seedManagedResources: async () => [],
    };
    const reconcile = () =>
      new SeedReconciler({
        garden,
        system,
        gardener: { id: 'id', name: 'gardenlet', version: '1.0.0' },
        syncPeriodMs: 60_000,
      }).reconcile({ namespace: '', name: 'local' });

    beforeAll(async () => {
      cluster = await startTestCluster();
      const { KubeConfig } = await import('@kubernetes/client-node');
      const kc = new KubeConfig();
      kc.loadFromFile(cluster.kubeconfigPath);
      await installCrds(kc, await loadCrds(generatedCRDs()));
      garden = await ApiClient.create(cluster.kubeconfigPath);
      const seed = exampleSeed();
      delete seed.metadata!.uid;
      await garden.create(seed);
    }, 60_000);
    afterAll(async () => {
      garden?.close();
      await cluster?.stop();
    });

    it('creates the BackupBucket for spec.backup, updates it, and deletes it when the backup is removed', async () => {
      expect(await reconcile()).toEqual({ requeueAfter: 60_000 });
      const seed = (await garden.get(SeedKind, { name: 'local' })) as Seed;
      const uid = seed.metadata!.uid!;
      const bucket = await garden.get(BackupBucketKind, { name: uid });
      expect(bucket.spec).toEqual({
        provider: { type: 'local', region: 'local' },
        credentialsRef: { apiVersion: 'v1', kind: 'Secret', name: 'backup-local', namespace: 'garden' },
        seedName: 'local',
      });
      expect(bucket.metadata?.ownerReferences).toEqual([
        {
          apiVersion: 'core.gardener.cloud/v1beta1',
          kind: 'Seed',
          name: 'local',
          uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ]);
      expect(bucket.metadata?.annotations?.['gardener.cloud/operation']).toBe('reconcile');

      // New credentials and a providerConfig reach the bucket; a later removal of the providerConfig too.
      const credentialsRef = { apiVersion: 'v1', kind: 'Secret', name: 'backup-rotated', namespace: 'garden' };
      const providerConfig = { apiVersion: 'local.provider.extensions.gardener.cloud/v1alpha1', kind: 'Config' };
      await garden.patch(
        SeedKind,
        { name: 'local' },
        {
          type: 'merge',
          patch: { spec: { backup: { credentialsRef, providerConfig } } },
        },
      );
      await reconcile();
      expect((await garden.get(BackupBucketKind, { name: uid })).spec).toMatchObject({
        credentialsRef,
        providerConfig,
      });
      await garden.patch(
        SeedKind,
        { name: 'local' },
        {
          type: 'merge',
          patch: { spec: { backup: { providerConfig: null } } },
        },
      );
      await reconcile();
      expect((await garden.get(BackupBucketKind, { name: uid })).spec).not.toHaveProperty('providerConfig');

      await garden.patch(SeedKind, { name: 'local' }, { type: 'merge', patch: { spec: { backup: null } } });
      await reconcile();
      await expect(garden.get(BackupBucketKind, { name: uid })).rejects.toSatisfy(isNotFound);
    });

    it('deletes the Seed once no BackupBucket is bound to it, keeping what the garden needs', async () => {
      // The real seed system on the same cluster; gardener-resource-manager is not rendered (no helm here).
      const cluster = new ClusterSeedSystem({
        seed: garden,
        crdDirs: [join(workspaceRoot(), 'deploy/gardener/crds')],
        helm: { render: async () => [] } as never,
      });
      const seedReconciler = new SeedReconciler({
        garden,
        system: cluster,
        gardener: { id: 'id', name: 'gardenlet', version: '1.0.0' },
        syncPeriodMs: 60_000,
        deleteWaitTimeoutMs: 10_000,
      });
      const run = () => seedReconciler.reconcile({ namespace: '', name: 'local' });
      expect(await run()).toEqual({ requeueAfter: 60_000 });
      expect((await garden.get(SeedKind, { name: 'local' })).metadata?.finalizers).toEqual(['gardener']);
      await garden.get(Kinds.CustomResourceDefinition, { name: 'machines.machine.sapcloud.io' });

      await garden.create({
        apiVersion: 'core.gardener.cloud/v1beta1',
        kind: 'BackupBucket',
        metadata: { name: 'bound-to-local' },
        spec: {
          provider: { type: 'local', region: 'local' },
          credentialsRef: { apiVersion: 'v1', kind: 'Secret', name: 'backup-local', namespace: 'garden' },
          seedName: 'local',
        },
      });
      await garden.delete(SeedKind, { name: 'local' });
      expect(await run()).toEqual({ requeueAfter: 5_000 });
      const deleting = await garden.get(SeedKind, { name: 'local' });
      expect(deleting.status?.lastOperation).toMatchObject({ type: 'Delete', state: 'Processing' });

      await garden.delete(BackupBucketKind, { name: 'bound-to-local' });
      expect(await run()).toBeUndefined();
      await expect(garden.get(SeedKind, { name: 'local' })).rejects.toSatisfy(isNotFound);
      await expect(
        garden.get(Kinds.CustomResourceDefinition, { name: 'machines.machine.sapcloud.io' }),
      ).rejects.toSatisfy(isNotFound);
      await expect(garden.get(Kinds.PriorityClass, { name: 'gardener-system-critical' })).rejects.toSatisfy(isNotFound);
      // The cluster is the garden: its extension CRDs and the namespace garden stay.
      await garden.get(Kinds.CustomResourceDefinition, { name: 'workers.extensions.gardener.cloud' });
      await garden.get(Kinds.Namespace, { name: 'garden' });
    }, 30_000);
  });
});
