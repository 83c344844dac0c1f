// kube's quota evaluators and resource-list arithmetic (k8s.io/apiserver/pkg/quota/v1 and pkg/quota/v1/evaluator/core),
// pure: what an object of a resource charges to a ResourceQuota (`count/<plural>.<group>`, `count/<plural>` for core,
// the legacy `pods`, `services`, `secrets`, `configmaps`, `persistentvolumeclaims`, `replicationcontrollers`,
// `resourcequotas` names, services' `services.loadbalancers`/`services.nodeports`, claims' `requests.storage` and
// `<class>.storageclass.storage.k8s.io/...`), and the check of a request's usage against one quota with kube's
// `exceeded quota: ...` message. Compute resources of pods (`requests.cpu`, `limits.memory`, ...) are not evaluated.
import { Quantity, tryParseQuantity } from '@gardener-ts/api';
import type { KubeObject } from '../storage/types.js';

/** A resource list (kube's corev1.ResourceList): resource name → quantity. */
export type ResourceList = Map<string, Quantity>;

/** The group and plural of the resource a request is for (kube's admission GroupResource). */
export interface GroupResource {
  group: string;
  resource: string;
}

/** kube's ObjectCountQuotaResourceNameFor: `count/<plural>.<group>`, `count/<plural>` in the core group. */
export function objectCountName({ group, resource }: GroupResource): string {
  return group ? `count/${resource}.${group}` : `count/${resource}`;
}

/** The names kube charged before `count/*` existed; each resource charges 1 under it as under its count name. */
const LEGACY_COUNT_NAMES: Record<string, string> = {
  pods: 'pods',
  services: 'services',
  secrets: 'secrets',
  configmaps: 'configmaps',
  persistentvolumeclaims: 'persistentvolumeclaims',
  replicationcontrollers: 'replicationcontrollers',
  resourcequotas: 'resourcequotas',
};
const SERVICES_LOAD_BALANCERS = 'services.loadbalancers';
const SERVICES_NODE_PORTS = 'services.nodeports';
const REQUESTS_STORAGE = 'requests.storage';
const STORAGE_CLASS_SUFFIX = '.storageclass.storage.k8s.io/';
const STORAGE_CLASS_ANNOTATION = 'volume.beta.kubernetes.io/storage-class';

const isCore = (gr: GroupResource, resource: string) => gr.group === '' && gr.resource === resource;

/** Resources kube's quota system never counts (its ignored resources). */
export function quotaIgnores(gr: GroupResource): boolean {
  return isCore(gr, 'events');
}

/**
 * kube's evaluator `Handles`: object counts charge on CREATE only; services (type changes) and persistent volume
 * claims (resizes) are also charged the increase of an UPDATE.
 */
export function quotaHandles(gr: GroupResource, operation: string): boolean {
  if (quotaIgnores(gr)) return false;
  if (operation === 'CREATE') return true;
  return operation === 'UPDATE' && (isCore(gr, 'services') || isCore(gr, 'persistentvolumeclaims'));
}

/** kube's evaluator `MatchingResources`: whether a quota's resource name is one this resource's objects charge. */
export function chargesTo(gr: GroupResource, name: string): boolean {
  if (quotaIgnores(gr)) return false;
  if (name === objectCountName(gr)) return true;
  if (gr.group === '' && LEGACY_COUNT_NAMES[gr.resource] === name) return true;
  if (isCore(gr, 'services')) return name === SERVICES_LOAD_BALANCERS || name === SERVICES_NODE_PORTS;
  if (isCore(gr, 'persistentvolumeclaims')) {
    if (name === REQUESTS_STORAGE) return true;
    const at = name.indexOf(STORAGE_CLASS_SUFFIX);
    const rest = at > 0 ? name.slice(at + STORAGE_CLASS_SUFFIX.length) : '';
    return rest === REQUESTS_STORAGE || rest === 'persistentvolumeclaims';
  }
  return false;
}

/**
 * The resource whose objects make up a quota resource name's usage (kube's evaluators, looked up by the name they
 * charge); undefined for names no evaluator here computes (pods' compute resources, extended resources).
 */
export function resourceOfName(name: string): GroupResource | undefined {
  if (name.startsWith('count/')) {
    const rest = name.slice('count/'.length);
    const dot = rest.indexOf('.');
    if (!rest || dot === 0) return undefined;
    return dot < 0 ? { group: '', resource: rest } : { group: rest.slice(dot + 1), resource: rest.slice(0, dot) };
  }
  const legacy = Object.keys(LEGACY_COUNT_NAMES).find((resource) => LEGACY_COUNT_NAMES[resource] === name);
  if (legacy) return { group: '', resource: legacy };
  if (name === SERVICES_LOAD_BALANCERS || name === SERVICES_NODE_PORTS) return { group: '', resource: 'services' };
  const claims = { group: '', resource: 'persistentvolumeclaims' };
  return chargesTo(claims, name) ? claims : undefined;
}

const ONE = Quantity.of(1);

/** kube's storagehelpers.GetPersistentVolumeClaimClass: the beta annotation wins over spec.storageClassName. */
function claimClass(claim: KubeObject): string {
  const annotated = claim.metadata?.annotations?.[STORAGE_CLASS_ANNOTATION];
  if (typeof annotated === 'string') return annotated;
  return typeof claim.spec?.storageClassName === 'string' ? claim.spec.storageClassName : '';
}

