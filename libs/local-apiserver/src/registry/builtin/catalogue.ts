// The built-in Kubernetes resources the local API server serves: the ones Gardener's components, kubectl and
// client libraries use. Each row names the @kubernetes/client-node model its schema is generated from.

export interface BuiltinRow {
  group: string;
  version: string;
  resource: string;
  kind: string;
  namespaced: boolean;
  /** The client-node model class of the kind (schema source), e.g. `V1Deployment`. */
  model: string;
  shortNames?: string[];
  categories?: string[];
  status?: boolean;
  scale?: boolean;
  others?: string[];
  /** Review-style resources are create-only and never stored. */
  createOnly?: boolean;
  /** Objects carry metadata.generation (kube's strategies set it for workloads, policies and webhooks). */
  generation?: boolean;
  /** The version objects are stored in when it is not this row's (kube's storage version: autoscaling/v2 for HPAs). */
  storageVersion?: string;
  /** Stored as another resource (events.k8s.io events are core/v1 events in storage). */
  storage?: { group: string; resource: string; version: string };
}

const row = (
  group: string,
  version: string,
  resource: string,
  kind: string,
  namespaced: boolean,
  model: string,
  extra: Partial<BuiltinRow> = {},
): BuiltinRow => ({ group, version, resource, kind, namespaced, model, status: true, ...extra });

const ALL = ['all'];

