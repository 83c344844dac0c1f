// kube's Node authorizer (`--authorization-mode=Node,RBAC`): requests of kubelets — user system:node:<name> in group
// system:nodes — are allowed what a kubelet needs and no more. Secrets, configmaps, PVCs, PVs, ServiceAccount tokens,
// pods, VolumeAttachments and ResourceClaims only when the graph relates them to the node; its own Node, Lease and
// CSINode by name; pods list/watch only with the spec.nodeName=<node> field selector (AuthorizeNodeWithSelectors);
// everything else against the static rules of kube's bootstrap policy NodeRules(), which the Node authorizer evaluates
// itself (the `system:node` ClusterRole is not bound to anyone). Anything not allowed is no opinion, with kube's
// reason, so the chain goes on to RBAC.
import {
  FieldSelectorError,
  fieldSelectorRequiresExactMatch,
  parseFieldSelector,
  type FieldRequirement,
} from '@gardener-ts/api';
import type { UserInfo } from '../server/context.js';
import type { Attributes, Authorizer, Decision, ResourceAttributes, RuleSet } from './attributes.js';
import { ruleAllows } from './rbac.js';
import type { NodeGraph, VertexType } from './node-graph.js';

export const NODES_GROUP = 'system:nodes';
const NODE_USER_PREFIX = 'system:node:';
const NODE_LEASE_NAMESPACE = 'kube-node-lease';

const READ = ['get', 'list', 'watch'];

