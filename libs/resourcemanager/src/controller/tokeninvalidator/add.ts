// Registers the token-invalidator controller on the target cluster: ServiceAccount token Secrets, and the Secrets of
// ServiceAccounts whose `automountServiceAccountToken` or skip label changes.
import {
  controllerFor,
  type Cluster,
  type Controller,
  type Manager,
  type PartialObjectMetadata,
  type Predicate,
  type Request,
} from '@gardener-ts/controller-runtime';
import { SecretMetadataKind, ServiceAccountKind, TokenInvalidator, type ServiceAccountObject } from './reconcile.js';
import { ServiceAccountNameAnnotation, TokenInvalidatorLabel } from './rules.js';

export const TokenInvalidatorControllerName = 'token-invalidator';

export interface AddTokenInvalidatorOptions {
  targetCluster: string;
  target: Cluster;
  concurrentSyncs: number;
}

export function addTokenInvalidator(mgr: Manager, o: AddTokenInvalidatorOptions): Controller {
  const secrets = o.target.cache.informerFor(SecretMetadataKind);
  const secretPredicate: Predicate<PartialObjectMetadata> = (e) =>
    e.type !== 'delete' && !!e.object.metadata?.annotations?.[ServiceAccountNameAnnotation];
  const saPredicate: Predicate<ServiceAccountObject> = (e) =>
    e.type === 'update' &&
    (e.oldObject.automountServiceAccountToken !== e.object.automountServiceAccountToken ||
      e.oldObject.metadata?.labels?.[TokenInvalidatorLabel.Skip] !==
        e.object.metadata?.labels?.[TokenInvalidatorLabel.Skip]);
  // The Secrets the ServiceAccount lists, and those that name it in their annotation (clusters without `.secrets`).
  const secretsOf = (sa: ServiceAccountObject): Request[] => {
    const namespace = sa.metadata?.namespace ?? '';
    const names = new Set<string>((sa.secrets ?? []).map((s) => s.name ?? '').filter(Boolean));
    for (const s of secrets.store.list()) {
      if (
        s.metadata?.namespace === namespace &&
        s.metadata?.annotations?.[ServiceAccountNameAnnotation] === sa.metadata?.name
      )
        names.add(s.metadata?.name ?? '');
    }
    return [...names].map((name) => ({ namespace, name }));
  };
  return controllerFor(mgr, TokenInvalidatorControllerName)
    .inCluster(o.targetCluster)
    .for(SecretMetadataKind, { predicates: [secretPredicate] })
    .watches(ServiceAccountKind, secretsOf, { predicates: [saPredicate] })
    .withOptions({ maxConcurrentReconciles: o.concurrentSyncs })
    .complete(new TokenInvalidator({ reader: o.target.client, api: o.target.api }));
}
