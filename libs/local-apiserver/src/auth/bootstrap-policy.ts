// kube-apiserver's bootstrap RBAC policy (k8s.io/kubernetes plugin/pkg/auth/authorizer/rbac/bootstrappolicy,
// policy.go): the user-facing ClusterRoles `cluster-admin` and the aggregated `admin`/`edit`/`view` (extended by any
// ClusterRole labelled `rbac.authorization.k8s.io/aggregate-to-<role>: "true"`, kube's `system:aggregate-to-*` roles
// carrying the built-in rules), the `system:*` roles and bindings that components rely on, and the controller roles
// (`system:controller:*`, controller-policy.ts). The API server reconciles them at start as kube's storage_rbac
// post-start hook does (policy-reconciliation.ts).
import type { KubeObject } from '../storage/types.js';
import { CONTROLLER_ROLES } from './controller-policy.js';

/** `"false"` on a bootstrap role or binding keeps reconciliation from touching it. */
export const AUTOUPDATE_ANNOTATION = 'rbac.authorization.kubernetes.io/autoupdate';
const BOOTSTRAP_LABEL = { 'kubernetes.io/bootstrapping': 'rbac-defaults' };
const RBAC = 'rbac.authorization.k8s.io';

/** An RBAC PolicyRule (rbac.authorization.k8s.io/v1). */
export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

const READ = ['get', 'list', 'watch'];
const WRITE = ['create', 'delete', 'deletecollection', 'patch', 'update'];
const READ_WRITE = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const EVENTS_WRITE = ['create', 'patch', 'update'];

/** A resource rule: verbs on resources of API groups (optionally only the named objects). */
const rule = (verbs: string[], apiGroups: string[], resources: string[], resourceNames?: string[]): PolicyRule => ({
  apiGroups,
  resources,
  ...(resourceNames ? { resourceNames } : {}),
  verbs,
});
/** A non-resource rule: verbs on URL paths (`/api/*` matches by prefix). */
const urls = (verbs: string[], nonResourceURLs: string[]): PolicyRule => ({ nonResourceURLs, verbs });

const aggregateLabel = (role: 'admin' | 'edit' | 'view') => `${RBAC}/aggregate-to-${role}`;

interface RoleSpec {
  name: string;
  rules?: PolicyRule[];
  /** Roles whose rules this role aggregates (by their aggregate-to label). */
  aggregates?: 'admin' | 'edit' | 'view';
  /** Aggregated into these roles. */
  aggregateTo?: ('admin' | 'edit' | 'view')[];
}

