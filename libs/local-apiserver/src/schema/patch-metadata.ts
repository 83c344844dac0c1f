// Kube's patch strategies and list types of built-in fields (the `patchStrategy`, `patchMergeKey`, `listType`
// and `listMapKey` markers of k8s.io/api), keyed `<client-node model>.<field>`. They drive strategic merge
// patches and server-side apply; the schema generator copies them into the OpenAPI documents for kubectl.
import type { OpenAPISchema } from './types.js';

type Meta = Pick<
  OpenAPISchema,
  | 'x-kubernetes-patch-strategy'
  | 'x-kubernetes-patch-merge-key'
  | 'x-kubernetes-list-type'
  | 'x-kubernetes-list-map-keys'
>;

const mergeBy = (key: string, ...mapKeys: string[]): Meta => ({
  'x-kubernetes-patch-strategy': 'merge',
  'x-kubernetes-patch-merge-key': key,
  'x-kubernetes-list-type': 'map',
  'x-kubernetes-list-map-keys': mapKeys.length > 0 ? mapKeys : [key],
});
const mergeRetainKeysBy = (key: string): Meta => ({
  ...mergeBy(key),
  'x-kubernetes-patch-strategy': 'merge,retainKeys',
});
const set: Meta = { 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-list-type': 'set' };
const retainKeys: Meta = { 'x-kubernetes-patch-strategy': 'retainKeys' };
const conditions = mergeBy('type');

export const PATCH_METADATA: Record<string, Meta> = {
  'V1ObjectMeta.finalizers': set,
  'V1ObjectMeta.ownerReferences': mergeBy('uid'),
  'V1PodSpec.containers': mergeBy('name'),
  'V1PodSpec.initContainers': mergeBy('name'),
  'V1PodSpec.ephemeralContainers': mergeBy('name'),
  'V1PodSpec.volumes': mergeRetainKeysBy('name'),
  'V1PodSpec.imagePullSecrets': mergeBy('name'),
  'V1PodSpec.hostAliases': mergeBy('ip'),
  'V1PodSpec.topologySpreadConstraints': mergeBy('topologyKey', 'topologyKey', 'whenUnsatisfiable'),
  'V1PodSpec.schedulingGates': mergeBy('name'),
  'V1PodSpec.resourceClaims': mergeRetainKeysBy('name'),
  'V1Container.ports': mergeBy('containerPort', 'containerPort', 'protocol'),
  'V1Container.env': mergeBy('name'),
  'V1Container.volumeMounts': mergeBy('mountPath'),
  'V1Container.volumeDevices': mergeBy('devicePath'),
  'V1EphemeralContainer.ports': mergeBy('containerPort', 'containerPort', 'protocol'),
  'V1EphemeralContainer.env': mergeBy('name'),
  'V1EphemeralContainer.volumeMounts': mergeBy('mountPath'),
  'V1ServiceSpec.ports': mergeBy('port', 'port', 'protocol'),
  'V1DeploymentSpec.strategy': retainKeys,
  'V1DaemonSetSpec.updateStrategy': retainKeys,
  'V1PodStatus.conditions': conditions,
  'V1NodeStatus.conditions': conditions,
  'V1NodeStatus.addresses': mergeBy('type'),
  'V1NodeSpec.podCIDRs': set,
  'V1NamespaceStatus.conditions': conditions,
  'V1DeploymentStatus.conditions': conditions,
  'V1ReplicaSetStatus.conditions': conditions,
  'V1StatefulSetStatus.conditions': conditions,
  'V1DaemonSetStatus.conditions': conditions,
  'V1ReplicationControllerStatus.conditions': conditions,
  'V1PersistentVolumeClaimStatus.conditions': conditions,
  'V1PodDisruptionBudgetStatus.conditions': conditions,
  'V1ServiceStatus.conditions': conditions,
  'V1CustomResourceDefinitionStatus.conditions': conditions,
  'V1APIServiceStatus.conditions': conditions,
  'V1CertificateSigningRequestStatus.conditions': conditions,
};
