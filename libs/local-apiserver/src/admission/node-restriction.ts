// kube's NodeRestriction admission plugin (`--enable-admission-plugins=NodeRestriction`): what the Node authorizer lets
// a kubelet write (user system:node:<name> in group system:nodes) is limited to the node's own objects — its Node
// (not its taints, nor labels outside the kubelet's set), its Lease and CSINode, mirror pods bound to it, status
// and deletion of pods bound to it, evictions of those pods, and TokenRequests bound to a pod on it. Denials are
// kube's 403s, e.g. `nodes "n2" is forbidden: node "n1" is not allowed to modify node "n2"`.
import { isDeepStrictEqual } from 'node:util';
import { ApiError, errors } from '../api/errors.js';
import { nodeIdentity } from '../auth/node-authorizer.js';
import { podReferences } from '../auth/node-graph.js';
import type { SubresourceHandler } from '../http/resource-handler.js';
import type { UserInfo } from '../server/context.js';
import type { WriteRequest, WriteStep } from '../server/pipeline.js';
import type { KubeObject, Storage } from '../storage/types.js';

export const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';
const NODE_LEASE_NAMESPACE = 'kube-node-lease';
const NODE_RESTRICTION_LABEL_NAMESPACE = 'node-restriction.kubernetes.io';
/** kube's kubelet labels (k8s.io/kubelet/pkg/apis IsKubeletLabel): the kubernetes.io labels a node may set. */
const KUBELET_LABELS = new Set([
  'kubernetes.io/hostname',
  'topology.kubernetes.io/zone',
  'topology.kubernetes.io/region',
  'failure-domain.beta.kubernetes.io/zone',
  'failure-domain.beta.kubernetes.io/region',
  'beta.kubernetes.io/instance-type',
  'node.kubernetes.io/instance-type',
  'kubernetes.io/os',
  'kubernetes.io/arch',
  'beta.kubernetes.io/os',
  'beta.kubernetes.io/arch',
]);
const KUBELET_LABEL_NAMESPACES = ['kubelet.kubernetes.io', 'node.kubernetes.io'];

const labelNamespace = (key: string) => (key.includes('/') ? key.slice(0, key.indexOf('/')) : '');
const inNamespace = (ns: string, domain: string) => ns === domain || ns.endsWith(`.${domain}`);

function isKubeletLabel(key: string): boolean {
  return KUBELET_LABELS.has(key) || KUBELET_LABEL_NAMESPACES.some((d) => inNamespace(labelNamespace(key), d));
}

/** Labels a node may not set: node-restriction.kubernetes.io/*, and kubernetes.io / k8s.io labels not the kubelet's. */
export function forbiddenNodeLabels(
  labels: Record<string, string> = {},
  oldLabels: Record<string, string> = {},
): string[] {
  const modified = new Set<string>();
  for (const key of new Set([...Object.keys(labels), ...Object.keys(oldLabels)]))
    if (labels[key] !== oldLabels[key]) modified.add(key);
  const forbidden = [...modified].filter((key) => {
    const ns = labelNamespace(key);
    if (inNamespace(ns, NODE_RESTRICTION_LABEL_NAMESPACE)) return true;
    return (inNamespace(ns, 'kubernetes.io') || inNamespace(ns, 'k8s.io')) && !isKubeletLabel(key);
  });
  return forbidden.sort();
}

/** kube's admission.NewForbidden: `<resource>[.<group>] "<name>" is forbidden: <why>`. */
function forbidden(
  r: Pick<WriteRequest, 'definition' | 'name' | 'object'>,
  why: string,
  name = r.name || r.object?.metadata?.name || '',
): ApiError {
  const d = r.definition;
  const resource = d.group ? `${d.resource}.${d.group}` : d.resource;
  return new ApiError(
    403,
    'Forbidden',
    name ? `${resource} "${name}" is forbidden: ${why}` : `${resource} is forbidden: ${why}`,
    { name: name || undefined, group: d.group || undefined, kind: d.resource },
  );
}

