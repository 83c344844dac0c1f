import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { CoreBackupBucket } from './kinds.js';
import {
  credentialsSecretKey,
  extensionBackupBucketSpec,
  parseRequestTimestamp,
  renderExtensionBackupBucket,
  renderExtensionSecret,
  renderGeneratedSecret,
  sameData,
  sameJSON,
} from './objects.js';

const bucket = (mutate?: (b: CoreBackupBucket) => void): CoreBackupBucket => {
  const b: CoreBackupBucket = {
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'BackupBucket',
    metadata: { name: '5f0c0f4e-1111', uid: 'uid-1', generation: 2 },
    spec: {
      provider: { type: 'local', region: 'local' },
      providerConfig: { apiVersion: 'local.provider.extensions.gardener.cloud/v1alpha1', kind: 'BackupBucketConfig' },
      credentialsRef: { apiVersion: 'v1', kind: 'Secret', name: 'backup-local', namespace: 'garden' },
      seedName: 'local',
    },
  } as CoreBackupBucket;
  mutate?.(b);
  return b;
};
const now = new Date('2026-11-29T12:00:00.250Z');

describe('the objects of a BackupBucket', () => {
  it('renders the extension BackupBucket with the reconcile request and the seed secret', () => {
    expect(renderExtensionBackupBucket(bucket(), 'garden', now)).toEqual({
      apiVersion: 'extensions.gardener.cloud/v1alpha1',
      kind: 'BackupBucket',
      metadata: {
        name: '5f0c0f4e-1111',
        annotations: {
          'gardener.cloud/operation': 'reconcile',
          'gardener.cloud/timestamp': '2026-11-29T12:00:00.250Z',
        },
      },
      spec: {
        type: 'local',
        region: 'local',
        providerConfig: {
          apiVersion: 'local.provider.extensions.gardener.cloud/v1alpha1',
          kind: 'BackupBucketConfig',
        },
        secretRef: { name: 'bucket-5f0c0f4e-1111', namespace: 'garden' },
      },
    });
    expect(
      extensionBackupBucketSpec(
        bucket((b) => delete b.spec.providerConfig),
        'garden',
      ),
    ).not.toHaveProperty('providerConfig');
  });

  it('copies the credentials into the seed as bucket-<name>, stamped', () => {
    expect(renderExtensionSecret('b', 'garden', { key: 'dmFsdWU=' }, now)).toEqual({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: 'bucket-b',
        namespace: 'garden',
        annotations: { 'gardener.cloud/timestamp': '2026-11-29T12:00:00.250Z' },
      },
      data: { key: 'dmFsdWU=' },
    });
  });

  it('copies the generated secret back as generated-bucket-<name>, controlled by the bucket, with its finalizer', () => {
    expect(renderGeneratedSecret(bucket(), 'garden', { bucketName: 'Yg==' })).toEqual({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: 'generated-bucket-5f0c0f4e-1111',
        namespace: 'garden',
        finalizers: ['core.gardener.cloud/backupbucket'],
        ownerReferences: [
          {
            apiVersion: 'core.gardener.cloud/v1beta1',
            kind: 'BackupBucket',
            name: '5f0c0f4e-1111',
            uid: 'uid-1',
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      },
      data: { bucketName: 'Yg==' },
    });
  });

  it('accepts only Secrets as credentials and names the field otherwise', () => {
    expect(credentialsSecretKey(bucket())).toEqual({ namespace: 'garden', name: 'backup-local' });
    expect(
      credentialsSecretKey(
        bucket((b) => {
          b.spec.credentialsRef = {
            apiVersion: 'security.gardener.cloud/v1alpha1',
            kind: 'WorkloadIdentity',
            name: 'wi',
            namespace: 'garden',
          };
        }),
      ),
    ).toEqual({
      reason:
        'spec.credentialsRef refers to security.gardener.cloud/v1alpha1/WorkloadIdentity garden/wi: only Secrets (v1) are supported',
    });
    expect(credentialsSecretKey(bucket((b) => delete b.spec.credentialsRef))).toEqual({
      reason: 'spec.credentialsRef does not name a Secret with namespace',
    });
  });

  it('reads request timestamps in whole seconds', () => {
    expect(parseRequestTimestamp('2026-11-29T12:00:00.999Z')).toEqual(new Date('2026-11-29T12:00:00Z'));
    expect(parseRequestTimestamp('not a time')).toBeUndefined();
    expect(parseRequestTimestamp(undefined)).toBeUndefined();
  });

  it('compares JSON regardless of key order, and secret data with absent as empty', () => {
    expect(sameJSON({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 })).toBe(true);
    expect(sameJSON({ a: 1 }, { a: 1, b: undefined })).toBe(true);
    expect(sameJSON({ a: [1, 2] }, { a: [2, 1] })).toBe(false);
    expect(sameJSON({ a: 1 }, { a: '1' })).toBe(false);
    expect(sameData(undefined, {})).toBe(true);
    expect(sameData({ k: 'dg==' }, {})).toBe(false);
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
        expect(sameJSON(a, structuredClone(a))).toBe(true);
        expect(sameJSON(a, b)).toBe(JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b)));
      }),
    );
  });
});

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object') {
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]),
    );
  }
  return v;
}