const ROLES: RoleSpec[] = [
  { name: 'cluster-admin', rules: [rule(['*'], ['*'], ['*']), urls(['*'], ['*'])] },
  { name: 'admin', aggregates: 'admin' },
  { name: 'edit', aggregates: 'edit', aggregateTo: ['admin'] },
  { name: 'view', aggregates: 'view', aggregateTo: ['edit'] },
  {
    name: 'system:aggregate-to-admin',
    aggregateTo: ['admin'],
    rules: [
      rule(['create'], ['authorization.k8s.io'], ['localsubjectaccessreviews']),
      rule(READ_WRITE, [RBAC], ['rolebindings', 'roles']),
    ],
  },
  {
    name: 'system:aggregate-to-edit',
    aggregateTo: ['edit'],
    rules: [
      rule(READ, [''], ['pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy', 'secrets', 'services/proxy']),
      rule(['impersonate'], [''], ['serviceaccounts']),
      rule(WRITE, [''], ['pods', 'pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy']),
      rule(['create'], [''], ['pods/eviction']),
      rule(
        WRITE,
        [''],
        [
          'configmaps',
          'events',
          'persistentvolumeclaims',
          'replicationcontrollers',
          'replicationcontrollers/scale',
          'secrets',
          'serviceaccounts',
          'services',
          'services/proxy',
        ],
      ),
      rule(['create'], [''], ['serviceaccounts/token']),
      rule(
        WRITE,
        ['apps'],
        [
          'daemonsets',
          'deployments',
          'deployments/rollback',
          'deployments/scale',
          'replicasets',
          'replicasets/scale',
          'statefulsets',
          'statefulsets/scale',
        ],
      ),
      rule(WRITE, ['autoscaling'], ['horizontalpodautoscalers']),
      rule(WRITE, ['batch'], ['cronjobs', 'jobs']),
      rule(
        WRITE,
        ['extensions'],
        [
          'daemonsets',
          'deployments',
          'deployments/rollback',
          'deployments/scale',
          'ingresses',
          'networkpolicies',
          'replicasets',
          'replicasets/scale',
          'replicationcontrollers/scale',
        ],
      ),
      rule(WRITE, ['policy'], ['poddisruptionbudgets']),
      rule(WRITE, ['networking.k8s.io'], ['ingresses', 'networkpolicies']),
      rule(READ_WRITE, ['coordination.k8s.io'], ['leases']),
    ],
  },
  {
    name: 'system:aggregate-to-view',
    aggregateTo: ['view'],
    rules: [
      rule(
        READ,
        [''],
        [
          'configmaps',
          'endpoints',
          'persistentvolumeclaims',
          'persistentvolumeclaims/status',
          'pods',
          'replicationcontrollers',
          'replicationcontrollers/scale',
          'serviceaccounts',
          'services',
          'services/status',
        ],
      ),
      rule(
        READ,
        [''],
        [
          'bindings',
          'events',
          'limitranges',
          'namespaces/status',
          'pods/log',
          'pods/status',
          'replicationcontrollers/status',
          'resourcequotas',
          'resourcequotas/status',
        ],
      ),
      rule(READ, [''], ['namespaces']),
      rule(READ, ['discovery.k8s.io'], ['endpointslices']),
      rule(
        READ,
        ['apps'],
        [
          'controllerrevisions',
          'daemonsets',
          'daemonsets/status',
          'deployments',
          'deployments/scale',
          'deployments/status',
          'replicasets',
          'replicasets/scale',
          'replicasets/status',
          'statefulsets',
          'statefulsets/scale',
          'statefulsets/status',
        ],
      ),
      rule(READ, ['autoscaling'], ['horizontalpodautoscalers', 'horizontalpodautoscalers/status']),
      rule(READ, ['batch'], ['cronjobs', 'cronjobs/status', 'jobs', 'jobs/status']),
      rule(
        READ,
        ['extensions'],
        [
          'daemonsets',
          'daemonsets/status',
          'deployments',
          'deployments/scale',
          'deployments/status',
          'ingresses',
          'ingresses/status',
          'networkpolicies',
          'replicasets',
          'replicasets/scale',
          'replicasets/status',
          'replicationcontrollers/scale',
        ],
      ),
      rule(READ, ['policy'], ['poddisruptionbudgets', 'poddisruptionbudgets/status']),
      rule(READ, ['networking.k8s.io'], ['ingresses', 'ingresses/status', 'networkpolicies']),
    ],
  },
  {
    name: 'system:auth-delegator',
    rules: [
      rule(['create'], ['authentication.k8s.io'], ['tokenreviews']),
      rule(['create'], ['authorization.k8s.io'], ['subjectaccessreviews']),
    ],
  },
  {
    name: 'system:basic-user',
    rules: [
      rule(['create'], ['authorization.k8s.io'], ['selfsubjectaccessreviews', 'selfsubjectrulesreviews']),
      rule(['create'], ['authentication.k8s.io'], ['selfsubjectreviews']),
    ],
  },
  {
    name: 'system:certificates.k8s.io:certificatesigningrequests:nodeclient',
    rules: [rule(['create'], ['certificates.k8s.io'], ['certificatesigningrequests/nodeclient'])],
  },
  {
    name: 'system:certificates.k8s.io:certificatesigningrequests:selfnodeclient',
    rules: [rule(['create'], ['certificates.k8s.io'], ['certificatesigningrequests/selfnodeclient'])],
  },
  ...['kube-apiserver-client', 'kube-apiserver-client-kubelet', 'kubelet-serving', 'legacy-unknown'].map((signer) => ({
    name: `system:certificates.k8s.io:${signer}-approver`,
    rules: [rule(['approve'], ['certificates.k8s.io'], ['signers'], [`kubernetes.io/${signer}`])],
  })),
  {
    name: 'system:discovery',
    rules: [
      urls(
        ['get'],
        [
          '/api',
          '/api/*',
          '/apis',
          '/apis/*',
          '/healthz',
          '/livez',
          '/openapi',
          '/openapi/*',
          '/readyz',
          '/version',
          '/version/',
        ],
      ),
    ],
  },
  {
    name: 'system:heapster',
    rules: [rule(READ, [''], ['events', 'namespaces', 'nodes', 'pods']), rule(READ, ['extensions'], ['deployments'])],
  },
  { name: 'system:kube-aggregator', rules: [rule(READ, [''], ['endpoints', 'services'])] },
  {
    name: 'system:kube-controller-manager',
    rules: [
      rule(EVENTS_WRITE, ['', 'events.k8s.io'], ['events']),
      rule(['create'], ['coordination.k8s.io'], ['leases']),
      rule(['get', 'update'], ['coordination.k8s.io'], ['leases'], ['kube-controller-manager']),
      rule(['create'], [''], ['secrets', 'serviceaccounts']),
      rule(['delete'], [''], ['secrets']),
      rule(['get'], [''], ['configmaps', 'namespaces', 'secrets', 'serviceaccounts']),
      rule(['update'], [''], ['secrets', 'serviceaccounts']),
      rule(['create'], ['authentication.k8s.io'], ['tokenreviews']),
      rule(['create'], ['authorization.k8s.io'], ['subjectaccessreviews']),
      rule(['list', 'watch'], ['*'], ['*']),
      rule(['create'], [''], ['serviceaccounts/token']),
    ],
  },
  { name: 'system:kube-dns', rules: [rule(['list', 'watch'], [''], ['endpoints', 'services'])] },
  {
    name: 'system:kube-scheduler',
    rules: [
      rule(EVENTS_WRITE, ['', 'events.k8s.io'], ['events']),
      rule(['create'], ['coordination.k8s.io'], ['leases']),
      rule(['get', 'update'], ['coordination.k8s.io'], ['leases'], ['kube-scheduler']),
      rule(READ, [''], ['nodes']),
      rule(['delete', 'get', 'list', 'watch'], [''], ['pods']),
      rule(['create'], [''], ['bindings', 'pods/binding']),
      rule(['patch', 'update'], [''], ['pods/status']),
      rule(READ, [''], ['replicationcontrollers', 'services']),
      rule(READ, ['apps', 'extensions'], ['replicasets']),
      rule(READ, ['apps'], ['statefulsets']),
      rule(READ, ['policy'], ['poddisruptionbudgets']),
      rule(READ, [''], ['persistentvolumeclaims', 'persistentvolumes']),
      rule(['create'], ['authentication.k8s.io'], ['tokenreviews']),
      rule(['create'], ['authorization.k8s.io'], ['subjectaccessreviews']),
      rule(READ, ['storage.k8s.io'], ['csinodes']),
      rule(READ, [''], ['namespaces']),
      rule(READ, ['storage.k8s.io'], ['csidrivers']),
      rule(READ, ['storage.k8s.io'], ['csistoragecapacities']),
    ],
  },
  {
    name: 'system:kubelet-api-admin',
    rules: [
      rule(READ, [''], ['nodes']),
      rule(['proxy'], [''], ['nodes']),
      rule(['*'], [''], ['nodes/log', 'nodes/metrics', 'nodes/proxy', 'nodes/stats']),
    ],
  },
  {
    name: 'system:monitoring',
    rules: [
      urls(
        ['get'],
        ['/healthz', '/healthz/*', '/livez', '/livez/*', '/metrics', '/metrics/slis', '/readyz', '/readyz/*'],
      ),
    ],
  },
  {
    name: 'system:node',
    rules: [
      rule(['create'], ['authentication.k8s.io'], ['tokenreviews']),
      rule(['create'], ['authorization.k8s.io'], ['localsubjectaccessreviews', 'subjectaccessreviews']),
      rule(READ, [''], ['services']),
      rule(['create', 'get', 'list', 'watch'], [''], ['nodes']),
      rule(['patch', 'update'], [''], ['nodes/status']),
      rule(['patch', 'update'], [''], ['nodes']),
      rule(EVENTS_WRITE, [''], ['events']),
      rule(READ, [''], ['pods']),
      rule(['create', 'delete'], [''], ['pods']),
      rule(['patch', 'update'], [''], ['pods/status']),
      rule(['create'], [''], ['pods/eviction']),
      rule(READ, [''], ['configmaps', 'secrets']),
      rule(['get'], [''], ['persistentvolumeclaims', 'persistentvolumes']),
      rule(['get'], [''], ['endpoints']),
      rule(['create', 'get', 'list', 'watch'], ['certificates.k8s.io'], ['certificatesigningrequests']),
      rule(['create', 'delete', 'get', 'patch', 'update'], ['coordination.k8s.io'], ['leases']),
      rule(['get'], ['storage.k8s.io'], ['volumeattachments']),
      rule(['create'], [''], ['serviceaccounts/token']),
      rule(['get', 'patch', 'update'], [''], ['persistentvolumeclaims/status']),
      rule(READ, ['storage.k8s.io'], ['csidrivers']),
      rule(['create', 'delete', 'get', 'patch', 'update'], ['storage.k8s.io'], ['csinodes']),
      rule(READ, ['node.k8s.io'], ['runtimeclasses']),
    ],
  },
  {
    name: 'system:node-bootstrapper',
    rules: [rule(['create', 'get', 'list', 'watch'], ['certificates.k8s.io'], ['certificatesigningrequests'])],
  },
  {
    name: 'system:node-problem-detector',
    rules: [
      rule(['get'], [''], ['nodes']),
      rule(['patch'], [''], ['nodes/status']),
      rule(EVENTS_WRITE, ['', 'events.k8s.io'], ['events']),
    ],
  },
  {
    name: 'system:node-proxier',
    rules: [
      rule(['list', 'watch'], [''], ['endpoints', 'services']),
      rule(READ, [''], ['nodes']),
      rule(EVENTS_WRITE, ['', 'events.k8s.io'], ['events']),
      rule(['list', 'watch'], ['discovery.k8s.io'], ['endpointslices']),
    ],
  },
  {
    name: 'system:persistent-volume-provisioner',
    rules: [
      rule(['create', 'delete', 'get', 'list', 'watch'], [''], ['persistentvolumes']),
      rule(['get', 'list', 'update', 'watch'], [''], ['persistentvolumeclaims']),
      rule(READ, ['storage.k8s.io'], ['storageclasses']),
      rule(['watch'], [''], ['events']),
      rule(EVENTS_WRITE, ['', 'events.k8s.io'], ['events']),
    ],
  },
  {
    name: 'system:public-info-viewer',
    rules: [urls(['get'], ['/healthz', '/livez', '/readyz', '/version', '/version/'])],
  },
  {
    name: 'system:service-account-issuer-discovery',
    rules: [urls(['get'], ['/.well-known/openid-configuration', '/openid/v1/jwks'])],
  },
  {
    name: 'system:volume-scheduler',
    rules: [
      rule(['get', 'list', 'patch', 'update', 'watch'], [''], ['persistentvolumes']),
      rule(READ, ['storage.k8s.io'], ['storageclasses']),
      rule(['get', 'list', 'patch', 'update', 'watch'], [''], ['persistentvolumeclaims']),
    ],
  },
];

