// gardener-admission-controller's internal domain secret validator
// (pkg/admissioncontroller/webhook/admission/internaldomainsecret): in `garden` (and `seed-<name>`) there is at most
// one Secret labelled `gardener.cloud/role=internal-domain`, it carries the `dns.gardener.cloud/domain` and
// `dns.gardener.cloud/provider` annotations, and neither its domain may change nor may it be deleted while Shoots
// (of that seed) exist — their internal DNS records live under it.
import { Labels } from '@gardener-ts/api';
import {
  allow,
  badRequest,
  forbiddenResource,
  internalError,
  isKind,
  type AdmissionAttributes,
  type AdmissionDecision,
  type KubeObject,
  type Listers,
} from '../attributes.js';
import type { AdmissionPlugin } from '../chain.js';

export const InternalDomainRole = 'internal-domain';
export const DNSProviderAnnotation = 'dns.gardener.cloud/provider';
const DNSDomainAnnotation = 'dns.gardener.cloud/domain';
const SEED_NAMESPACE_PREFIX = 'seed-';

/** Gardener's `GetDomainInfoFromAnnotations`: the domain of a domain Secret, or why its annotations are incomplete. */
export function domainOf(secret: KubeObject): { domain: string } | { error: string } {
  const annotations = secret.metadata?.annotations;
  if (!annotations) return { error: 'domain secret has no annotations' };
  if (!annotations[DNSDomainAnnotation]) return { error: 'missing dns domain annotation on domain secret' };
  if (!annotations[DNSProviderAnnotation]) return { error: 'missing dns provider annotation on domain secret' };
  return { domain: annotations[DNSDomainAnnotation] };
}

const isInternalDomain = (secret: KubeObject | null | undefined) =>
  secret?.metadata?.labels?.[Labels.GardenRole] === InternalDomainRole;

/** kube's `NewConflict` for the group resource `Secret` (409). */
const conflict = (name: string, reason: string): AdmissionDecision => ({
  allowed: false,
  code: 409,
  reason: 'Conflict',
  message: `Operation cannot be fulfilled on Secret "${name}": ${reason}`,
});

async function internalDomainSecretExists(listers: Listers, namespace: string): Promise<boolean> {
  return (await listers.list('v1', 'Secret', namespace)).some(isInternalDomain);
}

async function shootsExist(listers: Listers, seedName: string): Promise<boolean> {
  const shoots = await listers.list('core.gardener.cloud/v1beta1', 'Shoot');
  return shoots.some((s) => !seedName || s.spec?.seedName === seedName);
}

async function validateSecret(a: AdmissionAttributes, listers: Listers): Promise<AdmissionDecision> {
  const secret = (a.operation === 'DELETE' ? a.oldObject : a.object) ?? undefined;
  const namespace = a.namespace ?? secret?.metadata?.namespace ?? '';
  const name = a.name ?? secret?.metadata?.name ?? '';
  const seedName = namespace.startsWith(SEED_NAMESPACE_PREFIX) ? namespace.slice(SEED_NAMESPACE_PREFIX.length) : '';
  if (namespace !== 'garden' && !seedName) return allow();
  switch (a.operation) {
    case 'CREATE': {
      if (await internalDomainSecretExists(listers, namespace))
        return conflict(
          name,
          "cannot create internal domain secret because there can be only one secret with the 'internal-domain' secret role per namespace",
        );
      const info = domainOf(secret!);
      return 'error' in info ? badRequest(info.error) : allow();
    }
    case 'UPDATE': {
      if (
        !isInternalDomain(a.oldObject) &&
        isInternalDomain(secret) &&
        (await internalDomainSecretExists(listers, namespace))
      )
        return conflict(
          name,
          "cannot update secret because there can be only one secret with the 'internal-domain' secret role per namespace",
        );
      const [before, after] = [domainOf(a.oldObject ?? {}), domainOf(secret!)];
      if ('error' in before) return internalError(before.error);
      if ('error' in after) return internalError(after.error);
      if (before.domain !== after.domain && (await shootsExist(listers, seedName)))
        return forbiddenResource(
          'Secret',
          name,
          'cannot change domain because there are still shoots left in the system',
        );
      return allow();
    }
    default:
      return (await shootsExist(listers, seedName))
        ? forbiddenResource(
            'Secret',
            name,
            'cannot delete internal domain secret because there are still shoots left in the system',
          )
        : allow();
  }
}

/**
 * The internal domain secret validator. Its webhook selects Secrets labelled `gardener.cloud/role=internal-domain`
 * (before or after the change); here the label is checked again because Secrets of project namespaces reach the same
 * chain for the kubeconfig secret validator.
 */
export const InternalDomainSecretValidator: AdmissionPlugin = {
  name: 'InternalDomainSecretValidator',
  handles: (a) =>
    isKind(a, '', 'Secret') &&
    !a.subresource &&
    (a.operation === 'CREATE' || a.operation === 'UPDATE' || a.operation === 'DELETE') &&
    (isInternalDomain(a.object) || isInternalDomain(a.oldObject)),
  async validate(a, listers) {
    try {
      return await validateSecret(a, listers);
    } catch (err) {
      return internalError((err as Error).message);
    }
  },
};
