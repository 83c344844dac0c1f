// The shoot flow's BackupEntry steps against the local API server with the core CRDs: "Deploying backup entry"
// creates the entry in the seed's BackupBucket (the seed's UID) with the reconcile request, the shoot's purpose and the
// Shoot as controller, and keeps the bucket of an existing entry; "Waiting until the backup entry has been reconciled"
// returns once the BackupEntry controller (played by the test) reported Succeeded for that request and fails with
// the entry's lastError; deleting the Shoot lets the garbage collector delete the entry (Gardener's delete path).
import { generatedCRDs } from '@gardener-ts/api';
import { ApiClient, isNotFound, type KubernetesObject } from '@gardener-ts/controller-runtime';
import { installCrds, loadCrds, startTestCluster, waitFor, type TestCluster } from '@gardener-ts/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleValues } from '../component/testdata/fixtures.js';
import type { ShootValues } from '../component/values.js';
import { backupBucketName, backupEntryNotReady, BackupEntrySteps } from './backupentry-steps.js';
import { Botanist } from './botanist.js';
import { ShootKind, type Shoot } from './kinds.js';
import { BackupEntryKind } from '../controller/backupentry/kinds.js';

const requested = '2026-11-29T12:00:00.400Z';
const entry = (annotations: Record<string, string>, status?: Record<string, unknown>) =>
  ({
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'BackupEntry',
    metadata: { name: 'e', namespace: 'garden-local', generation: 2, annotations },
    spec: { bucketName: 'b' },
    ...(status ? { status } : {}),
  }) as never;
const succeeded = (lastUpdateTime: string, observedGeneration = 2) => ({
  observedGeneration,
  lastOperation: { type: 'Reconcile', state: 'Succeeded', progress: 100, description: 'ok', lastUpdateTime },
});

