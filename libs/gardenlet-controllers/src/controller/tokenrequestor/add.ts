// The gardenlet's TokenRequestor (seed 000): gardener-resource-manager's token requestor (reused from
// @gardener-ts/resourcemanager) for Secrets in the seed labelled `resources.gardener.cloud/class=garden`, requesting
// tokens from the garden for ServiceAccounts always in the seed's namespace there (`seed-<name>`); the
// `serviceaccount.resources.gardener.cloud/namespace` annotation is not respected.
import { controllerFor, type Controller, type Manager, type Predicate } from '@gardener-ts/controller-runtime';
import { isTokenRequestorSecret, TokenRequestor } from '@gardener-ts/resourcemanager';
import { Kinds } from '@gardener-ts/controller-runtime';

/** The controller's name. */
export const ControllerName = 'token-requestor';
/** The class of the Secrets the gardenlet's instance serves. */
export const TOKEN_REQUESTOR_CLASS = 'garden';

/** The seed's namespace in the garden. */
export const seedNamespace = (seedName: string) => `seed-${seedName}`;

type SecretLike = { metadata?: { labels?: Record<string, string> } };
const relevant = (s: SecretLike) => isTokenRequestorSecret(s, TOKEN_REQUESTOR_CLASS);

/** Creates and updates of token-requestor Secrets of class garden (and updates of Secrets that were). */
export const tokenRequestorSecret: Predicate<SecretLike & { apiVersion?: string; kind?: string }> = (e) =>
  e.type === 'update' ? relevant(e.object) || relevant(e.oldObject) : e.type === 'create' && relevant(e.object);

/** Adds the gardenlet's TokenRequestor. */
export function addTokenRequestorController(
  mgr: Manager,
  deps: { seedName: string; gardenCluster: string; seedCluster: string; concurrentSyncs: number },
): Controller {
  const seed = mgr.cluster(deps.seedCluster);
  return controllerFor(mgr, ControllerName)
    .inCluster(deps.seedCluster)
    .for(Kinds.Secret, { predicates: [tokenRequestorSecret] })
    .withOptions({ maxConcurrentReconciles: Math.max(1, deps.concurrentSyncs) })
    .complete(
      new TokenRequestor({
        source: seed.client,
        target: mgr.cluster(deps.gardenCluster).api,
        class: TOKEN_REQUESTOR_CLASS,
        serviceAccountNamespace: seedNamespace(deps.seedName),
      }),
    );
}