export function nodeRestriction(storage: Storage): WriteStep {
  return async (r) => {
    const nodeName = nodeIdentity(r.ctx.user);
    if (nodeName === undefined) return;
    if (!nodeName) throw forbidden(r, `could not determine node from user "${r.ctx.user.username}"`);
    const d = r.definition;
    switch (`${d.resource}.${d.group}`) {
      case 'pods.':
        if (r.subresource === '') return admitPod(nodeName, r, storage);
        if (r.subresource === 'status') return admitPodStatus(nodeName, r);
        throw forbidden(r, `unexpected pod subresource "${r.subresource}", only 'status' and 'eviction' are allowed`);
      case 'nodes.':
        return admitNode(nodeName, r);
      case 'persistentvolumeclaims.':
        if (r.subresource !== 'status') throw forbidden(r, 'may only update PVC status');
        return admitPVCStatus(nodeName, r);
      case 'leases.coordination.k8s.io':
        if (r.namespace !== NODE_LEASE_NAMESPACE)
          throw forbidden(r, `can only access leases in the "${NODE_LEASE_NAMESPACE}" system namespace`);
        if ((r.operation === 'CREATE' ? r.object.metadata?.name : r.name) !== nodeName)
          throw forbidden(r, 'can only access node lease with the same name as the requesting node');
        return;
      case 'csinodes.storage.k8s.io':
        if ((r.operation === 'CREATE' ? r.object.metadata?.name : r.name) !== nodeName)
          throw forbidden(r, 'can only access CSINode with the same name as the requesting node');
        return;
    }
  };
}

async function admitPod(nodeName: string, r: WriteRequest, storage: Storage): Promise<void> {
  if (r.operation === 'DELETE') {
    // The pipeline's DELETE object is the live pod.
    if (r.object.spec?.nodeName !== nodeName)
      throw forbidden(r, `node "${nodeName}" can only delete pods with spec.nodeName set to itself`);
    return;
  }
  if (r.operation !== 'CREATE')
    throw forbidden(
      r,
      `unexpected operation "${r.operation}", node "${nodeName}" can only create and delete mirror pods`,
    );
  const pod = r.object;
  if (!(MIRROR_POD_ANNOTATION in (pod.metadata?.annotations ?? {}))) {
    throw forbidden(
      r,
      `pod does not have "${MIRROR_POD_ANNOTATION}" annotation, node "${nodeName}" can only create mirror pods`,
    );
  }
  if (pod.spec?.nodeName !== nodeName)
    throw forbidden(r, `node "${nodeName}" can only create pods with spec.nodeName set to itself`);
  const owners: KubeObject[] = pod.metadata?.ownerReferences ?? [];
  if (owners.length > 1)
    throw forbidden(r, `node "${nodeName}" can only create pods with a single owner reference set to itself`);
  if (owners.length === 0)
    throw forbidden(r, `node "${nodeName}" can only create pods with an owner reference set to itself`);
  const owner = owners[0];
  if (owner.apiVersion !== 'v1' || owner.kind !== 'Node' || owner.name !== nodeName)
    throw forbidden(r, `node "${nodeName}" can only create pods with an owner reference set to itself`);
  if (owner.controller !== true)
    throw forbidden(r, `node "${nodeName}" can only create pods with a controller owner reference set to itself`);
  if (owner.blockOwnerDeletion === true)
    throw forbidden(r, `node "${nodeName}" must not set blockOwnerDeletion on an owner reference`);
  const node = (await storage.get(`/registry/core/nodes/${nodeName}`))?.object;
  if (!node) throw errors.notFound('nodes', '', nodeName);
  if (owner.uid !== node.metadata?.uid)
    throw forbidden(r, `node ${nodeName} UID mismatch: expected ${node.metadata?.uid} got ${owner.uid}`);
  // A mirror pod may not reference other API objects.
  if (pod.spec?.serviceAccountName)
    throw forbidden(r, `node "${nodeName}" can not create pods that reference a service account`);
  const refs = podReferences(pod);
  if (refs.secrets.size) throw forbidden(r, `node "${nodeName}" can not create pods that reference secrets`);
  if (refs.configmaps.size) throw forbidden(r, `node "${nodeName}" can not create pods that reference configmaps`);
  if ((pod.spec?.volumes ?? []).some((v: KubeObject) => v?.persistentVolumeClaim))
    throw forbidden(r, `node "${nodeName}" can not create pods that reference persistentvolumeclaims`);
  if ((pod.spec?.resourceClaims ?? []).length)
    throw forbidden(r, `node "${nodeName}" can not create pods that reference resourceclaims`);
}

function admitPodStatus(nodeName: string, r: WriteRequest): void {
  if (r.operation !== 'UPDATE') throw forbidden(r, `unexpected operation "${r.operation}"`);
  if (r.oldObject?.spec?.nodeName !== nodeName)
    throw forbidden(r, `node "${nodeName}" can only update pod status for pods with spec.nodeName set to itself`);
  if (!isDeepStrictEqual(r.object.metadata?.labels ?? {}, r.oldObject?.metadata?.labels ?? {}))
    throw forbidden(r, `node "${nodeName}" cannot update labels through pod status`);
}

