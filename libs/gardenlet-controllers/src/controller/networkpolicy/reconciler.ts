// Gardener's NetworkPolicy reconciler (pkg/controller/networkpolicy/reconciler.go) for the gardenlet's seed: for one
// namespace, the general NetworkPolicies it gets (`policies.ts`) are created or brought back in line, the others
// deleted. Namespaces being deleted or not Active are left alone.
import { isDeepStrictEqual } from 'node:util';
import { Annotations, type Selector } from '@gardener-ts/api';
import {
  ignoreNotFound,
  Kinds,
  wrapError,
  type Client,
  type ReconcileContext,
  type Request,
} from '@gardener-ts/controller-runtime';
import { ClusterKind } from '../bastion/kinds.js';
import {
  desiredPolicy,
  PolicyName,
  PolicyNames,
  policiesForNamespace,
  shootNetworksOf,
  ShootNamespacePrefix,
  type EndpointSubset,
  type NetworkPolicy,
  type PolicyInputs,
  type RuntimeNetworks,
} from './policies.js';

export interface NetworkPolicyReconcilerDeps {
  /** The seed: cached reads (Namespaces, NetworkPolicies, Endpoints, Clusters) and writes. */
  seed: Pick<Client, 'get' | 'create' | 'update' | 'delete'>;
  /** The seed's networks (`seedConfig.spec.networks`). */
  networks: RuntimeNetworks;
  /** `controllers.networkPolicy.additionalNamespaceSelectors`: namespaces matching one get every policy. */
  additionalNamespaceSelectors?: readonly Selector[];
  /** The resolved addresses of the API server's hostname (`hostname-resolver.ts`): further runtime API server peers. */
  resolver?: { subsets(): EndpointSubset[] };
}

interface NamespaceLike {
  metadata?: { name?: string; labels?: Record<string, string>; deletionTimestamp?: string };
  status?: { phase?: string };
}

/** Drops empty arrays and undefined fields, as the API server omits them, so that stored and desired specs compare. */
function normalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalize);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (v === undefined || (Array.isArray(v) && v.length === 0)) continue;
      out[k] = normalize(v);
    }
    return out;
  }
  return value;
}

/** Whether a stored policy already has the desired description and spec. */
export function policyUpToDate(existing: NetworkPolicy, desired: NetworkPolicy): boolean {
  const key = Annotations.GardenerDescription;
  return (
    existing.metadata?.annotations?.[key] === desired.metadata?.annotations?.[key] &&
    isDeepStrictEqual(normalize(existing.spec), normalize(desired.spec))
  );
}

/** Maintains the general NetworkPolicies of one namespace. */
export class NetworkPolicyReconciler {
  constructor(private readonly deps: NetworkPolicyReconcilerDeps) {}

  async reconcile(req: Request, ctx: ReconcileContext): Promise<void> {
    const namespace = (await this.deps.seed.get(Kinds.Namespace, { name: req.name }).catch(ignoreNotFound)) as
      NamespaceLike | undefined;
    if (!namespace) {
      ctx.log.debug('Object is gone, stop reconciling');
      return;
    }
    if (namespace.metadata?.deletionTimestamp) {
      ctx.log.debug('Skip NetworkPolicy reconciliation because namespace has a deletion timestamp');
      return;
    }
    if (namespace.status?.phase !== 'Active') {
      ctx.log.debug("Skip NetworkPolicy reconciliation because namespace is not in 'Active' phase");
      return;
    }
    const wanted = new Set(policiesForNamespace(namespace.metadata?.labels, this.deps.additionalNamespaceSelectors));
    const inputs: PolicyInputs = { networks: this.deps.networks };
    for (const name of PolicyNames) {
      const key = { namespace: req.name, name };
      try {
        if (!wanted.has(name)) {
          await this.deleteIfPresent(key, ctx);
          continue;
        }
        if (name === PolicyName.AllowToRuntimeAPIServer) inputs.apiServerSubsets ??= await this.apiServerSubsets();
        if (name === PolicyName.AllowToPrivateNetworks && req.name.startsWith(ShootNamespacePrefix)) {
          // The shoot's own networks are excluded: its Cluster must exist (Gardener fails without it).
          const cluster = await this.deps.seed.get(ClusterKind, { name: req.name });
          const shootNetworks = shootNetworksOf(cluster);
          if (shootNetworks) inputs.shootNetworks = shootNetworks;
        }
        await this.apply(desiredPolicy(name, req.name, inputs), ctx);
      } catch (err) {
        throw wrapError(err, `failed to reconcile NetworkPolicy ${req.name}/${name}`);
      }
    }
  }

  private async apiServerSubsets(): Promise<EndpointSubset[]> {
    const endpoints = (await this.deps.seed.get(Kinds.Endpoints, { namespace: 'default', name: 'kubernetes' })) as {
      subsets?: EndpointSubset[];
    };
    return [...(endpoints.subsets ?? []), ...(this.deps.resolver?.subsets() ?? [])];
  }

  private async deleteIfPresent(key: { namespace: string; name: string }, ctx: ReconcileContext): Promise<void> {
    const existing = await this.deps.seed.get(Kinds.NetworkPolicy, key).catch(ignoreNotFound);
    if (!existing) return;
    ctx.log.info({ networkPolicy: `${key.namespace}/${key.name}` }, 'Deleting NetworkPolicy');
    await this.deps.seed.delete(Kinds.NetworkPolicy, key).catch(ignoreNotFound);
  }

  private async apply(desired: NetworkPolicy, ctx: ReconcileContext): Promise<void> {
    const key = { namespace: desired.metadata!.namespace!, name: desired.metadata!.name! };
    const existing = (await this.deps.seed.get(Kinds.NetworkPolicy, key).catch(ignoreNotFound)) as
      NetworkPolicy | undefined;
    if (!existing) {
      ctx.log.info({ networkPolicy: `${key.namespace}/${key.name}` }, 'Creating NetworkPolicy');
      await this.deps.seed.create(desired);
      return;
    }
    if (policyUpToDate(existing, desired)) return;
    ctx.log.info({ networkPolicy: `${key.namespace}/${key.name}` }, 'Reconciling NetworkPolicy');
    // The spec is replaced, the description set; other metadata (labels, other annotations) stays.
    await this.deps.seed.update({
      ...existing,
      metadata: {
        ...existing.metadata,
        annotations: { ...existing.metadata?.annotations, ...desired.metadata?.annotations },
      },
      spec: desired.spec,
    } as NetworkPolicy);
  }
}
