// Registers the token-requestor controller: token-requestor Secrets in the source cluster.
import {
  controllerFor,
  type Cluster,
  type Controller,
  type Manager,
  type Predicate,
} from '@gardener-ts/controller-runtime';
import { isTokenRequestorSecret } from './renewal.js';
import { SecretKind, TokenRequestor, type SecretObject } from './reconcile.js';

export const TokenRequestorControllerName = 'token-requestor';

export interface AddTokenRequestorOptions {
  sourceCluster: string;
  source: Cluster;
  target: Cluster;
  concurrentSyncs: number;
  class?: string;
  /** The target cluster's CA bundle (PEM) for `inject-ca-bundle`. */
  caData?: string;
}

export function addTokenRequestor(mgr: Manager, o: AddTokenRequestorOptions): Controller {
  const relevant = (s: SecretObject) => isTokenRequestorSecret(s, o.class);
  // Updates count if the Secret is or was relevant; deletions need nothing.
  const predicate: Predicate<SecretObject> = (e) =>
    e.type === 'update' ? relevant(e.object) || relevant(e.oldObject) : e.type === 'create' && relevant(e.object);
  return controllerFor(mgr, TokenRequestorControllerName)
    .inCluster(o.sourceCluster)
    .for(SecretKind, { predicates: [predicate] })
    .withOptions({ maxConcurrentReconciles: o.concurrentSyncs })
    .complete(new TokenRequestor({ source: o.source.client, target: o.target.api, class: o.class, caData: o.caData }));
}
