// BackupBucketValidator (gardener-apiserver plugin/pkg/backupbucket/validator): a BackupBucket whose
// `spec.credentialsRef` names a WorkloadIdentity must use one of its own provider type.
import { allow, CORE, forbidden, internalError, isKind } from '../attributes.js';
import type { AdmissionPlugin } from '../chain.js';

/** The BackupBucketValidator admission plugin (CREATE and UPDATE of BackupBuckets). */
export const BackupBucketValidator: AdmissionPlugin = {
  name: 'BackupBucketValidator',
  handles: (a) =>
    isKind(a, CORE, 'BackupBucket') &&
    (a.operation === 'CREATE' || a.operation === 'UPDATE') &&
    !a.subresource &&
    Boolean(a.object),
  async validate(a, listers) {
    const bucket = a.object!;
    const ref = bucket.spec?.credentialsRef;
    if (!ref || ref.apiVersion !== 'security.gardener.cloud/v1alpha1' || ref.kind !== 'WorkloadIdentity')
      return allow();
    const identity = await listers.get(ref.apiVersion, 'WorkloadIdentity', ref.name, ref.namespace);
    if (!identity) return internalError(`workloadidentity.security.gardener.cloud "${ref.name}" not found`);
    const providerType = bucket.spec?.provider?.type;
    const identityType = identity.spec?.targetSystem?.type;
    if (providerType === identityType) return allow();
    return forbidden(
      a,
      `BackupBucket using backup of type "${providerType}" cannot use WorkloadIdentity of type "${identityType}"`,
    );
  },
};