describe('the BackupEntry steps', () => {
  it('name the bucket after the seed', () => {
    expect(backupBucketName(exampleValues().seed)).toBe('5f0c0f4e-1111-4e4e-9c9c-000000000001');
    expect(() => backupBucketName({ metadata: { name: 'x' } })).toThrow('seed x has no uid to name its BackupBucket');
  });

  it("wait for Gardener's CheckBackupEntry of the request", () => {
    const request = { 'gardener.cloud/timestamp': requested };
    const pending = { ...request, 'gardener.cloud/operation': 'reconcile' };
    expect(backupEntryNotReady(entry(pending, succeeded('2026-11-29T12:00:00Z')), requested)).toBe(
      'BackupEntry garden-local/e: the extension has not picked up the reconcile request yet',
    );
    expect(backupEntryNotReady(entry(request, succeeded('2026-11-29T12:00:00Z', 1)), requested)).toBe(
      'BackupEntry garden-local/e: observed generation 1 is behind generation 2',
    );
    expect(backupEntryNotReady(entry(request, succeeded('2026-11-29T11:59:59Z')), requested)).toBe(
      `BackupEntry garden-local/e: last operation was updated before the request at ${requested}`,
    );
    expect(
      backupEntryNotReady(
        entry(request, {
          observedGeneration: 2,
          lastOperation: { type: 'Reconcile', state: 'Error', description: 'bucket', lastUpdateTime: requested },
          lastError: { description: 'associated BackupBucket "b" does not exist' },
        }),
        requested,
      ),
    ).toBe(
      'BackupEntry garden-local/e: last operation Reconcile is Error: bucket (last error: associated BackupBucket "b" does not exist)',
    );
    expect(backupEntryNotReady(entry(request, succeeded('2026-11-29T12:00:00Z')), requested)).toBeUndefined();
  });

  describe('in a garden', () => {
    let cluster: TestCluster;
    let client: ApiClient;
    let values: ShootValues;
    const wait = { interval: 50, timeout: 5_000 };
    const entryKey = () => ({ namespace: 'garden-local', name: `shoot--local--local--${values.shoot.metadata!.uid}` });

    /** What the gardenlet's BackupEntry controller writes once the extension reconciled the entry. */
    async function reconcileAsController(): Promise<void> {
      const current = await client.get(BackupEntryKind, entryKey());
      await client.patch(
        BackupEntryKind,
        entryKey(),
        {
          type: 'merge',
          patch: { status: succeeded(new Date(Date.now() + 1000).toISOString(), current.metadata!.generation) },
        },
        { subresource: 'status' },
      );
      await client.patch(BackupEntryKind, entryKey(), {
        type: 'merge',
        patch: { metadata: { annotations: { 'gardener.cloud/operation': null } } },
      });
    }

    beforeAll(async () => {
      cluster = await startTestCluster();
      const { KubeConfig } = await import('@kubernetes/client-node');
      const kc = new KubeConfig();
      kc.loadFromFile(cluster.kubeconfigPath);
      await installCrds(kc, await loadCrds(generatedCRDs()));
      client = await ApiClient.create(cluster.kubeconfigPath);
      await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'garden-local' } });
      const example = exampleValues((s) => (s.spec.purpose = 'production'));
      const { uid: _uid, ...metadata } = example.shoot.metadata!;
      const shoot = await client.create({ ...example.shoot, metadata } as Shoot);
      values = { ...example, shoot };
    }, 60_000);
    afterAll(async () => {
      client?.close();
      await cluster?.stop();
    });

    it('create the entry in the seed bucket and wait until it is reconciled for this request', async () => {
      const steps = new BackupEntrySteps(client, values, { wait });
      await steps.deploy();
      const created = await client.get(BackupEntryKind, entryKey());
      expect(created.spec).toEqual({ bucketName: '5f0c0f4e-1111-4e4e-9c9c-000000000001', seedName: 'local' });
      expect(created.metadata?.annotations).toMatchObject({
        'gardener.cloud/operation': 'reconcile',
        'shoot.gardener.cloud/purpose': 'production',
      });
      expect(created.metadata?.ownerReferences).toEqual([
        {
          apiVersion: 'core.gardener.cloud/v1beta1',
          kind: 'Shoot',
          name: 'local',
          uid: values.shoot.metadata!.uid,
          blockOwnerDeletion: false,
          controller: true,
        },
      ]);
      const waiting = steps.wait(new AbortController().signal);
      let settled = false;
      void waiting.then(() => (settled = true));
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(settled).toBe(false);
      await reconcileAsController();
      await waiting;
    });

    it('keep the bucket of an existing entry and fail with its lastError', async () => {
      const moved = { ...values, seed: { ...values.seed, metadata: { ...values.seed.metadata, uid: 'another-uid' } } };
      const steps = new BackupEntrySteps(client, moved, { wait: { interval: 50, timeout: 1_000 } });
      await steps.deploy();
      const updated = await client.get(BackupEntryKind, entryKey());
      expect(updated.spec.bucketName).toBe('5f0c0f4e-1111-4e4e-9c9c-000000000001');
      expect(updated.metadata?.annotations?.['gardener.cloud/operation']).toBe('reconcile');
      await client.patch(
        BackupEntryKind,
        entryKey(),
        {
          type: 'merge',
          patch: {
            status: {
              lastOperation: {
                type: 'Reconcile',
                state: 'Error',
                progress: 50,
                description: 'x',
                lastUpdateTime: new Date().toISOString(),
              },
              lastError: { description: 'associated BackupBucket "5f0c0f4e" does not exist' },
            },
          },
        },
        { subresource: 'status' },
      );
      await expect(steps.wait(new AbortController().signal)).rejects.toThrow(
        'last error: associated BackupBucket "5f0c0f4e" does not exist',
      );
    });

    it('are the steps of the botanist when the seed has backup, and run through it', async () => {
      const botanist = new Botanist(client, client, values, { backupEntryWait: wait });
      const steps = botanist.reconcileSteps();
      expect(typeof steps.deployBackupEntry).toBe('function');
      const noBackup = new Botanist(client, client, {
        ...values,
        seed: { ...values.seed, spec: { ...values.seed.spec, backup: undefined } },
      });
      expect(noBackup.reconcileSteps().deployBackupEntry).toBeUndefined();
      const signal = new AbortController().signal;
      await (steps.deployBackupEntry as (s: AbortSignal) => Promise<void>)(signal);
      expect((await client.get(BackupEntryKind, entryKey())).metadata?.annotations?.['gardener.cloud/operation']).toBe(
        'reconcile',
      );
      const waiting = (steps.waitForBackupEntry as (s: AbortSignal) => Promise<void>)(signal);
      await reconcileAsController();
      await waiting;
    });

    it('is deleted by the garbage collector after its Shoot, which starts its grace period', async () => {
      await client.delete(ShootKind, { namespace: 'garden-local', name: 'local' });
      await waitFor('the BackupEntry deleted', () =>
        client
          .get(BackupEntryKind, entryKey())
          .then((e: KubernetesObject) => (e.metadata?.deletionTimestamp ? true : undefined))
          .catch((err: unknown) => (isNotFound(err) ? true : Promise.reject(err))),
      );
    });
  });
});
