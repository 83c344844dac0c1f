// FinalizerRemoval (gardener-apiserver plugin/pkg/global/finalizerremoval): users cannot take the `gardener`
// finalizer off a Shoot before its deletion succeeded, nor off a SecretBinding or CredentialsBinding that Shoots
// still use.
import { allow, CORE, forbidden, isKind, SECURITY, type AdmissionAttributes } from '../attributes.js';
import type { AdmissionPlugin } from '../chain.js';

export const GardenerFinalizer = 'gardener';

const removed = (a: AdmissionAttributes) =>
  (a.oldObject?.metadata?.finalizers ?? []).includes(GardenerFinalizer) &&
  !(a.object?.metadata?.finalizers ?? []).includes(GardenerFinalizer);

/** The FinalizerRemoval admission plugin. */
export const FinalizerRemoval: AdmissionPlugin = {
  name: 'FinalizerRemoval',
  handles: (a) =>
    a.operation === 'UPDATE' &&
    !a.subresource &&
    (isKind(a, CORE, 'Shoot') || isKind(a, CORE, 'SecretBinding') || isKind(a, SECURITY, 'CredentialsBinding')),
  async validate(a, listers) {
    if (!removed(a)) return allow();
    if (a.kind.kind === 'Shoot') {
      const last = a.oldObject?.status?.lastOperation;
      if (last?.type === 'Delete' && last?.state === 'Succeeded') return allow();
      return forbidden(a, 'shoot deletion has not completed successfully yet');
    }
    const field = a.kind.kind === 'SecretBinding' ? 'secretBindingName' : 'credentialsBindingName';
    const shoots = await listers.list('core.gardener.cloud/v1beta1', 'Shoot', a.namespace);
    if (shoots.some((s) => s.spec?.[field] === a.name)) {
      return forbidden(
        a,
        `finalizer "${GardenerFinalizer}" cannot be removed because the ${a.kind.kind} is still referenced by at least one Shoot`,
      );
    }
    return allow();
  },
};
