// provider-local's BackupBucket and BackupEntry controllers through the extension SDK against the local API server: a
// bucket is a host directory with an (empty) generated Secret, an entry a directory in it and the shoot's
// `etcd-backup` Secret; deletions remove them.
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, Kinds, Manager, isNotFound, kind } from '@gardener-ts/controller-runtime';
import type { ExtensionObject } from '@gardener-ts/extensions';
import { extensionResource } from '@gardener-ts/extensions/testing';
import { gardenerAsset, startTestEnvironment, waitFor, type TestEnvironment } from '@gardener-ts/testing';
import { addProviderLocalControllers } from '../src/controller/add.js';

const crd = (plural: string) => gardenerAsset('crds', `10-crd-extensions.gardener.cloud_${plural}.yaml`);
const BackupBucketKind = kind<ExtensionObject>('extensions.gardener.cloud/v1alpha1', 'BackupBucket');
const BackupEntryKind = kind<ExtensionObject>('extensions.gardener.cloud/v1alpha1', 'BackupEntry');

let env: TestEnvironment;
let client: ApiClient;
let mgr: Manager;
let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'backupbuckets-'));
  env = await startTestEnvironment({ crds: [crd('clusters'), crd('backupbuckets'), crd('backupentries')] });
  client = await ApiClient.create(env.kubeconfigPath);
  mgr = await Manager.create({ clusters: { seed: { kubeConfig: env.kubeconfigPath } }, gracefulShutdownTimeoutMs: 0 });
  addProviderLocalControllers(mgr, ['backupbucket', 'backupentry'], { backupBucketDir: root });
  await mgr.start();
}, 60_000);

afterAll(async () => {
  await mgr?.stop();
  client?.close();
  await env?.stop();
  if (root) await rm(root, { recursive: true, force: true });
});

const succeeded = (k: typeof BackupBucketKind, name: string) =>
  waitFor(`${k.kind} ${name} to succeed`, async () => {
    const o = await client.get(k, { namespace: '', name });
    return o.status?.lastOperation?.state === 'Succeeded' ? o : undefined;
  });
const gone = (k: typeof BackupBucketKind, name: string) =>
  waitFor(`${k.kind} ${name} to be gone`, () =>
    client.get(k, { namespace: '', name }).then(
      () => undefined,
      (err: unknown) => (isNotFound(err) ? true : Promise.reject(err)),
    ),
  );
const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

describe('the BackupBucket and BackupEntry controllers', () => {
  it('keep buckets and entries as host directories, with their Secrets', async () => {
    const bucketName = '1f0e5ab7-2e5b-4c2b-9a0e-0c8d5a9d2f11';
    const secretRef = { name: 'backup-local', namespace: 'garden' };
    const shootNamespace = 'shoot--local--local';
    for (const name of ['garden', shootNamespace]) {
      await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    }
    // The entry's Secret as gardenlet writes it (here: the user's form).
    await client.create({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'entry-secret', namespace: 'garden' },
      stringData: { token: 'abc' },
    });
    await client.create({
      ...extensionResource('BackupBucket', '', bucketName, { type: 'local', region: 'local', secretRef }),
      metadata: { name: bucketName, annotations: { 'gardener.cloud/operation': 'reconcile' } },
    });
    const bucket = await succeeded(BackupBucketKind, bucketName);
    expect(await exists(join(root, bucketName))).toBe(true);
    const generated = { name: `generated-bucket-${bucketName}`, namespace: 'garden' };
    expect(bucket.status?.generatedSecretRef).toEqual(generated);
    await client.get(Kinds.Secret, generated);

    const entryName = `${shootNamespace}--8c0b5c3e-6d8e-4b8f-9f51-0d6f7c1f3b22`;
    await client.create({
      ...extensionResource('BackupEntry', '', entryName, {
        type: 'local',
        region: 'local',
        bucketName,
        secretRef: { name: 'entry-secret', namespace: 'garden' },
      }),
      metadata: { name: entryName, annotations: { 'gardener.cloud/operation': 'reconcile' } },
    });
    await succeeded(BackupEntryKind, entryName);
    const etcdBackup = await client.get(Kinds.Secret, { name: 'etcd-backup', namespace: shootNamespace });
    const decoded = Object.fromEntries(
      Object.entries(etcdBackup.data ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64').toString()]),
    );
    expect(decoded).toEqual({ token: 'abc', bucketName, hostPath: root });
    await writeFile(join(root, bucketName, entryName, 'full-snapshot'), 'etcd');

    await client.delete(BackupEntryKind, { namespace: '', name: entryName });
    await gone(BackupEntryKind, entryName);
    expect(await exists(join(root, bucketName, entryName))).toBe(false);
    expect(await exists(join(root, bucketName))).toBe(true);

    await client.delete(BackupBucketKind, { namespace: '', name: bucketName });
    await gone(BackupBucketKind, bucketName);
    expect(await exists(join(root, bucketName))).toBe(false);
    await expect(client.get(Kinds.Secret, generated)).rejects.toSatisfy(isNotFound);
  });

  it('deploys no etcd-backup while the shoot namespace is missing', async () => {
    const bucketName = 'b-2';
    await client.create({
      ...extensionResource('BackupBucket', '', bucketName, {
        type: 'local',
        region: 'local',
        secretRef: { name: 'backup-local', namespace: 'garden' },
      }),
      metadata: { name: bucketName, annotations: { 'gardener.cloud/operation': 'reconcile' } },
    });
    await succeeded(BackupBucketKind, bucketName);
    const entryName = 'shoot--other--gone--0d6f7c1f';
    await client.create({
      ...extensionResource('BackupEntry', '', entryName, {
        type: 'local',
        region: 'local',
        bucketName,
        secretRef: { name: 'entry-secret', namespace: 'garden' },
      }),
      metadata: { name: entryName, annotations: { 'gardener.cloud/operation': 'reconcile' } },
    });
    await succeeded(BackupEntryKind, entryName);
    expect(await exists(join(root, bucketName, entryName))).toBe(true);
    await expect(client.get(Kinds.Secret, { name: 'etcd-backup', namespace: 'shoot--other--gone' })).rejects.toSatisfy(
      isNotFound,
    );
  });
});
