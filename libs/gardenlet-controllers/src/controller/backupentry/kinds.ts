// The kinds of the BackupEntry controller: the core BackupEntry and BackupBucket in the garden, the extension
// BackupEntry in the seed (extensions.gardener.cloud/v1alpha1, cluster-scoped).
import { corev1beta1, extensionsv1alpha1 } from '@gardener-ts/api';
import { kind, kindFrom, type KubernetesObject } from '@gardener-ts/controller-runtime';

export { BackupBucketKind } from '../backupbucket/kinds.js';

/** A core BackupEntry (core.gardener.cloud/v1beta1, namespaced in the project namespace). */
export type BackupEntry = corev1beta1.BackupEntry;
/** A core BackupBucket (core.gardener.cloud/v1beta1, cluster-scoped). */
export type BackupBucket = corev1beta1.BackupBucket;
/** An extension BackupEntry (extensions.gardener.cloud/v1alpha1, cluster-scoped). */
export type ExtensionBackupEntry = extensionsv1alpha1.BackupEntry & KubernetesObject;

export const BackupEntryKind = kindFrom<BackupEntry>(corev1beta1.BackupEntryKind);
export const ExtensionBackupEntryKind = kind<ExtensionBackupEntry>(
  extensionsv1alpha1.BackupEntryKind.apiVersion,
  extensionsv1alpha1.BackupEntryKind.kind,
);
