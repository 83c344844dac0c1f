// The BackupBucket controller against two local API servers: a garden with the core CRDs and a seed with Gardener's
// extension BackupBucket CRD, the extension played by the test (as component/testdata/fake-extension.ts does). A core
// bucket whose credentials are a `stringData` Secret gets them copied into the seed and an extension BackupBucket,
// turns Succeeded when the extension does, gets the extension's generated Secret copied back, shows the extension's
// failure as its lastError, and on deletion removes everything in Gardener's order and releases its finalizers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedCRDs } from '@gardener-ts/api';
import { isNotFound, Kinds, type ApiClient, type KubernetesObject } from '@gardener-ts/controller-runtime';
import { gardenerAsset, waitFor } from '@gardener-ts/testing';
import { startGardenAndSeed, type GardenAndSeed } from '../../../test/support/garden-and-seed.js';
import { fakeExtension } from '../../component/testdata/fake-extension.js';
import { addBackupBucketController } from './add.js';
import { BackupBucketKind, ExtensionBackupBucketKind, type CoreBackupBucket } from './kinds.js';

let clusters: GardenAndSeed;
let garden: ApiClient;
let seed: ApiClient;

const b64 = (s: string) => Buffer.from(s).toString('base64');
const secretKey = (name: string) => ({ namespace: 'garden', name });
const gone = (read: Promise<unknown>) => read.then(() => false).catch((err: unknown) => isNotFound(err));
const coreBucket = (name: string, credentials: string): CoreBackupBucket =>
  ({
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'BackupBucket',
    metadata: { name },
    spec: {
      provider: { type: 'local', region: 'local' },
      providerConfig: { apiVersion: 'local.provider.extensions.gardener.cloud/v1alpha1', kind: 'BackupBucketConfig' },
      credentialsRef: { apiVersion: 'v1', kind: 'Secret', name: credentials, namespace: 'garden' },
      seedName: 'local',
    },
  }) as CoreBackupBucket;
const lastOperation = (state: string, seconds: number) => ({
  type: 'Create',
  state,
  progress: state === 'Succeeded' ? 100 : 50,
  description: state,
  // Later than the gardenlet's request, also when the clock moves in whole seconds.
  lastUpdateTime: new Date(Date.now() + seconds * 1000).toISOString().replace(/\.\d+Z$/, 'Z'),
});
/** Writes the extension's status (the extension's part after it acted). */
async function extensionStatus(name: string, status: Record<string, unknown>) {
  await seed.patch(
    ExtensionBackupBucketKind,
    { name },
    { type: 'merge', patch: { status } },
    { subresource: 'status' },
  );
}
const statusOf = async (name: string) => (await garden.get(BackupBucketKind, { name })).status;

beforeAll(async () => {
  clusters = await startGardenAndSeed({
    garden: { crds: generatedCRDs(), namespaces: ['garden'] },
    seed: {
      crds: [gardenerAsset('crds', '10-crd-extensions.gardener.cloud_backupbuckets.yaml')],
      namespaces: ['garden'],
    },
  });
  garden = clusters.garden.client;
  seed = clusters.seed.client;
  await clusters.startManager((mgr) =>
    addBackupBucketController(mgr, {
      seedName: 'local',
      gardenCluster: 'garden',
      seedCluster: 'seed',
      concurrentSyncs: 2,
    }),
  );
}, 60_000);

afterAll(() => clusters?.stop());

