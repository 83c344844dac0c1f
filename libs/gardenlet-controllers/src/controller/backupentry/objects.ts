// The seed objects of a core BackupEntry (pure), as Gardener's BackupEntry controller writes them: the Secret
// `entry-<name>` in the seed's `garden` namespace holding the bucket's credentials — the BackupBucket's generated
// secret when it has one (`status.generatedSecretRef`), else its own credentials (`spec.credentialsRef`) — stamped with
// `gardener.cloud/timestamp`, and the cluster-scoped extension BackupEntry of the same name with the bucket's type,
// providerConfig, region and providerStatus, the bucket name and the secret's reference.
import { Annotations, Operations } from '@gardener-ts/api';
import type { Secret } from '@gardener-ts/controller-runtime';
import type { BackupBucket, BackupEntry, ExtensionBackupEntry } from './kinds.js';

/** The seed namespace of the entries' secrets (Gardener's `v1beta1constants.GardenNamespace`). */
export const SeedSecretNamespace = 'garden';

/** The name of an entry's Secret in the seed: `entry-<name>`. */
export function seedSecretName(entry: BackupEntry): string {
  return `entry-${entry.metadata?.name ?? ''}`;
}

/**
 * The garden Secret holding a bucket's credentials: its generated secret when the extension made one, else the Secret
 * its `spec.credentialsRef` names. Throws for credentials that are not a Secret (a WorkloadIdentity), which are not
 * supported here.
 */
export function bucketSecretRef(bucket: BackupBucket): { namespace: string; name: string } {
  const generated = bucket.status?.generatedSecretRef;
  if (generated?.name) return { namespace: generated.namespace ?? '', name: generated.name };
  const ref = bucket.spec.credentialsRef;
  if (!ref?.name) throw new Error(`BackupBucket ${bucket.metadata?.name} has no spec.credentialsRef`);
  if (ref.kind && ref.kind !== 'Secret') {
    throw new Error(
      `BackupBucket ${bucket.metadata?.name}: spec.credentialsRef is a ${ref.kind}; only Secrets are supported for backup entries`,
    );
  }
  return { namespace: ref.namespace ?? '', name: ref.name };
}

/** The entry's Secret in the seed with the bucket secret's `data`, stamped `now` (RFC 3339 with fractions). */
export function renderSeedSecret(entry: BackupEntry, data: Record<string, string> | undefined, now: Date): Secret {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: seedSecretName(entry),
      namespace: SeedSecretNamespace,
      annotations: { [Annotations.GardenerTimestamp]: now.toISOString() },
    },
    type: 'Opaque',
    data: { ...data },
  };
}

/** The spec of the extension BackupEntry for `entry` in `bucket`. */
export function extensionSpec(entry: BackupEntry, bucket: BackupBucket): ExtensionBackupEntry['spec'] {
  const providerConfig = bucket.spec.providerConfig as Record<string, unknown> | undefined;
  const providerStatus = bucket.status?.providerStatus as Record<string, unknown> | undefined;
  return {
    type: bucket.spec.provider.type,
    ...(providerConfig ? { providerConfig } : {}),
    region: bucket.spec.provider.region,
    secretRef: { name: seedSecretName(entry), namespace: SeedSecretNamespace },
    bucketName: entry.spec.bucketName,
    ...(providerStatus ? { backupBucketProviderStatus: providerStatus } : {}),
  };
}

/**
 * The extension BackupEntry with its request (`gardener.cloud/operation`, `reconcile` unless told otherwise — a
 * restore first writes it with `wait-for-state` — and the timestamp).
 */
export function renderExtensionBackupEntry(
  entry: BackupEntry,
  bucket: BackupBucket,
  now: Date,
  operation: string = Operations.OperationReconcile,
): ExtensionBackupEntry {
  return {
    apiVersion: 'extensions.gardener.cloud/v1alpha1',
    kind: 'BackupEntry',
    metadata: {
      name: entry.metadata?.name ?? '',
      annotations: {
        [Annotations.GardenerOperation]: operation,
        [Annotations.GardenerTimestamp]: now.toISOString(),
      },
    },
    spec: extensionSpec(entry, bucket),
  };
}

/** The time the Secret's data was last written (its `gardener.cloud/timestamp`), if it has a valid one. */
export function secretUpdatedAt(secret: Secret | undefined): Date | undefined {
  const stamp = Date.parse(secret?.metadata?.annotations?.[Annotations.GardenerTimestamp] ?? '');
  return Number.isNaN(stamp) ? undefined : new Date(stamp);
}
