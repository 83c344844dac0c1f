// The NetworkPolicy controller's reconciler: for a Service in a handled namespace, writes the policies
// `desiredPolicies` computes and deletes the ones labelled for the Service that are no longer desired (all of them
// when the Service is gone, terminating, without pod selector, or its namespace is not selected).
import {
  isNotFound,
  kind,
  labelSelectorMatcher,
  type Client,
  type LabelSelector,
  type ReconcileContext,
  type Request,
} from '@gardener-ts/controller-runtime';
import { namespaceSelectorsOf } from './annotations.js';
import { desiredPolicies } from './desired.js';
import {
  NetworkingLabel,
  type Ingress,
  type IngressControllerSelector,
  type NetworkPolicy,
  type Service,
} from './types.js';

export const ServiceKind = kind<Service>('v1', 'Service');
export const NetworkPolicyKind = kind<NetworkPolicy>('networking.k8s.io/v1', 'NetworkPolicy');
export const IngressKind = kind<Ingress>('networking.k8s.io/v1', 'Ingress');
export const NamespaceKind = kind('v1', 'Namespace');

export interface NetworkPolicyReconcilerOptions {
  /** The target cluster's client (reads from its cache). */
  client: Client;
  /** `controllers.networkPolicy.namespaceSelectors`: only Services in matching namespaces (all if empty). */
  namespaceSelectors?: LabelSelector[];
  ingressControllerSelector?: IngressControllerSelector;
}

const sameJSON = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const isSubset = (want: Record<string, string> = {}, have: Record<string, string> = {}) =>
  Object.entries(want).every(([k, v]) => have[k] === v);

export class NetworkPolicyReconciler {
  private readonly handles: (labels: Record<string, string> | undefined) => boolean;

  constructor(private readonly o: NetworkPolicyReconcilerOptions) {
    const matchers = (o.namespaceSelectors ?? []).map(labelSelectorMatcher);
    this.handles = (labels) => matchers.length === 0 || matchers.some((m) => m(labels));
  }

  async reconcile({ namespace, name }: Request, ctx: ReconcileContext): Promise<void> {
    const { client } = this.o;
    const existing = (
      await client.list(NetworkPolicyKind, {
        labelSelector: { [NetworkingLabel.ServiceName]: name, [NetworkingLabel.ServiceNamespace]: namespace ?? '' },
      })
    ).items;
    const ns = await client.get(NamespaceKind, { name: namespace ?? '' }).catch((err) => {
      if (isNotFound(err)) return undefined;
      throw err;
    });
    // A Service in a terminating (or unknown) namespace or one not selected by the configuration gets no policies.
    const handled = ns !== undefined && !ns.metadata?.deletionTimestamp && this.handles(ns.metadata?.labels);
    const service = handled
      ? await client.get(ServiceKind, { namespace, name }).catch((err) => {
          if (isNotFound(err)) return undefined;
          throw err;
        })
      : undefined;

    let desired: NetworkPolicy[] = [];
    if (service && !service.metadata?.deletionTimestamp) {
      desired = desiredPolicies({
        service,
        namespaces: await this.selectedNamespaces(service),
        ingresses: this.o.ingressControllerSelector ? (await client.list(IngressKind, { namespace })).items : [],
        ingressController: this.o.ingressControllerSelector,
        onShortenedLabelKey: (original, shortened) =>
          ctx.log.warn(
            { original, shortened },
            'Usual pod label selector has at least one key exceeding 63 characters and had to be mutated - consider shortening the namespace name or the service name',
          ),
      });
    }

    const wanted = new Set(desired.map((p) => `${p.metadata?.namespace}/${p.metadata?.name}`));
    const stale = existing.filter((p) => !wanted.has(`${p.metadata?.namespace}/${p.metadata?.name}`));
    const results = await Promise.allSettled([
      ...desired.map((p) => this.write(p, ctx)),
      ...stale.map(async (p) => {
        ctx.log.info({ networkPolicy: `${p.metadata?.namespace}/${p.metadata?.name}` }, 'Deleting stale NetworkPolicy');
        await client
          .delete(NetworkPolicyKind, { namespace: p.metadata?.namespace, name: p.metadata?.name ?? '' })
          .catch((err) => {
            if (!isNotFound(err)) throw err;
          });
      }),
    ]);
    const errors = results.flatMap((r) => (r.status === 'rejected' ? [(r.reason as Error).message] : []));
    if (errors.length > 0) throw new Error(errors.join('; '));
  }

  /** The non-terminating namespaces the Service's namespace selectors select. */
  private async selectedNamespaces(service: Service): Promise<string[]> {
    const selectors = namespaceSelectorsOf(service).map(labelSelectorMatcher);
    const names = new Set<string>();
    if (selectors.length > 0) {
      for (const n of (await this.o.client.list(NamespaceKind)).items) {
        if (!n.metadata?.deletionTimestamp && selectors.some((m) => m(n.metadata?.labels)))
          names.add(n.metadata?.name ?? '');
      }
    }
    return [...names];
  }

  /** Creates the policy, or updates it when its spec, labels or description differ; other metadata is kept. */
  private async write(desired: NetworkPolicy, ctx: ReconcileContext): Promise<void> {
    const key = { namespace: desired.metadata?.namespace, name: desired.metadata?.name ?? '' };
    const current = await this.o.client.get(NetworkPolicyKind, key).catch((err) => {
      if (isNotFound(err)) return undefined;
      throw err;
    });
    if (!current) {
      ctx.log.info({ networkPolicy: `${key.namespace}/${key.name}` }, 'Creating NetworkPolicy');
      await this.o.client.create(desired);
      return;
    }
    if (
      sameJSON(normalize(current.spec), normalize(desired.spec)) &&
      isSubset(desired.metadata?.labels, current.metadata?.labels) &&
      isSubset(desired.metadata?.annotations, current.metadata?.annotations)
    ) {
      return;
    }
    const updated = structuredClone(current) as NetworkPolicy;
    updated.metadata = {
      ...updated.metadata,
      labels: { ...updated.metadata?.labels, ...desired.metadata?.labels },
      annotations: { ...updated.metadata?.annotations, ...desired.metadata?.annotations },
    };
    updated.spec = desired.spec;
    await this.o.client.update(updated);
  }
}

/** A spec with object keys sorted, for comparing what the API server returns with what is desired. */
function normalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalize);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([k, v]) => [k, normalize(v)]),
    );
  }
  return value;
}