describe('the BackupBucket controller', { timeout: 60_000 }, () => {
  const name = '5f0c0f4e-1111-4e4e-9c9c-000000000001';
  const ref = { kind: 'BackupBucket', name };

  it('copies the credentials into the seed and asks the extension for the bucket', async () => {
    await garden.create({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'backup-local', namespace: 'garden' },
      stringData: { accessKey: 'AKIA-local', secretKey: 's3cr3t' },
    } as KubernetesObject);
    // A bucket of another seed is left alone.
    await garden.create({
      ...coreBucket('elsewhere', 'backup-local'),
      spec: { ...coreBucket('x', 'y').spec, seedName: 'b' },
    });
    await garden.create(coreBucket(name, 'backup-local'));

    const extension = await waitFor('the extension BackupBucket', () =>
      seed.get(ExtensionBackupBucketKind, { name }).catch(() => undefined),
    );
    expect(extension.metadata?.annotations?.['gardener.cloud/operation']).toBe('reconcile');
    expect(Date.parse(extension.metadata!.annotations!['gardener.cloud/timestamp']!)).toBeGreaterThan(0);
    expect(extension.spec).toEqual({
      type: 'local',
      region: 'local',
      providerConfig: { apiVersion: 'local.provider.extensions.gardener.cloud/v1alpha1', kind: 'BackupBucketConfig' },
      secretRef: { name: `bucket-${name}`, namespace: 'garden' },
    });
    const copied = (await seed.get(Kinds.Secret, secretKey(`bucket-${name}`))) as KubernetesObject & {
      data?: Record<string, string>;
    };
    expect(copied.data).toEqual({ accessKey: b64('AKIA-local'), secretKey: b64('s3cr3t') });
    expect(copied.metadata?.annotations?.['gardener.cloud/timestamp']).toBeDefined();

    const bucket = await garden.get(BackupBucketKind, { name });
    expect(bucket.metadata?.finalizers).toEqual(['gardener']);
    expect(bucket.status?.lastOperation).toMatchObject({ type: 'Create', state: 'Processing' });
    expect((await garden.get(Kinds.Secret, secretKey('backup-local'))).metadata?.finalizers).toEqual([
      'gardener.cloud/gardener',
    ]);
    expect(await gone(seed.get(ExtensionBackupBucketKind, { name: 'elsewhere' }))).toBe(true);
    expect((await garden.get(BackupBucketKind, { name: 'elsewhere' })).metadata?.finalizers).toBeUndefined();
  });

  it('turns Succeeded when the extension does, with its generated Secret and providerStatus', async () => {
    await fakeExtension(seed).handle(ref);
    const succeeded = await waitFor('the core bucket Succeeded', async () => {
      const status = await statusOf(name);
      return status?.lastOperation?.state === 'Succeeded' ? status : undefined;
    });
    expect(succeeded).toMatchObject({
      lastOperation: { type: 'Create', progress: 100, description: 'Backup Bucket has been successfully reconciled.' },
      observedGeneration: 1,
    });
    expect(succeeded.generatedSecretRef).toBeUndefined();

    // The extension reports a generated Secret (provider-local: `generated-bucket-<name>` in the seed).
    await seed.create({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: `generated-bucket-${name}`, namespace: 'garden' },
      stringData: { bucketName: name },
    } as KubernetesObject);
    await extensionStatus(name, {
      lastOperation: lastOperation('Succeeded', 2),
      generatedSecretRef: { name: `generated-bucket-${name}`, namespace: 'garden' },
      providerStatus: { apiVersion: 'local.provider.extensions.gardener.cloud/v1alpha1', kind: 'BucketStatus' },
    });
    const status = await waitFor('the generated Secret reference', async () => {
      const s = await statusOf(name);
      return s?.generatedSecretRef && s.providerStatus ? s : undefined;
    });
    expect(status.generatedSecretRef).toEqual({ name: `generated-bucket-${name}`, namespace: 'garden' });
    expect(status.providerStatus).toEqual({
      apiVersion: 'local.provider.extensions.gardener.cloud/v1alpha1',
      kind: 'BucketStatus',
    });
    const generated = await waitFor('the generated Secret in the garden', () =>
      garden.get(Kinds.Secret, secretKey(`generated-bucket-${name}`)).catch(() => undefined),
    );
    const bucket = await garden.get(BackupBucketKind, { name });
    expect((generated as { data?: Record<string, string> }).data).toEqual({ bucketName: b64(name) });
    expect(generated.metadata?.finalizers).toEqual(['core.gardener.cloud/backupbucket']);
    expect(generated.metadata?.ownerReferences).toEqual([
      {
        apiVersion: 'core.gardener.cloud/v1beta1',
        kind: 'BackupBucket',
        name,
        uid: bucket.metadata?.uid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
  });

  it("shows the extension's failure as the bucket's lastError, and clears it when the extension recovers", async () => {
    await extensionStatus(name, {
      lastOperation: lastOperation('Error', 3),
      lastError: { description: 'AccessDenied: not allowed to create the bucket', codes: ['ERR_INFRA_UNAUTHORIZED'] },
    });
    const failed = await waitFor('the core bucket in Error', async () => {
      const s = await statusOf(name);
      return s?.lastOperation?.state === 'Error' ? s : undefined;
    });
    expect(failed.lastError).toMatchObject({
      description: `extension BackupBucket ${name}: error during reconciliation: AccessDenied: not allowed to create the bucket`,
      codes: ['ERR_INFRA_UNAUTHORIZED'],
    });
    expect(failed.lastOperation).toMatchObject({ progress: 50, description: failed.lastError?.description });

    await extensionStatus(name, { lastOperation: lastOperation('Succeeded', 4), lastError: null });
    const recovered = await waitFor('the core bucket Succeeded again', async () => {
      const s = await statusOf(name);
      return s?.lastOperation?.state === 'Succeeded' ? s : undefined;
    });
    expect(recovered.lastError).toBeUndefined();
  });

  it('reports credentials that cannot be read as lastError naming spec.credentialsRef', async () => {
    await garden.create(coreBucket('no-credentials', 'missing'));
    const status = await waitFor('the lastError', async () => (await statusOf('no-credentials'))?.lastError);
    expect(status.description).toBe(
      'BackupBucket no-credentials: Secret garden/missing of spec.credentialsRef not found',
    );
    expect(await gone(seed.get(ExtensionBackupBucketKind, { name: 'no-credentials' }))).toBe(true);
  });

  it("deletes in Gardener's order: generated Secret, extension bucket, seed Secret, finalizers", async () => {
    await garden.delete(BackupBucketKind, { name });
    // The extension BackupBucket is deleted, confirmed; the garden's generated Secret is gone before it.
    const deleting = await waitFor('the extension BackupBucket being deleted', async () => {
      const e = await seed.get(ExtensionBackupBucketKind, { name });
      return e.metadata?.deletionTimestamp ? e : undefined;
    });
    expect(deleting.metadata?.annotations?.['confirmation.gardener.cloud/deletion']).toBe('true');
    expect(await gone(garden.get(Kinds.Secret, secretKey(`generated-bucket-${name}`)))).toBe(true);
    // While the extension works, the credentials stay in the seed and every finalizer in the garden stays.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await gone(seed.get(Kinds.Secret, secretKey(`bucket-${name}`)))).toBe(false);
    expect((await garden.get(BackupBucketKind, { name })).metadata?.finalizers).toEqual(['gardener']);
    expect((await garden.get(BackupBucketKind, { name })).status?.lastOperation).toMatchObject({
      type: 'Delete',
      state: 'Processing',
    });

    await fakeExtension(seed).release(ref);
    await waitFor('the core bucket gone', () => gone(garden.get(BackupBucketKind, { name })));
    expect(await gone(seed.get(Kinds.Secret, secretKey(`bucket-${name}`)))).toBe(true);
    expect((await garden.get(Kinds.Secret, secretKey('backup-local'))).metadata?.finalizers ?? []).toEqual([]);
  });
});
