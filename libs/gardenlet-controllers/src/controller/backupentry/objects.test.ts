import { describe, expect, it } from 'vitest';
import type { BackupBucket, BackupEntry } from './kinds.js';
import { bucketSecretRef, renderExtensionBackupEntry, renderSeedSecret, secretUpdatedAt } from './objects.js';

const entry: BackupEntry = {
  apiVersion: 'core.gardener.cloud/v1beta1',
  kind: 'BackupEntry',
  metadata: { name: 'shoot--p--s--uid', namespace: 'garden-p' },
  spec: { bucketName: 'seed-uid', seedName: 'local' },
};
const bucket = (status?: BackupBucket['status']): BackupBucket => ({
  apiVersion: 'core.gardener.cloud/v1beta1',
  kind: 'BackupBucket',
  metadata: { name: 'seed-uid' },
  spec: {
    provider: { type: 'local', region: 'local-1' },
    providerConfig: { apiVersion: 'local.provider.extensions.gardener.cloud/v1alpha1', kind: 'BackupConfig' },
    credentialsRef: { apiVersion: 'v1', kind: 'Secret', namespace: 'garden', name: 'backup-local' },
    seedName: 'local',
  },
  ...(status ? { status } : {}),
});
const now = new Date('2026-11-29T12:00:00.123Z');

describe('the seed objects of a BackupEntry', () => {
  it("take the bucket's generated secret, else its credentials", () => {
    expect(bucketSecretRef(bucket())).toEqual({ namespace: 'garden', name: 'backup-local' });
    expect(
      bucketSecretRef(bucket({ generatedSecretRef: { namespace: 'garden', name: 'generated-bucket-seed-uid' } })),
    ).toEqual({ namespace: 'garden', name: 'generated-bucket-seed-uid' });
    const identity = bucket();
    identity.spec.credentialsRef = {
      apiVersion: 'security.gardener.cloud/v1alpha1',
      kind: 'WorkloadIdentity',
      name: 'w',
      namespace: 'garden',
    };
    expect(() => bucketSecretRef(identity)).toThrow(
      'BackupBucket seed-uid: spec.credentialsRef is a WorkloadIdentity; only Secrets are supported for backup entries',
    );
  });

  it('copy the credentials into garden/entry-<name>, stamped', () => {
    const secret = renderSeedSecret(entry, { key: 'dmFsdWU=' }, now);
    expect(secret.metadata).toEqual({
      name: 'entry-shoot--p--s--uid',
      namespace: 'garden',
      annotations: { 'gardener.cloud/timestamp': '2026-11-29T12:00:00.123Z' },
    });
    expect(secret.data).toEqual({ key: 'dmFsdWU=' });
    expect(secretUpdatedAt(secret)).toEqual(now);
    expect(secretUpdatedAt({ metadata: {} })).toBeUndefined();
  });

  it('render the extension BackupEntry from the bucket with a reconcile request', () => {
    expect(renderExtensionBackupEntry(entry, bucket({ providerStatus: { path: '/tmp/b' } }), now)).toEqual({
      apiVersion: 'extensions.gardener.cloud/v1alpha1',
      kind: 'BackupEntry',
      metadata: {
        name: 'shoot--p--s--uid',
        annotations: {
          'gardener.cloud/operation': 'reconcile',
          'gardener.cloud/timestamp': '2026-11-29T12:00:00.123Z',
        },
      },
      spec: {
        type: 'local',
        providerConfig: { apiVersion: 'local.provider.extensions.gardener.cloud/v1alpha1', kind: 'BackupConfig' },
        region: 'local-1',
        secretRef: { name: 'entry-shoot--p--s--uid', namespace: 'garden' },
        bucketName: 'seed-uid',
        backupBucketProviderStatus: { path: '/tmp/b' },
      },
    });
  });
});