type Subject = { kind: 'User' | 'Group' | 'ServiceAccount'; name: string; namespace?: string };
const group = (name: string): Subject => ({ kind: 'Group', name });
const user = (name: string): Subject => ({ kind: 'User', name });

/** kube's ClusterRoleBindings (binding name = role name unless given). */
const BINDINGS: { name: string; role?: string; subjects: Subject[] }[] = [
  { name: 'cluster-admin', subjects: [group('system:masters')] },
  { name: 'system:monitoring', subjects: [group('system:monitoring')] },
  { name: 'system:discovery', subjects: [group('system:authenticated')] },
  { name: 'system:basic-user', subjects: [group('system:authenticated')] },
  { name: 'system:public-info-viewer', subjects: [group('system:authenticated'), group('system:unauthenticated')] },
  { name: 'system:node-proxier', subjects: [user('system:kube-proxy')] },
  { name: 'system:kube-controller-manager', subjects: [user('system:kube-controller-manager')] },
  { name: 'system:kube-dns', subjects: [{ kind: 'ServiceAccount', name: 'kube-dns', namespace: 'kube-system' }] },
  { name: 'system:kube-scheduler', subjects: [user('system:kube-scheduler')] },
  { name: 'system:volume-scheduler', subjects: [user('system:kube-scheduler')] },
  // The Node authorizer grants kubelets their permissions; kube keeps this binding without subjects.
  { name: 'system:node', subjects: [] },
  { name: 'system:service-account-issuer-discovery', subjects: [group('system:serviceaccounts')] },
];

