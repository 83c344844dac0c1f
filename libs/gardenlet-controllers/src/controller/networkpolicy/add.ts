// Wiring of the NetworkPolicy controller (Gardener's pkg/gardenlet/controller/networkpolicy/add.go over
// pkg/controller/networkpolicy/add.go), all in the seed: Namespaces (created or updated), the `default/kubernetes`
// Endpoints (every handled namespace, so `allow-to-runtime-apiserver` follows the API server's addresses), the
// NetworkPolicies it owns (by name: drift is reverted, deleted ones recreated) and Clusters whose shoot networks
// changed (the namespace of the same name, for `allow-to-private-networks`); with a seed API server addressed by
// hostname, every handled namespace again when its resolved addresses change.
import { isDeepStrictEqual } from 'node:util';
import { labelSelectorAsSelector, type LabelSelectorObject, type Selector } from '@gardener-ts/api';
import {
  controllerFor,
  Kinds,
  type Controller,
  type KubernetesObject,
  type Manager,
  type Predicate,
  type Request,
  wrapError,
} from '@gardener-ts/controller-runtime';
import { ClusterKind, type Cluster } from '../bastion/kinds.js';
import { isHandledNamespace, PolicyNames, type RuntimeNetworks } from './policies.js';
import { HostnameResolver, type APIServerHost } from './hostname-resolver.js';
import { NetworkPolicyReconciler } from './reconciler.js';

/** The controller's name (Gardener's). */
export const ControllerName = 'networkpolicy';

/** Gardener's default workers (`controllers.networkPolicy.concurrentSyncs`). */
export const DefaultConcurrentSyncs = 5;

/** Namespaces trigger on creation and update only (Gardener's `ForEventTypes(Create, Update)`). */
export const namespaceCreatedOrUpdated: Predicate<KubernetesObject> = (e) => e.type === 'create' || e.type === 'update';

/** Gardener's IsKubernetesEndpoint: the `default/kubernetes` Endpoints. */
export const isKubernetesEndpoints: Predicate<KubernetesObject> = (e) =>
  e.object.metadata?.namespace === 'default' && e.object.metadata?.name === 'kubernetes';

/** Gardener's NetworkPolicyPredicate: policies with the name of one this controller owns. */
export const isOwnedPolicyName: Predicate<KubernetesObject> = (e) =>
  (PolicyNames as readonly string[]).includes(e.object.metadata?.name ?? '');

/** A policy event enqueues its namespace (Gardener's MapObjectToNamespace). */
export const mapObjectToNamespace = (obj: KubernetesObject): Request[] => [
  { namespace: '', name: obj.metadata?.namespace ?? '' },
];

/** A Cluster event enqueues the namespace of the same name (Gardener's MapObjectToName). */
export const mapObjectToName = (obj: KubernetesObject): Request[] => [
  { namespace: '', name: obj.metadata?.name ?? '' },
];

/** The requests of every namespace that gets one of the policies (Gardener's MapToNamespaces). */
export function handledNamespaces(
  namespaces: readonly KubernetesObject[],
  additionalNamespaceSelectors: readonly Selector[] = [],
): Request[] {
  return namespaces
    .filter((ns) => isHandledNamespace(ns.metadata?.labels, additionalNamespaceSelectors))
    .map((ns) => ({ namespace: '', name: ns.metadata!.name! }));
}

/**
 * `controllers.networkPolicy.additionalNamespaceSelectors` as selectors; throws naming the selector that does not
 * convert (Gardener fails adding the controller so).
 */
export function parseNamespaceSelectors(selectors: readonly LabelSelectorObject[] | undefined): Selector[] {
  return (selectors ?? []).map((selector) => {
    try {
      return labelSelectorAsSelector(selector);
    } catch (err) {
      throw wrapError(err, `failed parsing namespace selector ${JSON.stringify(selector)} to a label selector`);
    }
  });
}

type ShootNetworking = {
  spec?: { networking?: { pods?: string; services?: string; nodes?: string } };
  status?: { networking?: unknown };
};
const shootOf = (c: Cluster) => c.spec?.shoot as ShootNetworking | undefined;

/**
 * Gardener's ClusterPredicate: updates only, when the shoot has networking and its `spec.networking` pods, services
 * or nodes or its `status.networking` changed. (Gardener compares only the services of workerless shoots; here any
 * of the networks: a superset of its triggers.)
 */
export const clusterNetworksChanged: Predicate<Cluster> = (e) => {
  if (e.type !== 'update') return false;
  const [shoot, old] = [shootOf(e.object), shootOf(e.oldObject)];
  if (!shoot?.spec?.networking || !old) return false;
  const pick = (s: ShootNetworking | undefined) => ({
    pods: s?.spec?.networking?.pods,
    services: s?.spec?.networking?.services,
    nodes: s?.spec?.networking?.nodes,
    status: s?.status?.networking,
  });
  return !isDeepStrictEqual(pick(shoot), pick(old));
};

export interface NetworkPolicyControllerDeps {
  seedCluster: string;
  /** `controllers.networkPolicy.concurrentSyncs` (Gardener's default {@link DefaultConcurrentSyncs}). */
  concurrentSyncs: number;
  networks: RuntimeNetworks;
  /** `controllers.networkPolicy.additionalNamespaceSelectors`: further namespaces that get every policy. */
  additionalNamespaceSelectors?: readonly LabelSelectorObject[];
  /** The seed's API server when addressed by a hostname ({@link apiServerHostOf}): resolved periodically. */
  apiServerHost?: APIServerHost;
}

/** Adds the NetworkPolicy controller. */
export function addNetworkPolicyController(mgr: Manager, deps: NetworkPolicyControllerDeps): Controller {
  const additionalNamespaceSelectors = parseNamespaceSelectors(deps.additionalNamespaceSelectors);
  const seed = mgr.cluster(deps.seedCluster);
  const namespaces = seed.cache.informerFor(Kinds.Namespace);
  const allHandled = (): Request[] => handledNamespaces(namespaces.store.list(), additionalNamespaceSelectors);
  const resolver = deps.apiServerHost
    ? new HostnameResolver(deps.apiServerHost, { log: mgr.log.child({ controller: ControllerName }) })
    : undefined;
  const builder = controllerFor(mgr, ControllerName)
    .inCluster(deps.seedCluster)
    .for(Kinds.Namespace, { predicates: [namespaceCreatedOrUpdated] })
    .watches(Kinds.Endpoints, allHandled, { predicates: [isKubernetesEndpoints] })
    .watches(Kinds.NetworkPolicy, mapObjectToNamespace, { predicates: [isOwnedPolicyName] })
    .watches(ClusterKind, mapObjectToName, { predicates: [clusterNetworksChanged] });
  if (resolver) builder.watchesRawSource(resolver.source(allHandled));
  return builder.withOptions({ maxConcurrentReconciles: deps.concurrentSyncs }).complete(
    new NetworkPolicyReconciler({
      seed: seed.client,
      networks: deps.networks,
      additionalNamespaceSelectors,
      ...(resolver ? { resolver } : {}),
    }),
  );
}
