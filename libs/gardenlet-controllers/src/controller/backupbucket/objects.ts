// The objects the BackupBucket controller writes, rendered from the core BackupBucket (Gardener's
// pkg/gardenlet/controller/backupbucket): the bucket's credentials copied into the seed's `garden` namespace as
// `bucket-<name>`, the extension BackupBucket of the same name carrying the reconcile request, and the extension's
// generated Secret copied back into the garden as `garden/generated-bucket-<name>`, owned by the core bucket.
import { Annotations, Operations, extensionsv1alpha1 } from '@gardener-ts/api';
import type { KubernetesObject } from '@gardener-ts/controller-runtime';
import { BACKUP_BUCKET_API_VERSION, type CoreBackupBucket, type ExtensionBackupBucket } from './kinds.js';

/** The finalizer on the generated Secret in the garden (Gardener's backupbucket controller finalizer). */
export const GENERATED_SECRET_FINALIZER = 'core.gardener.cloud/backupbucket';
/** Name prefix of the generated Secret copied into the garden (Gardener's `SecretPrefixGeneratedBackupBucket`). */
export const GENERATED_SECRET_PREFIX = 'generated-bucket-';

/** Secret data: key → base64 value. */
export type SecretData = Record<string, string>;

/** A Secret as the controller writes it. */
export interface SecretObject extends KubernetesObject {
  data?: SecretData;
  type?: string;
}

/** Name of the bucket's credentials in the seed's garden namespace: `bucket-<name>`. */
export const extensionSecretName = (bucketName: string): string => `bucket-${bucketName}`;

/** Name of the generated Secret in the garden's garden namespace: `generated-bucket-<name>`. */
export const generatedSecretName = (bucketName: string): string => `${GENERATED_SECRET_PREFIX}${bucketName}`;

/**
 * The moment of a request as the gardenlet stamps it in `gardener.cloud/timestamp` (RFC 3339 with fractional seconds,
 * as Gardener's RFC3339Nano).
 */
export const requestTimestamp = (now: Date): string => now.toISOString();

/**
 * The time of a `gardener.cloud/timestamp`, truncated to whole seconds (an extension's `lastOperation.lastUpdateTime`
 * has no fractions); undefined when absent or unparsable.
 */
export function parseRequestTimestamp(value: string | undefined): Date | undefined {
  if (!value) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : new Date(Math.floor(ms / 1000) * 1000);
}

/** The Secret `credentialsRef` names, or why it cannot be used (the reason names the field). */
export function credentialsSecretKey(
  bucket: CoreBackupBucket,
): { namespace: string; name: string } | { reason: string } {
  const ref = bucket.spec.credentialsRef;
  if (!ref?.name || !ref.namespace) return { reason: 'spec.credentialsRef does not name a Secret with namespace' };
  if ((ref.kind && ref.kind !== 'Secret') || (ref.apiVersion && ref.apiVersion !== 'v1')) {
    return {
      reason: `spec.credentialsRef refers to ${ref.apiVersion ?? ''}/${ref.kind ?? ''} ${ref.namespace}/${ref.name}: only Secrets (v1) are supported`,
    };
  }
  return { namespace: ref.namespace, name: ref.name };
}

/** The extension BackupBucket's spec: the core bucket's provider type, region and providerConfig, the seed Secret. */
export function extensionBackupBucketSpec(
  bucket: CoreBackupBucket,
  seedNamespace: string,
): ExtensionBackupBucket['spec'] {
  return {
    type: bucket.spec.provider.type,
    region: bucket.spec.provider.region,
    ...(bucket.spec.providerConfig ? { providerConfig: bucket.spec.providerConfig as Record<string, unknown> } : {}),
    secretRef: { name: extensionSecretName(bucket.metadata!.name!), namespace: seedNamespace },
  };
}

/** The extension BackupBucket with the reconcile request (`gardener.cloud/operation: reconcile` and its timestamp). */
export function renderExtensionBackupBucket(
  bucket: CoreBackupBucket,
  seedNamespace: string,
  now: Date,
): ExtensionBackupBucket {
  return {
    apiVersion: extensionsv1alpha1.BackupBucketKind.apiVersion,
    kind: extensionsv1alpha1.BackupBucketKind.kind,
    metadata: {
      name: bucket.metadata!.name!,
      annotations: {
        [Annotations.GardenerOperation]: Operations.OperationReconcile,
        [Annotations.GardenerTimestamp]: requestTimestamp(now),
      },
    },
    spec: extensionBackupBucketSpec(bucket, seedNamespace),
  };
}

/** The credentials in the seed (`bucket-<name>`), stamped with the time they were written. */
export function renderExtensionSecret(
  bucketName: string,
  seedNamespace: string,
  data: SecretData | undefined,
  now: Date,
): SecretObject {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: extensionSecretName(bucketName),
      namespace: seedNamespace,
      annotations: { [Annotations.GardenerTimestamp]: requestTimestamp(now) },
    },
    data: { ...data },
  };
}

/** The generated Secret in the garden: the extension's data, controlled by the core bucket, with its finalizer. */
export function renderGeneratedSecret(
  bucket: CoreBackupBucket,
  gardenNamespace: string,
  data: SecretData | undefined,
): SecretObject {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: generatedSecretName(bucket.metadata!.name!),
      namespace: gardenNamespace,
      finalizers: [GENERATED_SECRET_FINALIZER],
      ownerReferences: [
        {
          apiVersion: BACKUP_BUCKET_API_VERSION,
          kind: 'BackupBucket',
          name: bucket.metadata!.name!,
          uid: bucket.metadata!.uid!,
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    data: { ...data },
  };
}

/** Deep equality of JSON values, independent of key order (Go's reflect.DeepEqual on decoded specs). */
export function sameJSON(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameJSON(x, b[i]));
  }
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  return (
    ka.length === kb.length &&
    ka.every((k) => sameJSON((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}

/** Whether two Secrets' data are equal (an absent map equals an empty one). */
export const sameData = (a: SecretData | undefined, b: SecretData | undefined): boolean => sameJSON(a ?? {}, b ?? {});
