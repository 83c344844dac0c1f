// ResourceReferenceManager (gardener-apiserver plugin/pkg/global/resourcereferencemanager): objects may only refer
// to what exists — a Shoot to its CredentialsBinding/SecretBinding and ExposureClass, a SecretBinding to its Secret
// and Quotas, a CredentialsBinding to its credentials (Secret or WorkloadIdentity) and Quotas. References are checked
// when they are set or changed. A new Shoot is annotated `gardener.cloud/created-by=<user>`. A CloudProfile cannot
// lose Kubernetes or machine image versions that Shoots or NamespacedCloudProfiles still use.
import { Annotations } from '@gardener-ts/api';
import {
  allow,
  CORE,
  forbidden,
  isKind,
  mutated,
  SECURITY,
  type AdmissionAttributes,
  type AdmissionDecision,
  type Listers,
} from '../attributes.js';
import type { AdmissionPlugin } from '../chain.js';
import { cloudProfileRemovalErrors, multiErrorText } from './cloudprofile-version-removal.js';

interface Reference {
  apiVersion: string;
  kind: string;
  /** Plural resource and group, for the message: `secrets`, `quotas.core.gardener.cloud`. */
  resource: string;
  name: string;
  namespace?: string;
}

const ref = (
  apiVersion: string,
  kind: string,
  resource: string,
  name: string | undefined,
  namespace?: string,
): Reference[] => (name ? [{ apiVersion, kind, resource, name, ...(namespace ? { namespace } : {}) }] : []);

function quotaRefs(quotas: { name?: string; namespace?: string }[] | undefined, namespace?: string): Reference[] {
  return (quotas ?? []).flatMap((q) =>
    ref('core.gardener.cloud/v1beta1', 'Quota', 'quotas.core.gardener.cloud', q.name, q.namespace ?? namespace),
  );
}

/** The objects `object` (of `kind`) refers to. */
export function referencesOf(kind: string, object: any): Reference[] {
  const ns = object?.metadata?.namespace;
  switch (kind) {
    case 'Shoot':
      return [
        ...ref(
          'security.gardener.cloud/v1alpha1',
          'CredentialsBinding',
          'credentialsbindings.security.gardener.cloud',
          object.spec?.credentialsBindingName,
          ns,
        ),
        ...ref(
          'core.gardener.cloud/v1beta1',
          'SecretBinding',
          'secretbindings.core.gardener.cloud',
          object.spec?.secretBindingName,
          ns,
        ),
        ...ref(
          'core.gardener.cloud/v1beta1',
          'ExposureClass',
          'exposureclasses.core.gardener.cloud',
          object.spec?.exposureClassName,
        ),
      ];
    case 'SecretBinding':
      return [
        ...ref('v1', 'Secret', 'secrets', object.secretRef?.name, object.secretRef?.namespace ?? ns),
        ...quotaRefs(object.quotas, ns),
      ];
    case 'CredentialsBinding': {
      const c = object.credentialsRef ?? {};
      const credentials =
        c.kind === 'WorkloadIdentity'
          ? ref(
              c.apiVersion ?? 'security.gardener.cloud/v1alpha1',
              'WorkloadIdentity',
              'workloadidentities.security.gardener.cloud',
              c.name,
              c.namespace ?? ns,
            )
          : ref('v1', 'Secret', 'secrets', c.name, c.namespace ?? ns);
      return [...credentials, ...quotaRefs(object.quotas, ns)];
    }
    default:
      return [];
  }
}

async function checkReferences(a: AdmissionAttributes, listers: Listers): Promise<AdmissionDecision> {
  const before = new Set(
    a.operation === 'UPDATE' ? referencesOf(a.kind.kind, a.oldObject).map((r) => JSON.stringify(r)) : [],
  );
  for (const r of referencesOf(a.kind.kind, a.object)) {
    if (before.has(JSON.stringify(r))) continue;
    if (!(await listers.get(r.apiVersion, r.kind, r.name, r.namespace)))
      return forbidden(a, `${r.resource} "${r.name}" not found`);
  }
  return allow();
}

/** The ResourceReferenceManager admission plugin. */
export const ResourceReferenceManager: AdmissionPlugin = {
  name: 'ResourceReferenceManager',
  handles: (a) =>
    (a.operation === 'CREATE' || a.operation === 'UPDATE') &&
    !a.subresource &&
    Boolean(a.object) &&
    !a.object?.metadata?.deletionTimestamp &&
    (isKind(a, CORE, 'Shoot') ||
      isKind(a, CORE, 'SecretBinding') ||
      isKind(a, SECURITY, 'CredentialsBinding') ||
      (isKind(a, CORE, 'CloudProfile') && a.operation === 'UPDATE')),
  admit(a) {
    if (!isKind(a, CORE, 'Shoot') || a.operation !== 'CREATE' || !a.userInfo.username) return allow();
    const object = a.object!;
    if (object.metadata?.annotations?.[Annotations.GardenerCreatedBy]) return allow();
    return mutated({
      ...object,
      metadata: {
        ...object.metadata,
        annotations: { ...object.metadata?.annotations, [Annotations.GardenerCreatedBy]: a.userInfo.username },
      },
    });
  },
  validate: (a, listers) =>
    isKind(a, CORE, 'CloudProfile') ? checkCloudProfileUpdate(a, listers) : checkReferences(a, listers),
};

/** A CloudProfile may not lose versions that Shoots or NamespacedCloudProfiles still use. */
async function checkCloudProfileUpdate(a: AdmissionAttributes, listers: Listers): Promise<AdmissionDecision> {
  if (!a.oldObject) return allow();
  const shoots = await listers.list('core.gardener.cloud/v1beta1', 'Shoot');
  const namespaced = await listers.list('core.gardener.cloud/v1beta1', 'NamespacedCloudProfile');
  const errors = cloudProfileRemovalErrors(a.object!, a.oldObject, shoots, namespaced);
  return errors.length > 0 ? forbidden(a, multiErrorText(errors)) : allow();
}
