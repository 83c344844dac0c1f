// The BackupBucket part of ResourceReferenceManager (gardener-apiserver plugin/pkg/global/resourcereferencemanager):
// a BackupBucket's Seed (when set or changed) and its credentials (`spec.credentialsRef`: a Secret or a
// WorkloadIdentity) must exist on every CREATE and UPDATE; a BackupBucket that BackupEntries still name in
// `spec.bucketName` cannot be deleted (DELETECOLLECTION: no bucket of the collection may be named by one).
import {
  allow,
  forbidden,
  type AdmissionAttributes,
  type AdmissionDecision,
  type KubeObject,
  type Listers,
} from '../attributes.js';
import { notFoundText } from './resource-reference-shoot.js';

const CORE_V1BETA1 = 'core.gardener.cloud/v1beta1';
const SECURITY_V1ALPHA1 = 'security.gardener.cloud/v1alpha1';

/** Why the BackupBucket's references do not resolve, or undefined when they do. */
export async function backupBucketReferenceError(
  bucket: KubeObject,
  old: KubeObject | undefined,
  listers: Listers,
): Promise<string | undefined> {
  const seedName: string | undefined = bucket.spec?.seedName;
  if (seedName && seedName !== old?.spec?.seedName && !(await listers.get(CORE_V1BETA1, 'Seed', seedName)))
    return notFoundText('seed', 'core.gardener.cloud', seedName);

  const ref = bucket.spec?.credentialsRef;
  if (!ref) return 'spec.credentialsRef must be set or defaulted';
  if (ref.apiVersion === 'v1' && ref.kind === 'Secret') {
    if (!(await listers.get('v1', 'Secret', ref.name, ref.namespace))) return notFoundText('secrets', '', ref.name);
  } else if (ref.apiVersion === SECURITY_V1ALPHA1 && ref.kind === 'WorkloadIdentity') {
    if (!(await listers.get(SECURITY_V1ALPHA1, 'WorkloadIdentity', ref.name, ref.namespace)))
      return notFoundText('workloadidentities', 'security.gardener.cloud', ref.name);
  } else {
    return 'unknown credentials ref: BackupBucket is referencing neither a Secret nor a WorkloadIdentity';
  }
  return undefined;
}

/** A BackupBucket on CREATE or UPDATE: Forbidden with the first reference that does not resolve. */
export async function checkBackupBucketReferences(
  a: AdmissionAttributes,
  listers: Listers,
): Promise<AdmissionDecision> {
  const old = a.operation === 'UPDATE' ? (a.oldObject ?? undefined) : undefined;
  const error = await backupBucketReferenceError(a.object!, old, listers);
  return error ? forbidden(a, error) : allow();
}

/**
 * The BackupEntries (`namespace/name`, in list order) whose `spec.bucketName` is `bucket`, as Gardener's message
 * names them.
 */
export const entriesOfBucket = (entries: readonly KubeObject[], bucket: string): string[] =>
  entries
    .filter((e) => e.spec?.bucketName === bucket)
    .map((e) => `${e.metadata?.namespace ?? ''}/${e.metadata?.name ?? ''}`);

/** DELETE (or DELETECOLLECTION, without a name) of BackupBuckets: none may still be named by a BackupEntry. */
export async function checkBackupBucketDeletion(a: AdmissionAttributes, listers: Listers): Promise<AdmissionDecision> {
  const entries = await listers.list(CORE_V1BETA1, 'BackupEntry');
  const names = a.name
    ? [a.name]
    : (await listers.list(CORE_V1BETA1, 'BackupBucket')).map((b) => b.metadata?.name ?? '');
  for (const name of names) {
    const using = entriesOfBucket(entries, name);
    if (using.length > 0)
      return forbidden(
        { ...a, name },
        `cannot delete BackupBucket because BackupEntries are still referencing it, backupEntryNames: ${using.join(',')}`,
      );
  }
  return allow();
}
