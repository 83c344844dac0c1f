// Registers the SecretBinding and CredentialsBinding controllers: the bindings, and Shoot deletions (a binding waiting
// for its last Shoot goes on).
import type { Shoot } from '@gardener-ts/api';
import { controllerFor, type Controller, type Manager, type Request } from '@gardener-ts/controller-runtime';
import { CredentialsBindingKind, SecretBindingKind, ShootKind } from '../../kinds.js';
import { BindingReconciler } from './reconciler.js';

/** Adds the controller of one binding kind to `mgr` on its garden cluster. */
export function addBindingController(
  mgr: Manager,
  kind: 'SecretBinding' | 'CredentialsBinding',
  deps: { cluster: string; concurrentSyncs: number },
): Controller {
  const garden = mgr.cluster(deps.cluster);
  const bindingOf = (shoot: Shoot): Request[] => {
    const name = kind === 'SecretBinding' ? shoot.spec.secretBindingName : shoot.spec.credentialsBindingName;
    return name ? [{ namespace: shoot.metadata?.namespace ?? '', name }] : [];
  };
  const builder =
    kind === 'SecretBinding'
      ? controllerFor(mgr, 'secretbinding').inCluster(deps.cluster).for(SecretBindingKind)
      : controllerFor(mgr, 'credentialsbinding').inCluster(deps.cluster).for(CredentialsBindingKind);
  return builder
    .watches(ShootKind, bindingOf, { predicates: [(e) => e.type === 'delete'] })
    .withOptions({ maxConcurrentReconciles: deps.concurrentSyncs })
    .complete(new BindingReconciler(garden.client, kind, garden.api));
}
