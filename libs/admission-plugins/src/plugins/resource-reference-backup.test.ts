// ResourceReferenceManager on BackupBuckets: seed and credentials lookup, no deletion while BackupEntries name them.
import { describe, expect, it } from 'vitest';
import { request } from '../../test/examples.js';
import type { KubeObject } from '../attributes.js';
import { runChain } from '../chain.js';
import { staticListers } from '../listers.js';
import { entriesOfBucket } from './resource-reference-backup.js';
import { ResourceReferenceManager } from './resource-reference-manager.js';

const seed = { apiVersion: 'core.gardener.cloud/v1beta1', kind: 'Seed', metadata: { name: 'local' } };
const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'backup', namespace: 'garden' } };
const identity = {
  apiVersion: 'security.gardener.cloud/v1alpha1',
  kind: 'WorkloadIdentity',
  metadata: { name: 'backup', namespace: 'garden' },
};
const bucket = (credentialsRef?: object, name = 'bucket'): KubeObject => ({
  apiVersion: 'core.gardener.cloud/v1beta1',
  kind: 'BackupBucket',
  metadata: { name },
  spec: {
    provider: { type: 'local', region: 'local' },
    seedName: 'local',
    ...(credentialsRef ? { credentialsRef } : {}),
  },
});
const secretRef = { apiVersion: 'v1', kind: 'Secret', name: 'backup', namespace: 'garden' };
const entry = (namespace: string, name: string, bucketName: string): KubeObject => ({
  apiVersion: 'core.gardener.cloud/v1beta1',
  kind: 'BackupEntry',
  metadata: { name, namespace },
  spec: { bucketName },
});
const chain = [ResourceReferenceManager];

describe('ResourceReferenceManager on BackupBuckets', () => {
  it('needs the seed and the credentials Secret or WorkloadIdentity', async () => {
    const run = (object: KubeObject, objects: KubeObject[]) =>
      runChain(chain, request('CREATE', object), staticListers(objects));
    expect(await run(bucket(secretRef), [secret])).toMatchObject({
      allowed: false,
      code: 403,
      message: 'backupbuckets.core.gardener.cloud "bucket" is forbidden: seed.core.gardener.cloud "local" not found',
    });
    expect(await run(bucket(secretRef), [seed])).toMatchObject({
      message: 'backupbuckets.core.gardener.cloud "bucket" is forbidden: secrets "backup" not found',
    });
    expect((await run(bucket(secretRef), [seed, secret])).allowed).toBe(true);
    const identityRef = { ...secretRef, apiVersion: 'security.gardener.cloud/v1alpha1', kind: 'WorkloadIdentity' };
    expect(await run(bucket(identityRef), [seed, secret])).toMatchObject({
      message:
        'backupbuckets.core.gardener.cloud "bucket" is forbidden: workloadidentities.security.gardener.cloud "backup" not found',
    });
    expect((await run(bucket(identityRef), [seed, identity])).allowed).toBe(true);
    expect(await run(bucket({ ...secretRef, apiVersion: 'foo/v1', kind: 'Bar' }), [seed])).toMatchObject({
      message:
        'backupbuckets.core.gardener.cloud "bucket" is forbidden: unknown credentials ref: BackupBucket is referencing neither a Secret nor a WorkloadIdentity',
    });
    expect(await run(bucket(), [seed])).toMatchObject({
      message: 'backupbuckets.core.gardener.cloud "bucket" is forbidden: spec.credentialsRef must be set or defaulted',
    });
  });

  it('looks the credentials up on every UPDATE, the seed only when it changes, also in deletion', async () => {
    const old = bucket(secretRef);
    const changed = { ...bucket(secretRef), metadata: { name: 'bucket', deletionTimestamp: '2026-01-01T00:00:00Z' } };
    expect(await runChain(chain, request('UPDATE', changed, old), staticListers([]))).toMatchObject({
      message: 'backupbuckets.core.gardener.cloud "bucket" is forbidden: secrets "backup" not found',
    });
    expect((await runChain(chain, request('UPDATE', changed, old), staticListers([secret]))).allowed).toBe(true);
  });

  it('refuses deleting a bucket that BackupEntries name, with all of them', async () => {
    const entries = [
      entry('garden-a', 'one', 'bucket'),
      entry('garden-b', 'two', 'other'),
      entry('garden-c', 'three', 'bucket'),
    ];
    expect(
      await runChain(chain, request('DELETE', undefined, bucket(secretRef)), staticListers(entries)),
    ).toMatchObject({
      allowed: false,
      code: 403,
      message:
        'backupbuckets.core.gardener.cloud "bucket" is forbidden: cannot delete BackupBucket because BackupEntries are still referencing it, backupEntryNames: garden-a/one,garden-c/three',
    });
    const unused = request('DELETE', undefined, bucket(secretRef, 'unused'));
    expect((await runChain(chain, unused, staticListers(entries))).allowed).toBe(true);
  });

  it('refuses a DELETECOLLECTION when any bucket is still named, naming that bucket', async () => {
    const collection = { ...request('DELETE', undefined, bucket(secretRef)), name: undefined };
    const buckets = [bucket(secretRef, 'free'), bucket(secretRef, 'used')];
    expect(
      await runChain(chain, collection, staticListers([...buckets, entry('garden-a', 'one', 'used')])),
    ).toMatchObject({
      allowed: false,
      message:
        'backupbuckets.core.gardener.cloud "used" is forbidden: cannot delete BackupBucket because BackupEntries are still referencing it, backupEntryNames: garden-a/one',
    });
    expect(
      (await runChain(chain, collection, staticListers([...buckets, entry('garden-a', 'one', 'gone')]))).allowed,
    ).toBe(true);
  });

  it('names entries as namespace/name in list order', () => {
    expect(entriesOfBucket([entry('b', 'y', 'x'), entry('a', 'z', 'x'), entry('a', 'w', 'v')], 'x')).toEqual([
      'b/y',
      'a/z',
    ]);
  });
});