const metadata = (name: string, labels: Record<string, string> = {}) => ({
  name,
  labels: { ...BOOTSTRAP_LABEL, ...labels },
  annotations: { [AUTOUPDATE_ANNOTATION]: 'true' },
});

const CONTROLLER_PREFIX = 'system:controller:';

/** kube's bootstrap ClusterRoles (controller roles included), as objects to reconcile. */
export function bootstrapClusterRoles(): KubeObject[] {
  const controllers: RoleSpec[] = Object.entries(CONTROLLER_ROLES).map(([name, rules]) => ({
    name: `${CONTROLLER_PREFIX}${name}`,
    rules,
  }));
  return [...ROLES, ...controllers].map((spec) => ({
    apiVersion: `${RBAC}/v1`,
    kind: 'ClusterRole',
    metadata: metadata(
      spec.name,
      Object.fromEntries((spec.aggregateTo ?? []).map((to) => [aggregateLabel(to), 'true'])),
    ),
    ...(spec.aggregates
      ? { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [aggregateLabel(spec.aggregates)]: 'true' } }] } }
      : {}),
    rules: structuredClone(spec.rules ?? []),
  }));
}

/** kube's bootstrap ClusterRoleBindings (each controller role bound to its kube-system ServiceAccount). */
export function bootstrapClusterRoleBindings(): KubeObject[] {
  const controllers = Object.keys(CONTROLLER_ROLES).map((name) => ({
    name: `${CONTROLLER_PREFIX}${name}`,
    subjects: [{ kind: 'ServiceAccount' as const, name, namespace: 'kube-system' }],
  }));
  return [...BINDINGS, ...controllers].map((b: { name: string; role?: string; subjects: Subject[] }) => ({
    apiVersion: `${RBAC}/v1`,
    kind: 'ClusterRoleBinding',
    metadata: metadata(b.name),
    roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: b.role ?? b.name },
    subjects: b.subjects.map(subjectObject),
  }));
}

