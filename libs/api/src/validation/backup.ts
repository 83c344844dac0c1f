// validateBackupBucket, validateBackupEntry.
import type { BackupBucket, BackupEntry } from '../core/v1beta1/backup.js';
import { type FieldError, FieldPath, immutable, required } from './field.js';
import { validateObjectMeta, validateObjectMetaUpdate } from './names.js';

const spec = FieldPath.root('spec');

export function validateBackupBucket(bucket: BackupBucket, old?: BackupBucket): FieldError[] {
  const errors = validateObjectMeta(bucket.metadata, { namespaced: false });
  const s = bucket.spec;
  if (!s) return [...errors, required(spec)];
  if (!s.provider?.type) errors.push(required(spec.child('provider', 'type'), 'must provide a provider type'));
  if (!s.provider?.region) errors.push(required(spec.child('provider', 'region'), 'must provide a region'));
  if (!s.credentialsRef)
    errors.push(required(spec.child('credentialsRef'), 'must be set to refer a Secret or WorkloadIdentity'));
  else {
    if (!s.credentialsRef.name) errors.push(required(spec.child('credentialsRef', 'name'), 'must provide a name'));
    if (!s.credentialsRef.namespace)
      errors.push(required(spec.child('credentialsRef', 'namespace'), 'must provide a namespace'));
  }
  if (old) {
    errors.push(...validateObjectMetaUpdate(bucket.metadata, old.metadata));
    if (JSON.stringify(s.provider) !== JSON.stringify(old.spec.provider))
      errors.push(immutable(spec.child('provider'), s.provider));
  }
  return errors;
}

export function validateBackupEntry(entry: BackupEntry, old?: BackupEntry): FieldError[] {
  const errors = validateObjectMeta(entry.metadata, { namespaced: true });
  const s = entry.spec;
  if (!s) return [...errors, required(spec)];
  if (!s.bucketName) errors.push(required(spec.child('bucketName'), 'must provide a bucket name'));
  // As Gardener's, the spec has no immutable field: a control plane migration moves the entry to the destination
  // seed first and, when etcd's backups are copied, to the destination's bucket later in the restore.
  if (old) errors.push(...validateObjectMetaUpdate(entry.metadata, old.metadata));
  return errors;
}