/** kube's bootstrappolicy NodeRules() (Kubernetes 1.35, default feature gates). */
export const NODE_RULES: { verbs: string[]; apiGroups: string[]; resources: string[] }[] = [
  { verbs: ['create'], apiGroups: ['authentication.k8s.io'], resources: ['tokenreviews'] },
  {
    verbs: ['create'],
    apiGroups: ['authorization.k8s.io'],
    resources: ['subjectaccessreviews', 'localsubjectaccessreviews'],
  },
  { verbs: READ, apiGroups: [''], resources: ['services'] },
  { verbs: ['create', 'get', 'list', 'watch'], apiGroups: [''], resources: ['nodes'] },
  { verbs: ['update', 'patch'], apiGroups: [''], resources: ['nodes/status'] },
  { verbs: ['update', 'patch'], apiGroups: [''], resources: ['nodes'] },
  { verbs: ['create', 'update', 'patch'], apiGroups: [''], resources: ['events'] },
  { verbs: READ, apiGroups: [''], resources: ['pods'] },
  { verbs: ['create', 'delete'], apiGroups: [''], resources: ['pods'] },
  { verbs: ['update', 'patch'], apiGroups: [''], resources: ['pods/status'] },
  { verbs: ['create'], apiGroups: [''], resources: ['pods/eviction'] },
  { verbs: READ, apiGroups: [''], resources: ['secrets', 'configmaps'] },
  { verbs: ['get'], apiGroups: [''], resources: ['persistentvolumeclaims', 'persistentvolumes'] },
  { verbs: ['get'], apiGroups: [''], resources: ['endpoints'] },
  {
    verbs: ['create', 'get', 'list', 'watch'],
    apiGroups: ['certificates.k8s.io'],
    resources: ['certificatesigningrequests'],
  },
  { verbs: ['get', 'create', 'update', 'patch', 'delete'], apiGroups: ['coordination.k8s.io'], resources: ['leases'] },
  { verbs: ['get'], apiGroups: ['storage.k8s.io'], resources: ['volumeattachments'] },
  { verbs: ['create'], apiGroups: [''], resources: ['serviceaccounts/token'] },
  { verbs: ['get', 'update', 'patch'], apiGroups: [''], resources: ['persistentvolumeclaims/status'] },
  { verbs: READ, apiGroups: ['storage.k8s.io'], resources: ['csidrivers'] },
  { verbs: ['get', 'create', 'update', 'patch', 'delete'], apiGroups: ['storage.k8s.io'], resources: ['csinodes'] },
  { verbs: READ, apiGroups: ['node.k8s.io'], resources: ['runtimeclasses'] },
  { verbs: ['get'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims'] },
  {
    verbs: [...READ, 'create', 'update', 'patch', 'delete', 'deletecollection'],
    apiGroups: ['resource.k8s.io'],
    resources: ['resourceslices'],
  },
];

/** kube's NodeIdentity: the node name of a user system:node:<name> in group system:nodes ('' when the name is empty). */
export function nodeIdentity(user: UserInfo): string | undefined {
  if (!user.groups.includes(NODES_GROUP) || !user.username.startsWith(NODE_USER_PREFIX)) return undefined;
  return user.username.slice(NODE_USER_PREFIX.length);
}

/**
 * The requirements of a request's field selector (kube's fields.ParseSelector, the one in @gardener-ts/api); none when
 * it does not parse, as kube's attributes then carry no requirements.
 */
function fieldRequirements(selector: string | undefined): FieldRequirement[] {
  try {
    return parseFieldSelector(selector ?? '');
  } catch (err) {
    if (err instanceof FieldSelectorError) return [];
    throw err;
  }
}

const noOpinion = (reason: string): Decision => ({ allowed: false, reason });
const ALLOW: Decision = { allowed: true, reason: '' };

export class NodeAuthorizer implements Authorizer {
  constructor(private readonly graph: Pick<NodeGraph, 'hasPathFrom'>) {}

  async authorize(a: Attributes): Promise<Decision | undefined> {
    const nodeName = nodeIdentity(a.user);
    if (nodeName === undefined) return undefined;
    if (!nodeName) return noOpinion(`unknown node for user "${a.user.username}"`);
    if (a.kind === 'resource') {
      const r = a.resource;
      switch (`${r.resource}.${r.group}`) {
        case 'secrets.':
          return this.readNamespaced(nodeName, 'secret', r);
        case 'configmaps.':
          return this.readNamespaced(nodeName, 'configmap', r);
        case 'persistentvolumeclaims.':
          return r.subresource === 'status'
            ? this.statusUpdate(nodeName, 'persistentvolumeclaim', r)
            : this.get(nodeName, 'persistentvolumeclaim', r);
        case 'persistentvolumes.':
          return this.get(nodeName, 'persistentvolume', r);
        case 'resourceclaims.resource.k8s.io':
          return this.get(nodeName, 'resourceclaim', r);
        case 'volumeattachments.storage.k8s.io':
          return this.get(nodeName, 'volumeattachment', r);
        case 'serviceaccounts.':
          return this.createToken(nodeName, r);
        case 'leases.coordination.k8s.io':
          return lease(nodeName, r);
        case 'csinodes.storage.k8s.io':
          return csiNode(nodeName, r);
        case 'nodes.':
          return this.node(nodeName, r) ?? this.rules(a);
        case 'pods.':
          return (await this.pod(nodeName, r)) ?? this.rules(a);
      }
    }
    return this.rules(a);
  }

  /** As kube's: a node's permissions are not enumerable (its rules review is incomplete, with kube's error). */
  rulesFor(user: UserInfo): RuleSet {
    if (nodeIdentity(user) === undefined) return { resourceRules: [], nonResourceRules: [], incomplete: false };
    return {
      resourceRules: [],
      nonResourceRules: [],
      incomplete: true,
      error: 'node authorizer does not support user rule resolution',
    };
  }

  private rules(a: Attributes): Decision | undefined {
    return NODE_RULES.some((rule) => ruleAllows(rule, a)) ? ALLOW : undefined;
  }

  private async related(nodeName: string, type: VertexType, r: ResourceAttributes): Promise<Decision> {
    if (!r.name) return noOpinion('No Object name found');
    if (await this.graph.hasPathFrom(nodeName, type, r.namespace, r.name)) return ALLOW;
    return noOpinion(`no relationship found between node '${nodeName}' and this object`);
  }

  private readNamespaced(nodeName: string, type: VertexType, r: ResourceAttributes): Promise<Decision> | Decision {
    if (!READ.includes(r.verb)) return noOpinion('can only read resources of this type');
    if (r.subresource) return noOpinion('cannot read subresource');
    if (!r.namespace) return noOpinion('can only read namespaced object of this type');
    // A list or watch of one object names it by field selector (kube's request info takes metadata.name from it).
    const named =
      r.name ||
      (r.verb !== 'get'
        ? (fieldSelectorRequiresExactMatch(fieldRequirements(r.fieldSelector), 'metadata.name') ?? '')
        : '');
    return this.related(nodeName, type, { ...r, name: named });
  }

  private get(nodeName: string, type: VertexType, r: ResourceAttributes): Promise<Decision> | Decision {
    if (r.verb !== 'get') return noOpinion('can only get individual resources of this type');
    if (r.subresource) return noOpinion('cannot get subresource');
    return this.related(nodeName, type, r);
  }

  private statusUpdate(nodeName: string, type: VertexType, r: ResourceAttributes): Promise<Decision> | Decision {
    if (r.verb !== 'update' && r.verb !== 'patch') return noOpinion('can only get/update/patch this type');
    if (r.subresource !== 'status') return noOpinion('can only update status subresource');
    return this.related(nodeName, type, r);
  }

  private createToken(nodeName: string, r: ResourceAttributes): Promise<Decision> | Decision {
    if (r.verb !== 'create' || !r.name) return noOpinion('can only create tokens for individual service accounts');
    if (r.subresource !== 'token') return noOpinion('can only create token subresource of serviceaccount');
    return this.related(nodeName, 'serviceaccount', r);
  }

  /** Its own Node by name (so a kubelet can read it before registering); create/update/patch are for NodeRestriction. */
  private node(nodeName: string, r: ResourceAttributes): Decision | undefined {
    if (r.subresource) return undefined;
    if (['create', 'update', 'patch'].includes(r.verb)) return ALLOW;
    if (!READ.includes(r.verb)) return undefined;
    const name = r.name || fieldSelectorRequiresExactMatch(fieldRequirements(r.fieldSelector), 'metadata.name') || '';
    if (name === nodeName) return ALLOW;
    if (!name) return noOpinion(`node '${nodeName}' cannot read all nodes, only its own Node object`);
    return noOpinion(`node '${nodeName}' cannot read '${name}', only its own Node object`);
  }

  /** Pods: get through the graph, list/watch only with spec.nodeName=<node>; writes go to the static rules. */
  private async pod(nodeName: string, r: ResourceAttributes): Promise<Decision | undefined> {
    if (r.subresource) return undefined;
    if (r.verb === 'get') return this.get(nodeName, 'pod', r);
    if (r.verb === 'list' || r.verb === 'watch') {
      if (
        fieldRequirements(r.fieldSelector).some(
          (q) => q.field === 'spec.nodeName' && q.operator === '=' && q.value === nodeName,
        )
      )
        return ALLOW;
      return noOpinion('can only list/watch pods with spec.nodeName field selector');
    }
    return undefined;
  }
}

function lease(nodeName: string, r: ResourceAttributes): Decision {
  if (!['get', 'create', 'update', 'patch', 'delete'].includes(r.verb))
    return noOpinion('can only get, create, update, patch, or delete a node lease');
  if (r.namespace !== NODE_LEASE_NAMESPACE)
    return noOpinion(`can only access leases in the "${NODE_LEASE_NAMESPACE}" system namespace`);
  // The name of a create is not known here; NodeRestriction checks it.
  if (r.verb !== 'create' && r.name !== nodeName)
    return noOpinion('can only access node lease with the same name as the requesting node');
  return ALLOW;
}

function csiNode(nodeName: string, r: ResourceAttributes): Decision {
  if (!['get', 'create', 'update', 'patch', 'delete'].includes(r.verb))
    return noOpinion('can only get, create, update, patch, or delete a CSINode');
  if (r.subresource) return noOpinion('cannot authorize CSINode subresources');
  if (r.verb !== 'create' && r.name !== nodeName)
    return noOpinion('can only access CSINode with the same name as the requesting node');
  return ALLOW;
}