export const BUILTIN_ROWS: BuiltinRow[] = [
  row('', 'v1', 'namespaces', 'Namespace', false, 'V1Namespace', { shortNames: ['ns'], others: ['finalize'] }),
  row('', 'v1', 'pods', 'Pod', true, 'V1Pod', {
    generation: true,
    shortNames: ['po'],
    categories: ALL,
    others: ['attach', 'binding', 'eviction', 'ephemeralcontainers', 'exec', 'log', 'portforward', 'resize'],
  }),
  row('', 'v1', 'services', 'Service', true, 'V1Service', { shortNames: ['svc'], categories: ALL }),
  row('', 'v1', 'configmaps', 'ConfigMap', true, 'V1ConfigMap', { shortNames: ['cm'], status: false }),
  row('', 'v1', 'secrets', 'Secret', true, 'V1Secret', { status: false }),
  row('', 'v1', 'serviceaccounts', 'ServiceAccount', true, 'V1ServiceAccount', {
    shortNames: ['sa'],
    status: false,
    others: ['token'],
  }),
  row('', 'v1', 'endpoints', 'Endpoints', true, 'V1Endpoints', { shortNames: ['ep'], status: false }),
  row('', 'v1', 'events', 'Event', true, 'CoreV1Event', { shortNames: ['ev'], status: false }),
  row('', 'v1', 'nodes', 'Node', false, 'V1Node', { shortNames: ['no'] }),
  row('', 'v1', 'persistentvolumes', 'PersistentVolume', false, 'V1PersistentVolume', { shortNames: ['pv'] }),
  row('', 'v1', 'persistentvolumeclaims', 'PersistentVolumeClaim', true, 'V1PersistentVolumeClaim', {
    shortNames: ['pvc'],
  }),
  row('', 'v1', 'resourcequotas', 'ResourceQuota', true, 'V1ResourceQuota', { shortNames: ['quota'] }),
  row('', 'v1', 'limitranges', 'LimitRange', true, 'V1LimitRange', { shortNames: ['limits'], status: false }),
  row('', 'v1', 'replicationcontrollers', 'ReplicationController', true, 'V1ReplicationController', {
    generation: true,
    shortNames: ['rc'],
    categories: ALL,
    scale: true,
  }),
  row('', 'v1', 'podtemplates', 'PodTemplate', true, 'V1PodTemplate', { status: false }),
  row('apps', 'v1', 'deployments', 'Deployment', true, 'V1Deployment', {
    generation: true,
    shortNames: ['deploy'],
    categories: ALL,
    scale: true,
  }),
  row('apps', 'v1', 'statefulsets', 'StatefulSet', true, 'V1StatefulSet', {
    generation: true,
    shortNames: ['sts'],
    categories: ALL,
    scale: true,
  }),
  row('apps', 'v1', 'daemonsets', 'DaemonSet', true, 'V1DaemonSet', {
    generation: true,
    shortNames: ['ds'],
    categories: ALL,
  }),
  row('apps', 'v1', 'replicasets', 'ReplicaSet', true, 'V1ReplicaSet', {
    generation: true,
    shortNames: ['rs'],
    categories: ALL,
    scale: true,
  }),
  row('apps', 'v1', 'controllerrevisions', 'ControllerRevision', true, 'V1ControllerRevision', { status: false }),
  row('batch', 'v1', 'jobs', 'Job', true, 'V1Job', { generation: true, categories: ALL }),
  row('batch', 'v1', 'cronjobs', 'CronJob', true, 'V1CronJob', {
    generation: true,
    shortNames: ['cj'],
    categories: ALL,
  }),
  row('autoscaling', 'v2', 'horizontalpodautoscalers', 'HorizontalPodAutoscaler', true, 'V2HorizontalPodAutoscaler', {
    generation: true,
    shortNames: ['hpa'],
    categories: ALL,
  }),
  row('autoscaling', 'v1', 'horizontalpodautoscalers', 'HorizontalPodAutoscaler', true, 'V1HorizontalPodAutoscaler', {
    generation: true,
    shortNames: ['hpa'],
    categories: ALL,
    storageVersion: 'v2',
  }),
  row('coordination.k8s.io', 'v1', 'leases', 'Lease', true, 'V1Lease', { status: false }),
  row('events.k8s.io', 'v1', 'events', 'Event', true, 'EventsV1Event', {
    shortNames: ['ev'],
    status: false,
    storage: { group: '', resource: 'events', version: 'v1' },
  }),
  row('discovery.k8s.io', 'v1', 'endpointslices', 'EndpointSlice', true, 'V1EndpointSlice', {
    generation: true,
    status: false,
  }),
  row('networking.k8s.io', 'v1', 'networkpolicies', 'NetworkPolicy', true, 'V1NetworkPolicy', {
    generation: true,
    shortNames: ['netpol'],
    status: false,
  }),
  row('networking.k8s.io', 'v1', 'ingresses', 'Ingress', true, 'V1Ingress', { generation: true, shortNames: ['ing'] }),
  row('networking.k8s.io', 'v1', 'ingressclasses', 'IngressClass', false, 'V1IngressClass', { status: false }),
  row('policy', 'v1', 'poddisruptionbudgets', 'PodDisruptionBudget', true, 'V1PodDisruptionBudget', {
    generation: true,
    shortNames: ['pdb'],
  }),
  row('rbac.authorization.k8s.io', 'v1', 'roles', 'Role', true, 'V1Role', { status: false }),
  row('rbac.authorization.k8s.io', 'v1', 'rolebindings', 'RoleBinding', true, 'V1RoleBinding', { status: false }),
  row('rbac.authorization.k8s.io', 'v1', 'clusterroles', 'ClusterRole', false, 'V1ClusterRole', { status: false }),
  row('rbac.authorization.k8s.io', 'v1', 'clusterrolebindings', 'ClusterRoleBinding', false, 'V1ClusterRoleBinding', {
    status: false,
  }),
  row('storage.k8s.io', 'v1', 'storageclasses', 'StorageClass', false, 'V1StorageClass', {
    shortNames: ['sc'],
    status: false,
  }),
  row('storage.k8s.io', 'v1', 'volumeattachments', 'VolumeAttachment', false, 'V1VolumeAttachment'),
  row('storage.k8s.io', 'v1', 'csidrivers', 'CSIDriver', false, 'V1CSIDriver', { status: false }),
  row('storage.k8s.io', 'v1', 'csinodes', 'CSINode', false, 'V1CSINode', { status: false }),
  row('scheduling.k8s.io', 'v1', 'priorityclasses', 'PriorityClass', false, 'V1PriorityClass', {
    shortNames: ['pc'],
    status: false,
  }),
  row('node.k8s.io', 'v1', 'runtimeclasses', 'RuntimeClass', false, 'V1RuntimeClass', { status: false }),
  row(
    'apiextensions.k8s.io',
    'v1',
    'customresourcedefinitions',
    'CustomResourceDefinition',
    false,
    'V1CustomResourceDefinition',
    { generation: true, shortNames: ['crd', 'crds'], categories: ['api-extensions'] },
  ),
  row('apiregistration.k8s.io', 'v1', 'apiservices', 'APIService', false, 'V1APIService', {
    categories: ['api-extensions'],
  }),
  row(
    'admissionregistration.k8s.io',
    'v1',
    'mutatingwebhookconfigurations',
    'MutatingWebhookConfiguration',
    false,
    'V1MutatingWebhookConfiguration',
    { generation: true, status: false, categories: ['api-extensions'] },
  ),
  row(
    'admissionregistration.k8s.io',
    'v1',
    'validatingwebhookconfigurations',
    'ValidatingWebhookConfiguration',
    false,
    'V1ValidatingWebhookConfiguration',
    { generation: true, status: false, categories: ['api-extensions'] },
  ),
  row(
    'certificates.k8s.io',
    'v1',
    'certificatesigningrequests',
    'CertificateSigningRequest',
    false,
    'V1CertificateSigningRequest',
    { shortNames: ['csr'], others: ['approval'] },
  ),
  row('authentication.k8s.io', 'v1', 'tokenreviews', 'TokenReview', false, 'V1TokenReview', {
    status: false,
    createOnly: true,
  }),
  row('authentication.k8s.io', 'v1', 'selfsubjectreviews', 'SelfSubjectReview', false, 'V1SelfSubjectReview', {
    status: false,
    createOnly: true,
  }),
  row('authorization.k8s.io', 'v1', 'subjectaccessreviews', 'SubjectAccessReview', false, 'V1SubjectAccessReview', {
    status: false,
    createOnly: true,
  }),
  row(
    'authorization.k8s.io',
    'v1',
    'selfsubjectaccessreviews',
    'SelfSubjectAccessReview',
    false,
    'V1SelfSubjectAccessReview',
    { status: false, createOnly: true },
  ),
  row(
    'authorization.k8s.io',
    'v1',
    'selfsubjectrulesreviews',
    'SelfSubjectRulesReview',
    false,
    'V1SelfSubjectRulesReview',
    { status: false, createOnly: true },
  ),
];