function admitNode(nodeName: string, r: WriteRequest): void {
  if (r.name !== nodeName && (r.operation !== 'CREATE' || r.object.metadata?.name !== nodeName)) {
    throw forbidden(r, `node "${nodeName}" is not allowed to modify node "${r.name || r.object.metadata?.name}"`);
  }
  if (r.operation === 'CREATE') {
    if (r.object.spec?.configSource)
      throw forbidden(r, `node "${nodeName}" is not allowed to create pods with a non-nil configSource`);
    const labels = forbiddenNodeLabels(r.object.metadata?.labels);
    if (labels.length)
      throw forbidden(r, `node "${nodeName}" is not allowed to set the following labels: ${labels.join(', ')}`);
  }
  if (r.operation === 'UPDATE') {
    const spec = r.object.spec ?? {};
    const old = r.oldObject?.spec ?? {};
    if (spec.configSource && !isDeepStrictEqual(spec.configSource, old.configSource))
      throw forbidden(r, `node "${nodeName}" is not allowed to update configSource to a new non-nil configSource`);
    if (!isDeepStrictEqual(spec.taints ?? [], old.taints ?? []))
      throw forbidden(r, `node "${nodeName}" is not allowed to modify taints`);
    const labels = forbiddenNodeLabels(r.object.metadata?.labels, r.oldObject?.metadata?.labels);
    if (labels.length) throw forbidden(r, `is not allowed to modify labels: ${labels.join(', ')}`);
  }
}

function admitPVCStatus(nodeName: string, r: WriteRequest): void {
  if (r.operation !== 'UPDATE') throw forbidden(r, `unexpected operation "${r.operation}"`);
  // Only status.capacity, status.conditions and status.allocatedResourceStatuses may change (node-side expansion).
  const strip = (pvc: KubeObject | undefined) => {
    const { capacity: _c, conditions: _k, allocatedResourceStatuses: _a, ...status } = pvc?.status ?? {};
    const { resourceVersion: _rv, managedFields: _m, ...metadata } = pvc?.metadata ?? {};
    return { ...pvc, metadata, status };
  };
  if (!isDeepStrictEqual(strip(r.object), strip(r.oldObject)))
    throw forbidden(
      r,
      `node "${nodeName}" is not allowed to update fields other than status.capacity and status.conditions`,
    );
}

/** NodeRestriction of TokenRequests (serviceaccounts/token): a node's token must be bound to a pod on that node. */
export function nodeTokenRequestAdmission(
  storage: Storage,
): (user: UserInfo, namespace: string, name: string, body: KubeObject) => Promise<void> {
  return async (user, namespace, name, body) => {
    const nodeName = nodeIdentity(user);
    if (nodeName === undefined) return;
    const deny = (why: string) =>
      new ApiError(403, 'Forbidden', `serviceaccounts "${name}" is forbidden: ${why}`, {
        name,
        kind: 'serviceaccounts',
      });
    if (!nodeName) throw deny(`could not determine node from user "${user.username}"`);
    const ref = body.spec?.boundObjectRef;
    if (!ref || ref.apiVersion !== 'v1' || ref.kind !== 'Pod' || !ref.name)
      throw deny('node requested token not bound to a pod');
    if (!ref.uid) throw deny('node requested token with a pod binding without a uid');
    const pod = (await storage.get(`/registry/core/pods/${namespace}/${ref.name}`))?.object;
    if (!pod) throw errors.notFound('pods', '', ref.name);
    if (ref.uid !== pod.metadata?.uid) {
      throw deny(
        `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`,
      );
    }
    if (pod.spec?.nodeName !== nodeName)
      throw deny('node requested token bound to a pod scheduled on a different node');
  };
}

/** NodeRestriction of evictions (pods/eviction): a node may evict only pods bound to itself. */
export function nodeRestrictedEviction(storage: Storage, evict: SubresourceHandler): SubresourceHandler {
  return async (args) => {
    const nodeName = nodeIdentity(args.ctx.user);
    if (nodeName !== undefined && args.req.method === 'POST') {
      const { route } = args;
      const deny = (why: string) =>
        new ApiError(403, 'Forbidden', `pods "${route.name}" is forbidden: ${why}`, { name: route.name, kind: 'pods' });
      if (!nodeName) throw deny(`could not determine node from user "${args.ctx.user.username}"`);
      const pod = (await storage.get(`/registry/core/pods/${route.namespace}/${route.name}`))?.object;
      if (pod && pod.spec?.nodeName !== nodeName)
        throw deny(`node ${nodeName} can only evict pods with spec.nodeName set to itself`);
    }
    return evict(args);
  };
}