/** The larger of the storage requested and the storage allocated (a resize in progress), as kube charges it. */
function claimStorage(claim: KubeObject): Quantity | undefined {
  const requested = quantityOf(claim.spec?.resources?.requests?.storage);
  const allocated = quantityOf(claim.status?.allocatedResources?.storage);
  if (requested && allocated) return allocated.cmp(requested) > 0 ? allocated : requested;
  return requested ?? allocated;
}

function quantityOf(value: unknown): Quantity | undefined {
  return typeof value === 'string' || typeof value === 'number' ? tryParseQuantity(value) : undefined;
}

/** kube's evaluator `Usage`: what one object of the resource charges. Terminal pods charge nothing. */
export function objectUsage(gr: GroupResource, object: KubeObject): ResourceList {
  const usage: ResourceList = new Map();
  if (quotaIgnores(gr)) return usage;
  if (isCore(gr, 'pods') && ['Succeeded', 'Failed'].includes(object.status?.phase)) return usage;
  usage.set(objectCountName(gr), ONE);
  const legacy = gr.group === '' ? LEGACY_COUNT_NAMES[gr.resource] : undefined;
  if (legacy) usage.set(legacy, ONE);
  if (isCore(gr, 'services')) {
    const spec = object.spec ?? {};
    const ports: KubeObject[] = Array.isArray(spec.ports) ? spec.ports : [];
    if (spec.type === 'NodePort') usage.set(SERVICES_NODE_PORTS, Quantity.of(ports.length));
    if (spec.type === 'LoadBalancer') {
      // Without node port allocation only the ports that name a node port use one.
      const nodePorts =
        spec.allocateLoadBalancerNodePorts === false ? ports.filter((p) => p.nodePort).length : ports.length;
      usage.set(SERVICES_NODE_PORTS, Quantity.of(nodePorts));
      usage.set(SERVICES_LOAD_BALANCERS, ONE);
    }
  }
  if (isCore(gr, 'persistentvolumeclaims')) {
    const storageClass = claimClass(object);
    if (storageClass) usage.set(`${storageClass}${STORAGE_CLASS_SUFFIX}persistentvolumeclaims`, ONE);
    const storage = claimStorage(object);
    if (storage) {
      usage.set(REQUESTS_STORAGE, storage);
      if (storageClass) usage.set(`${storageClass}${STORAGE_CLASS_SUFFIX}${REQUESTS_STORAGE}`, storage);
    }
  }
  return usage;
}

/** kube's quota.Add. */
export function addLists(a: ResourceList, b: ResourceList): ResourceList {
  const sum = new Map(a);
  for (const [name, q] of b) sum.set(name, sum.get(name)?.add(q) ?? q);
  return sum;
}

/** kube's quota.SubtractWithNonNegativeResult: a - b per name of a, never below zero. */
export function subtractNonNegative(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = new Map();
  for (const [name, q] of a) {
    const d = b.has(name) ? q.sub(b.get(name)!) : q;
    out.set(name, d.sign() < 0 ? Quantity.of(0) : d);
  }
  return out;
}

/** kube's quota.Mask: only the given names. */
export function maskList(list: ResourceList, names: Iterable<string>): ResourceList {
  const out: ResourceList = new Map();
  for (const name of names) {
    const q = list.get(name);
    if (q) out.set(name, q);
  }
  return out;
}

/** kube's quota.RemoveZeros. */
export function removeZeros(list: ResourceList): ResourceList {
  return new Map([...list].filter(([, q]) => !q.isZero()));
}

/** kube's prettyPrint of a resource list: `name=quantity` sorted by name, comma-separated. */
export function prettyPrint(list: ResourceList): string {
  return [...list.keys()]
    .sort()
    .map((name) => `${name}=${list.get(name)!.toString()}`)
    .join(',');
}

/** A ResourceList from a quota's `hard` or `used` map; values that are no quantity are left out. */
export function parseResourceList(map: unknown): ResourceList {
  const out: ResourceList = new Map();
  if (typeof map !== 'object' || map === null) return out;
  for (const [name, value] of Object.entries(map)) {
    const q = quantityOf(value);
    if (q) out.set(name, q);
  }
  return out;
}

/** The JSON form of a ResourceList (`status.used`). */
export function formatResourceList(list: ResourceList): Record<string, string> {
  return Object.fromEntries([...list].map(([name, q]) => [name, q.toString()]));
}

export type QuotaCheck = { allowed: true; used: ResourceList } | { allowed: false; message: string };

/**
 * One quota against a request's usage (kube's CheckRequest for one pertinent quota): the request's usage of the
 * quota's hard names is added to `used`; any name then above its hard limit refuses the request with kube's message
 * `exceeded quota: <quota>, requested: ..., used: ..., limited: ...` (only the exceeded names listed). Admitted: the
 * quota's new usage.
 */
export function checkQuota(name: string, hard: ResourceList, used: ResourceList, delta: ResourceList): QuotaCheck {
  const requested = maskList(delta, hard.keys());
  const newUsed = addLists(used, requested);
  const exceeded = [...requested.keys()].filter((n) => newUsed.get(n)!.cmp(hard.get(n)!) > 0).sort();
  if (exceeded.length > 0) {
    return {
      allowed: false,
      message:
        `exceeded quota: ${name}, requested: ${prettyPrint(maskList(requested, exceeded))}, ` +
        `used: ${prettyPrint(maskList(used, exceeded))}, limited: ${prettyPrint(maskList(hard, exceeded))}`,
    };
  }
  return { allowed: true, used: newUsed };
}
