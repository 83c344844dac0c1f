// The BackupEntry controller against two local API servers: a garden with the core CRDs and a seed with Gardener's
// extension BackupEntry CRD, the extension played by the test (component/testdata/fake-extension.ts). A core entry
// whose BackupBucket is missing or not reconciled shows that as its lastError; once the bucket (created by the test,
// Succeeded with a generated secret) is ready, the bucket's generated credentials land in the seed as
// `garden/entry-<name>` next to the extension BackupEntry, and the entry turns Succeeded when the extension does. The
// grace period is one hour for `production` shoots only: an `evaluation` entry is deleted at once (extension entry
// deleted with confirmation and waited for, Secret, finalizer); a `production` one is Pending until it is forced.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedCRDs } from '@gardener-ts/api';
import { ApiClient, isNotFound, Kinds, Manager, type KubernetesObject } from '@gardener-ts/controller-runtime';
import {
  gardenerAsset,
  installCrds,
  loadCrds,
  startTestCluster,
  waitFor,
  type TestCluster,
} from '@gardener-ts/testing';
import { fakeExtension } from '../../component/testdata/fake-extension.js';
import { addBackupEntryController } from './add.js';
import { BackupBucketKind, BackupEntryKind, ExtensionBackupEntryKind, type BackupEntry } from './kinds.js';

let gardenCluster: TestCluster;
let seedCluster: TestCluster;
let garden: ApiClient;
let seed: ApiClient;
let mgr: Manager;

const PROJECT = 'garden-p';
const BUCKET = '5f0c0f4e-1111-4e4e-9c9c-000000000001';
const b64 = (s: string) => Buffer.from(s).toString('base64');
const gone = (read: Promise<unknown>) => read.then(() => false).catch((err: unknown) => isNotFound(err));
const coreEntry = (name: string, purpose: string): BackupEntry => ({
  apiVersion: 'core.gardener.cloud/v1beta1',
  kind: 'BackupEntry',
  metadata: { name, namespace: PROJECT, annotations: { 'shoot.gardener.cloud/purpose': purpose } },
  spec: { bucketName: BUCKET, seedName: 'local' },
});
const entryOf = (name: string) => garden.get(BackupEntryKind, { namespace: PROJECT, name });
const extensionRef = (name: string) => ({ kind: 'BackupEntry', name });

async function startCluster(crds: Parameters<typeof loadCrds>[0], namespaces: string[]) {
  const cluster = await startTestCluster();
  const { KubeConfig } = await import('@kubernetes/client-node');
  const kc = new KubeConfig();
  kc.loadFromFile(cluster.kubeconfigPath);
  await installCrds(kc, await loadCrds(crds));
  const client = await ApiClient.create(cluster.kubeconfigPath);
  for (const name of namespaces) await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  return [cluster, client] as const;
}

/** Creates the entry and waits until the (fake) extension reconciled it and the entry is Succeeded. */
async function reconciled(name: string, purpose: string): Promise<void> {
  await garden.create(coreEntry(name, purpose));
  await waitFor(`extension BackupEntry ${name}`, () =>
    seed.get(ExtensionBackupEntryKind, { name }).catch(() => undefined),
  );
  await fakeExtension(seed).handle(extensionRef(name));
  await waitFor(`BackupEntry ${name} Succeeded`, async () =>
    (await entryOf(name)).status?.lastOperation?.state === 'Succeeded' ? true : undefined,
  );
}

beforeAll(async () => {
  [gardenCluster, garden] = await startCluster(generatedCRDs(), ['garden', PROJECT]);
  [seedCluster, seed] = await startCluster(
    [gardenerAsset('crds', '10-crd-extensions.gardener.cloud_backupentries.yaml')],
    ['garden'],
  );
  mgr = await Manager.create({
    clusters: {
      garden: { kubeConfig: gardenCluster.kubeconfigPath },
      seed: { kubeConfig: seedCluster.kubeconfigPath },
    },
    gracefulShutdownTimeoutMs: 0,
  });
  addBackupEntryController(mgr, {
    seedName: 'local',
    gardenCluster: 'garden',
    seedCluster: 'seed',
    concurrentSyncs: 2,
    config: { deletionGracePeriodHours: 1, deletionGracePeriodShootPurposes: ['production'] },
  });
  await mgr.start();
}, 60_000);