const LEADER_LOCKING = [
  rule(['create', 'get', 'list', 'update', 'watch'], ['coordination.k8s.io'], ['leases']),
  rule(['create', 'get', 'list', 'update', 'watch'], ['coordination.k8s.io'], ['leasecandidates']),
];
const serviceAccount = (name: string): Subject => ({ kind: 'ServiceAccount', name, namespace: 'kube-system' });

/** kube's namespaced bootstrap Roles (policy.go NamespaceRoles) with their RoleBindings. */
const NAMESPACED: { namespace: string; role: string; binding?: string; rules: PolicyRule[]; subjects: Subject[] }[] = [
  {
    namespace: 'kube-public',
    role: 'system:controller:bootstrap-signer',
    rules: [
      rule(READ, [''], ['configmaps']),
      rule(['update'], [''], ['configmaps'], ['cluster-info']),
      rule(EVENTS_WRITE, ['', 'events.k8s.io'], ['events']),
    ],
    subjects: [serviceAccount('bootstrap-signer')],
  },
  {
    namespace: 'kube-system',
    role: 'extension-apiserver-authentication-reader',
    binding: 'system::extension-apiserver-authentication-reader',
    rules: [rule(READ, [''], ['configmaps'], ['extension-apiserver-authentication'])],
    subjects: [user('system:kube-controller-manager'), user('system:kube-scheduler')],
  },
  {
    namespace: 'kube-system',
    role: 'system::leader-locking-kube-controller-manager',
    rules: LEADER_LOCKING,
    subjects: [
      user('system:kube-controller-manager'),
      serviceAccount('kube-controller-manager'),
      serviceAccount('leader-election-controller'),
    ],
  },
  {
    namespace: 'kube-system',
    role: 'system::leader-locking-kube-scheduler',
    rules: LEADER_LOCKING,
    subjects: [user('system:kube-scheduler'), serviceAccount('kube-scheduler')],
  },
  {
    namespace: 'kube-system',
    role: 'system:controller:bootstrap-signer',
    rules: [rule(READ, [''], ['secrets'])],
    subjects: [serviceAccount('bootstrap-signer')],
  },
  {
    namespace: 'kube-system',
    role: 'system:controller:cloud-provider',
    rules: [rule(['create', 'get', 'list', 'watch'], [''], ['configmaps'])],
    subjects: [serviceAccount('cloud-provider')],
  },
  {
    namespace: 'kube-system',
    role: 'system:controller:token-cleaner',
    rules: [
      rule(['delete', 'get', 'list', 'watch'], [''], ['secrets']),
      rule(EVENTS_WRITE, ['', 'events.k8s.io'], ['events']),
    ],
    subjects: [serviceAccount('token-cleaner')],
  },
];

const subjectObject = (s: Subject) =>
  s.kind === 'ServiceAccount'
    ? { kind: s.kind, name: s.name, namespace: s.namespace }
    : { apiGroup: RBAC, kind: s.kind, name: s.name };

/** kube's bootstrap Roles in kube-system and kube-public, as objects to reconcile. */
export function bootstrapRoles(): KubeObject[] {
  return NAMESPACED.map((r) => ({
    apiVersion: `${RBAC}/v1`,
    kind: 'Role',
    metadata: { ...metadata(r.role), namespace: r.namespace },
    rules: structuredClone(r.rules),
  }));
}

/** kube's bootstrap RoleBindings in kube-system and kube-public, as objects to reconcile. */
export function bootstrapRoleBindings(): KubeObject[] {
  return NAMESPACED.map((r) => ({
    apiVersion: `${RBAC}/v1`,
    kind: 'RoleBinding',
    metadata: { ...metadata(r.binding ?? r.role), namespace: r.namespace },
    roleRef: { apiGroup: RBAC, kind: 'Role', name: r.role },
    subjects: r.subjects.map(subjectObject),
  }));
}
