// Registers the CertificateSigningRequest controller: every CSR of the garden that is not decided yet.
import { controllerFor, type Controller, type Manager, type Predicate } from '@gardener-ts/controller-runtime';
import { CertificateSigningRequestKind, type CertificateSigningRequest } from '../../kinds.js';
import { CertificateSigningRequestReconciler, csrGarden } from './reconciler.js';

/** The controller's name in logs and metrics (Gardener's). */
export const ControllerName = 'certificatesigningrequest';

/** Creates and updates of CSRs; deletions have nothing left to approve. */
export const csrPredicate: Predicate<CertificateSigningRequest> = (e) => e.type !== 'delete';

/** Adds the controller to `mgr` on its garden cluster. */
export function addCertificateSigningRequestController(
  mgr: Manager,
  deps: { cluster: string; concurrentSyncs: number },
): Controller {
  const garden = mgr.cluster(deps.cluster);
  return controllerFor(mgr, ControllerName)
    .inCluster(deps.cluster)
    .for(CertificateSigningRequestKind, { predicates: [csrPredicate] })
    .withOptions({ maxConcurrentReconciles: deps.concurrentSyncs })
    .complete(new CertificateSigningRequestReconciler(csrGarden(garden.api)));
}