afterAll(async () => {
  await mgr?.stop();
  garden?.close();
  seed?.close();
  await seedCluster?.stop();
  await gardenCluster?.stop();
});

describe('the BackupEntry controller', { timeout: 60_000 }, () => {
  const name = 'shoot--p--dev--0d5b5b84-2222-4a4a-8b8b-000000000002';

  it('names the missing BackupBucket in lastError, then the one not reconciled yet', async () => {
    await garden.create(coreEntry(name, 'evaluation'));
    const missing = await waitFor(
      'lastError of the missing bucket',
      async () => (await entryOf(name)).status?.lastError,
    );
    expect(missing.description).toBe(`associated BackupBucket "${BUCKET}" does not exist`);
    const entry = await entryOf(name);
    expect(entry.metadata?.finalizers).toEqual(['gardener']);
    expect(entry.status?.lastOperation).toMatchObject({ type: 'Create', state: 'Error', progress: 50 });
    expect(entry.status?.seedName).toBe('local');

    await garden.create({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'backup-local', namespace: 'garden' },
      data: { accessKey: b64('static') },
    } as KubernetesObject);
    await garden.create({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: `generated-bucket-${BUCKET}`, namespace: 'garden' },
      data: { bucketName: b64(BUCKET), accessKey: b64('generated') },
    } as KubernetesObject);
    await garden.create({
      apiVersion: 'core.gardener.cloud/v1beta1',
      kind: 'BackupBucket',
      metadata: { name: BUCKET },
      spec: {
        provider: { type: 'local', region: 'local' },
        credentialsRef: { apiVersion: 'v1', kind: 'Secret', name: 'backup-local', namespace: 'garden' },
        seedName: 'local',
      },
    });
    await garden.patch(
      BackupBucketKind,
      { name: BUCKET },
      {
        type: 'merge',
        patch: {
          status: {
            observedGeneration: 1,
            lastOperation: {
              type: 'Create',
              state: 'Processing',
              progress: 10,
              description: 'creating',
              lastUpdateTime: '2026-11-29T12:00:00Z',
            },
          },
        },
      },
      { subresource: 'status' },
    );
    await waitFor('lastError of the bucket in progress', async () =>
      (await entryOf(name)).status?.lastError?.description ===
      `associated BackupBucket "${BUCKET}": state is not Succeeded but Processing`
        ? true
        : undefined,
    );
  });

  it("copies the bucket's generated secret into the seed, deploys the extension entry and mirrors its success", async () => {
    await garden.patch(
      BackupBucketKind,
      { name: BUCKET },
      {
        type: 'merge',
        patch: {
          status: {
            lastOperation: {
              type: 'Create',
              state: 'Succeeded',
              progress: 100,
              description: 'done',
              lastUpdateTime: '2026-11-29T12:00:01Z',
            },
            generatedSecretRef: { name: `generated-bucket-${BUCKET}`, namespace: 'garden' },
            providerStatus: {
              apiVersion: 'local.provider.extensions.gardener.cloud/v1alpha1',
              kind: 'BackupBucketStatus',
            },
          },
        },
      },
      { subresource: 'status' },
    );
    const extension = await waitFor('the extension BackupEntry', () =>
      seed.get(ExtensionBackupEntryKind, { name }).catch(() => undefined),
    );
    expect(extension.metadata?.annotations?.['gardener.cloud/operation']).toBe('reconcile');
    expect(extension.spec).toEqual({
      type: 'local',
      region: 'local',
      bucketName: BUCKET,
      secretRef: { name: `entry-${name}`, namespace: 'garden' },
      backupBucketProviderStatus: {
        apiVersion: 'local.provider.extensions.gardener.cloud/v1alpha1',
        kind: 'BackupBucketStatus',
      },
    });
    const secret = await seed.get(Kinds.Secret, { namespace: 'garden', name: `entry-${name}` });
    expect(secret.data).toEqual({ bucketName: b64(BUCKET), accessKey: b64('generated') });
    expect(Date.parse(secret.metadata!.annotations!['gardener.cloud/timestamp']!)).toBeGreaterThan(0);
    // Not Succeeded before the extension is.
    expect((await entryOf(name)).status?.lastOperation?.state).not.toBe('Succeeded');

    await fakeExtension(seed).handle(extensionRef(name));
    const entry = await waitFor('the entry Succeeded', async () => {
      const e = await entryOf(name);
      return e.status?.lastOperation?.state === 'Succeeded' ? e : undefined;
    });
    // Create, or Reconcile when another event (the extension's status, the bucket) came after the first success.
    expect(['Create', 'Reconcile']).toContain(entry.status?.lastOperation?.type);
    expect(entry.status?.lastOperation).toMatchObject({
      progress: 100,
      description: 'Reconciliation of BackupEntry succeeded.',
    });
    expect(entry.status?.lastError).toBeUndefined();
    expect(entry.status?.observedGeneration).toBe(entry.metadata?.generation);
  });

  it("mirrors the extension's error with its codes", async () => {
    await seed.patch(
      ExtensionBackupEntryKind,
      { name },
      {
        type: 'merge',
        patch: {
          status: {
            lastOperation: {
              type: 'Reconcile',
              state: 'Error',
              progress: 50,
              description: 'x',
              lastUpdateTime: new Date(Date.now() + 2000).toISOString().replace(/\.\d+Z$/, 'Z'),
            },
            lastError: { description: 'access denied', codes: ['ERR_INFRA_UNAUTHORIZED'] },
          },
        },
      },
      { subresource: 'status' },
    );
    const lastError = await waitFor('the mirrored error', async () => {
      const e = (await entryOf(name)).status?.lastError;
      return e?.description === 'error during reconciliation: access denied' ? e : undefined;
    });
    expect(lastError.codes).toEqual(['ERR_INFRA_UNAUTHORIZED']);
    await fakeExtension(seed).handle(extensionRef(name));
    await waitFor('the entry Succeeded again', async () =>
      (await entryOf(name)).status?.lastOperation?.state === 'Succeeded' ? true : undefined,
    );
  });

  it('deletes an entry without grace period at once: extension entry (confirmed), Secret, finalizer', async () => {
    await garden.delete(BackupEntryKind, { namespace: PROJECT, name });
    const deleting = await waitFor('the extension BackupEntry deleted', async () => {
      const e = await seed.get(ExtensionBackupEntryKind, { name });
      return e.metadata?.deletionTimestamp ? e : undefined;
    });
    expect(deleting.metadata?.annotations?.['confirmation.gardener.cloud/deletion']).toBe('true');
    // The entry waits for the extension.
    expect((await entryOf(name)).metadata?.finalizers).toEqual(['gardener']);
    expect(await gone(seed.get(Kinds.Secret, { namespace: 'garden', name: `entry-${name}` }))).toBe(false);

    await fakeExtension(seed).release(extensionRef(name));
    await waitFor('the core entry gone', async () => ((await gone(entryOf(name))) ? true : undefined));
    expect(await gone(seed.get(ExtensionBackupEntryKind, { name }))).toBe(true);
    expect(await gone(seed.get(Kinds.Secret, { namespace: 'garden', name: `entry-${name}` }))).toBe(true);
  });

  it('keeps the backups of a production shoot for the grace period, unless forced', async () => {
    const prod = 'shoot--p--prod--0d5b5b84-2222-4a4a-8b8b-000000000003';
    await reconciled(prod, 'production');
    await garden.delete(BackupEntryKind, { namespace: PROJECT, name: prod });
    const pending = await waitFor('the deletion Pending', async () => {
      const e = await entryOf(prod);
      return e.status?.lastOperation?.state === 'Pending' ? e : undefined;
    });
    const due = new Date(Date.parse(pending.metadata!.deletionTimestamp!) + 3_600_000).toISOString();
    expect(pending.status?.lastOperation).toMatchObject({
      type: 'Delete',
      description: `Deletion of backup entry is scheduled for ${due}`,
    });
    expect((await seed.get(ExtensionBackupEntryKind, { name: prod })).metadata?.deletionTimestamp).toBeUndefined();

    await garden.patch(
      BackupEntryKind,
      { namespace: PROJECT, name: prod },
      {
        type: 'merge',
        patch: { metadata: { annotations: { 'backupentry.core.gardener.cloud/force-deletion': 'true' } } },
      },
    );
    await waitFor('the extension BackupEntry deleted', async () =>
      (await seed.get(ExtensionBackupEntryKind, { name: prod })).metadata?.deletionTimestamp ? true : undefined,
    );
    await fakeExtension(seed).release(extensionRef(prod));
    await waitFor('the core entry gone', async () => ((await gone(entryOf(prod))) ? true : undefined));
  });
});
