// Typed built-in Kinds in one module: `Kinds.Secret`, `Kinds.Deployment`, ... each a `Kind<T>` (usable with every
// client and cache call) that also names its apiVersion, resource plural and scope.
import { kind, type Kind } from '../client/gvk.js';
import type { ConfigMap, GenericObject, Secret } from '../client/kinds.js';
import type { KubernetesObject } from '../client/types.js';
import type { Lease } from '../leaderelection/lease.js';

/** A built-in kind: the `Kind<T>` plus its apiVersion, plural resource name and whether it is namespaced. */
export interface BuiltinKind<T extends KubernetesObject = KubernetesObject> extends Kind<T> {
  readonly apiVersion: string;
  readonly plural: string;
  readonly namespaced: boolean;
}

/** A condition of a built-in object's status (Deployment, Node, Pod, ...). */
export interface StatusCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown' | string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
  lastUpdateTime?: string;
}

/** The fields health checks and rollouts read on Deployments, StatefulSets, ReplicaSets and DaemonSets. */
export interface Workload extends KubernetesObject {
  spec?: {
    replicas?: number;
    selector?: { matchLabels?: Record<string, string>; matchExpressions?: unknown[] };
    template?: {
      metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
      spec?: Record<string, unknown>;
    };
    [field: string]: unknown;
  };
  status?: {
    observedGeneration?: number;
    replicas?: number;
    readyReplicas?: number;
    updatedReplicas?: number;
    availableReplicas?: number;
    currentReplicas?: number;
    desiredNumberScheduled?: number;
    currentNumberScheduled?: number;
    numberReady?: number;
    numberAvailable?: number;
    numberUnavailable?: number;
    updatedNumberScheduled?: number;
    conditions?: StatusCondition[];
    [field: string]: unknown;
  };
}

/** A Pod with the fields controllers read most. */
export interface PodObject extends KubernetesObject {
  spec?: { nodeName?: string; containers?: { name: string; image?: string }[]; [field: string]: unknown };
  status?: { phase?: string; conditions?: StatusCondition[]; podIP?: string; [field: string]: unknown };
}

/** A Node with its conditions, addresses and taints. */
export interface NodeObject extends KubernetesObject {
  spec?: {
    unschedulable?: boolean;
    taints?: { key: string; value?: string; effect: string }[];
    [field: string]: unknown;
  };
  status?: {
    conditions?: StatusCondition[];
    addresses?: { type: string; address: string }[];
    [field: string]: unknown;
  };
}

function builtin<T extends KubernetesObject>(
  apiVersion: string,
  kindName: string,
  plural: string,
  namespaced: boolean,
): BuiltinKind<T> {
  return Object.freeze({ ...kind<T>(apiVersion, kindName), apiVersion, plural, namespaced });
}

/** The built-in kinds controllers use, typed. Declare others with `kind()`. */
export const Kinds = Object.freeze({
  Namespace: builtin<GenericObject>('v1', 'Namespace', 'namespaces', false),
  ConfigMap: builtin<ConfigMap>('v1', 'ConfigMap', 'configmaps', true),
  Secret: builtin<Secret>('v1', 'Secret', 'secrets', true),
  Service: builtin<GenericObject>('v1', 'Service', 'services', true),
  ServiceAccount: builtin<GenericObject>('v1', 'ServiceAccount', 'serviceaccounts', true),
  Pod: builtin<PodObject>('v1', 'Pod', 'pods', true),
  Node: builtin<NodeObject>('v1', 'Node', 'nodes', false),
  Endpoints: builtin<GenericObject>('v1', 'Endpoints', 'endpoints', true),
  Event: builtin<GenericObject>('v1', 'Event', 'events', true),
  PersistentVolume: builtin<GenericObject>('v1', 'PersistentVolume', 'persistentvolumes', false),
  PersistentVolumeClaim: builtin<GenericObject>('v1', 'PersistentVolumeClaim', 'persistentvolumeclaims', true),
  Deployment: builtin<Workload>('apps/v1', 'Deployment', 'deployments', true),
  StatefulSet: builtin<Workload>('apps/v1', 'StatefulSet', 'statefulsets', true),
  DaemonSet: builtin<Workload>('apps/v1', 'DaemonSet', 'daemonsets', true),
  ReplicaSet: builtin<Workload>('apps/v1', 'ReplicaSet', 'replicasets', true),
  Job: builtin<GenericObject>('batch/v1', 'Job', 'jobs', true),
  CronJob: builtin<GenericObject>('batch/v1', 'CronJob', 'cronjobs', true),
  Lease: builtin<Lease>('coordination.k8s.io/v1', 'Lease', 'leases', true),
  Role: builtin<GenericObject>('rbac.authorization.k8s.io/v1', 'Role', 'roles', true),
  RoleBinding: builtin<GenericObject>('rbac.authorization.k8s.io/v1', 'RoleBinding', 'rolebindings', true),
  ClusterRole: builtin<GenericObject>('rbac.authorization.k8s.io/v1', 'ClusterRole', 'clusterroles', false),
  ClusterRoleBinding: builtin<GenericObject>(
    'rbac.authorization.k8s.io/v1',
    'ClusterRoleBinding',
    'clusterrolebindings',
    false,
  ),
  NetworkPolicy: builtin<GenericObject>('networking.k8s.io/v1', 'NetworkPolicy', 'networkpolicies', true),
  Ingress: builtin<GenericObject>('networking.k8s.io/v1', 'Ingress', 'ingresses', true),
  EndpointSlice: builtin<GenericObject>('discovery.k8s.io/v1', 'EndpointSlice', 'endpointslices', true),
  PodDisruptionBudget: builtin<GenericObject>('policy/v1', 'PodDisruptionBudget', 'poddisruptionbudgets', true),
  HorizontalPodAutoscaler: builtin<GenericObject>(
    'autoscaling/v2',
    'HorizontalPodAutoscaler',
    'horizontalpodautoscalers',
    true,
  ),
  PriorityClass: builtin<GenericObject>('scheduling.k8s.io/v1', 'PriorityClass', 'priorityclasses', false),
  StorageClass: builtin<GenericObject>('storage.k8s.io/v1', 'StorageClass', 'storageclasses', false),
  CertificateSigningRequest: builtin<GenericObject>(
    'certificates.k8s.io/v1',
    'CertificateSigningRequest',
    'certificatesigningrequests',
    false,
  ),
  CustomResourceDefinition: builtin<GenericObject>(
    'apiextensions.k8s.io/v1',
    'CustomResourceDefinition',
    'customresourcedefinitions',
    false,
  ),
  APIService: builtin<GenericObject>('apiregistration.k8s.io/v1', 'APIService', 'apiservices', false),
  MutatingWebhookConfiguration: builtin<GenericObject>(
    'admissionregistration.k8s.io/v1',
    'MutatingWebhookConfiguration',
    'mutatingwebhookconfigurations',
    false,
  ),
  ValidatingWebhookConfiguration: builtin<GenericObject>(
    'admissionregistration.k8s.io/v1',
    'ValidatingWebhookConfiguration',
    'validatingwebhookconfigurations',
    false,
  ),
});

/** The name of a built-in kind in `Kinds`. */
export type BuiltinKindName = keyof typeof Kinds;
