// The kinds of the BackupBucket controller: the core BackupBucket in the garden (core.gardener.cloud/v1beta1) and the
// extension BackupBucket in the seed (extensions.gardener.cloud/v1alpha1), both cluster-scoped and of the same name.
import { corev1beta1, extensionsv1alpha1, type BackupBucket } from '@gardener-ts/api';
import { kind, kindFrom, type KubernetesObject } from '@gardener-ts/controller-runtime';

/** A core BackupBucket (garden). */
export type CoreBackupBucket = BackupBucket;
/** The core BackupBucket kind for clients and caches. */
export const BackupBucketKind = kindFrom<CoreBackupBucket>(corev1beta1.BackupBucketKind);
/** The core BackupBucket's apiVersion. */
export const BACKUP_BUCKET_API_VERSION = 'core.gardener.cloud/v1beta1';

/** An extension BackupBucket (seed), as the gardenlet writes and reads it. */
export interface ExtensionBackupBucket extends KubernetesObject {
  spec: extensionsv1alpha1.BackupBucketSpec;
  status?: extensionsv1alpha1.BackupBucketStatus;
}
/** The extension BackupBucket kind for clients and caches. */
export const ExtensionBackupBucketKind = kind<ExtensionBackupBucket>(
  extensionsv1alpha1.BackupBucketKind.apiVersion,
  extensionsv1alpha1.BackupBucketKind.kind,
);
