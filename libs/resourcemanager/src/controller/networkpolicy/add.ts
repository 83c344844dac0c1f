// Wires the NetworkPolicy controller into a manager: it watches Services, the NetworkPolicies it made, Namespaces
// (labels decide which namespaces a Service's selectors pick) and, with an ingress controller selector, Ingresses —
// all in the target cluster.
import {
  controllerFor,
  labelChanged,
  labelSelectorMatcher,
  type Controller,
  type LabelSelector,
  type Manager,
  type Predicate,
  type Request,
} from '@gardener-ts/controller-runtime';
import { fromPolicies, namespaceSelectorsOf } from './annotations.js';
import { IngressKind, NamespaceKind, NetworkPolicyKind, NetworkPolicyReconciler, ServiceKind } from './reconcile.js';
import {
  NetworkingAnnotation,
  NetworkingLabel,
  type Ingress,
  type IngressControllerSelector,
  type NetworkPolicy,
  type Service,
} from './types.js';

export const NetworkPolicyControllerName = 'networkpolicy';

export interface NetworkPolicyControllerConfig {
  concurrentSyncs?: number;
  namespaceSelectors?: LabelSelector[];
  ingressControllerSelector?: IngressControllerSelector;
}

/** What of a Service the policies depend on; an update that changes none of it is ignored. */
function relevantParts(s: Service): string {
  const a = s.metadata?.annotations ?? {};
  return JSON.stringify([
    s.metadata?.deletionTimestamp ?? null,
    s.spec?.selector ?? null,
    s.spec?.ports ?? null,
    a[NetworkingAnnotation.NamespaceSelectors] ?? null,
    a[NetworkingAnnotation.PodLabelSelectorNamespaceAlias] ?? null,
    a[NetworkingAnnotation.FromWorldToPorts] ?? null,
    fromPolicies(a),
  ]);
}

export const servicePredicate: Predicate<Service> = (e) =>
  e.type !== 'update' || relevantParts(e.oldObject) !== relevantParts(e.object);

const ownedPolicy: Predicate<NetworkPolicy> = (e) => {
  const l = e.object.metadata?.labels ?? {};
  return NetworkingLabel.ServiceName in l && NetworkingLabel.ServiceNamespace in l;
};

const ingressRulesChanged: Predicate<Ingress> = (e) =>
  e.type !== 'update' || JSON.stringify(e.oldObject.spec?.rules ?? []) !== JSON.stringify(e.object.spec?.rules ?? []);

/** The Services in `namespace` and those elsewhere whose namespace selectors select it. */
export function servicesForNamespace(
  services: Service[],
  namespace: { name: string; labels?: Record<string, string> },
): Request[] {
  return services
    .filter((s) => {
      if (s.metadata?.namespace === namespace.name) return true;
      try {
        return namespaceSelectorsOf(s).some((sel) => labelSelectorMatcher(sel)(namespace.labels));
      } catch {
        return false; // an unparsable annotation is reported when the Service itself is reconciled
      }
    })
    .map((s) => ({ namespace: s.metadata!.namespace!, name: s.metadata!.name! }));
}

/** The Services an Ingress routes to (in its namespace). */
export function servicesForIngress(ingress: Ingress): Request[] {
  const names = new Set<string>();
  for (const rule of ingress.spec?.rules ?? [])
    for (const p of rule.http?.paths ?? []) if (p.backend?.service) names.add(p.backend.service.name);
  return [...names].map((name) => ({ namespace: ingress.metadata!.namespace!, name }));
}

export function addNetworkPolicyController(
  mgr: Manager,
  cluster: string,
  config: NetworkPolicyControllerConfig,
): Controller {
  const target = mgr.cluster(cluster);
  const services = target.cache.informerFor(ServiceKind);
  let builder = controllerFor(mgr, NetworkPolicyControllerName)
    .inCluster(cluster)
    .for(ServiceKind, { predicates: [servicePredicate] })
    .watches(
      NetworkPolicyKind,
      (p) => [
        {
          namespace: p.metadata?.labels?.[NetworkingLabel.ServiceNamespace] ?? '',
          name: p.metadata?.labels?.[NetworkingLabel.ServiceName] ?? '',
        },
      ],
      { predicates: [ownedPolicy] },
    )
    .watches(
      NamespaceKind,
      (n) => servicesForNamespace(services.store.list(), { name: n.metadata?.name ?? '', labels: n.metadata?.labels }),
      {
        predicates: [labelChanged],
      },
    );
  if (config.ingressControllerSelector)
    builder = builder.watches(IngressKind, servicesForIngress, { predicates: [ingressRulesChanged] });
  return builder.withOptions({ maxConcurrentReconciles: config.concurrentSyncs ?? 5 }).complete(
    new NetworkPolicyReconciler({
      client: target.client,
      namespaceSelectors: config.namespaceSelectors,
      ingressControllerSelector: config.ingressControllerSelector,
    }),
  );
}
