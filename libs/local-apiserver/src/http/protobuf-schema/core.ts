// core/v1 outside the PodSpec: references, Namespace, ConfigMap, Secret, ServiceAccount, Service, ResourceQuota,
// LimitRange, PersistentVolumeClaim, Endpoints, Event, ReplicationController (see notation.ts; the PodSpec is in
// core-pod.ts, Node in core-node.ts, PersistentVolume and the in-tree volume sources in core-volumes.ts).
import type { MessageTable } from './notation.js';
import { CORE, INTSTR, META, QUANTITY } from './notation.js';

const OBJECT_META = `metadata 1 ${META}.ObjectMeta`;
const QMAP = `map<string,${QUANTITY}>`;

export const CORE_MESSAGES: MessageTable = {
  [`${CORE}.LocalObjectReference`]: ['name 1 string'],
  [`${CORE}.ObjectReference`]: [
    'kind 1 string',
    'namespace 2 string',
    'name 3 string',
    'uid 4 string',
    'apiVersion 5 string',
    'resourceVersion 6 string',
    'fieldPath 7 string',
  ],
  [`${CORE}.TypedLocalObjectReference`]: ['apiGroup 1 *string', 'kind 2 string', 'name 3 string'],
  [`${CORE}.TypedObjectReference`]: ['apiGroup 1 *string', 'kind 2 string', 'name 3 string', 'namespace 4 *string'],

  [`${CORE}.Namespace`]: [OBJECT_META, 'spec 2 NamespaceSpec', 'status 3 NamespaceStatus'],
  [`${CORE}.NamespaceSpec`]: ['finalizers 1 repeated string'],
  [`${CORE}.NamespaceStatus`]: ['phase 1 string', 'conditions 2 repeated NamespaceCondition'],
  [`${CORE}.NamespaceCondition`]: [
    'type 1 string',
    'status 2 string',
    `lastTransitionTime 4 ${META}.Time`,
    'reason 5 string',
    'message 6 string',
  ],
  [`${CORE}.ConfigMap`]: [
    OBJECT_META,
    'immutable 4 *bool',
    'data 2 map<string,string>',
    'binaryData 3 map<string,bytes>',
  ],
  [`${CORE}.Secret`]: [
    OBJECT_META,
    'immutable 5 *bool',
    'data 2 map<string,bytes>',
    'stringData 4 map<string,string>',
    'type 3 string',
  ],
  [`${CORE}.ServiceAccount`]: [
    OBJECT_META,
    'secrets 2 repeated ObjectReference',
    'imagePullSecrets 3 repeated LocalObjectReference',
    'automountServiceAccountToken 4 *bool',
  ],

  // Service
  [`${CORE}.Service`]: [OBJECT_META, 'spec 2 ServiceSpec', 'status 3 ServiceStatus'],
  [`${CORE}.ServiceSpec`]: [
    'ports 1 repeated ServicePort',
    'selector 2 map<string,string>',
    'clusterIP 3 string',
    'clusterIPs 18 repeated string',
    'type 4 string',
    'externalIPs 5 repeated string',
    'sessionAffinity 7 string',
    'loadBalancerIP 8 string',
    'loadBalancerSourceRanges 9 repeated string',
    'externalName 10 string',
    'externalTrafficPolicy 11 string',
    'healthCheckNodePort 12 int32',
    'publishNotReadyAddresses 13 bool',
    'sessionAffinityConfig 14 SessionAffinityConfig',
    'ipFamilies 19 repeated string',
    'ipFamilyPolicy 17 *string',
    'allocateLoadBalancerNodePorts 20 *bool',
    'loadBalancerClass 21 *string',
    'internalTrafficPolicy 22 *string',
    'trafficDistribution 23 *string',
  ],
  [`${CORE}.ServicePort`]: [
    'name 1 string',
    'protocol 2 string',
    'appProtocol 6 *string',
    'port 3 int32',
    `targetPort 4 ${INTSTR}`,
    'nodePort 5 int32',
  ],
  [`${CORE}.SessionAffinityConfig`]: ['clientIP 1 ClientIPConfig'],
  [`${CORE}.ClientIPConfig`]: ['timeoutSeconds 1 *int32'],
  [`${CORE}.ServiceStatus`]: ['loadBalancer 1 LoadBalancerStatus', `conditions 2 repeated ${META}.Condition`],
  [`${CORE}.LoadBalancerStatus`]: ['ingress 1 repeated LoadBalancerIngress'],
  [`${CORE}.LoadBalancerIngress`]: [
    'ip 1 string',
    'hostname 2 string',
    'ipMode 3 *string',
    'ports 4 repeated PortStatus',
  ],
  [`${CORE}.PortStatus`]: ['port 1 *int32', 'protocol 2 *string', 'error 3 *string'],

  // Quota and limits
  [`${CORE}.ResourceQuota`]: [OBJECT_META, 'spec 2 ResourceQuotaSpec', 'status 3 ResourceQuotaStatus'],
  [`${CORE}.ResourceQuotaSpec`]: [`hard 1 ${QMAP}`, 'scopes 2 repeated string', 'scopeSelector 3 ScopeSelector'],
  [`${CORE}.ResourceQuotaStatus`]: [`hard 1 ${QMAP}`, `used 2 ${QMAP}`],
  [`${CORE}.ScopeSelector`]: ['matchExpressions 1 repeated ScopedResourceSelectorRequirement'],
  [`${CORE}.ScopedResourceSelectorRequirement`]: [
    'scopeName 1 string',
    'operator 2 string',
    'values 3 repeated string',
  ],
  [`${CORE}.LimitRange`]: [OBJECT_META, 'spec 2 LimitRangeSpec'],
  [`${CORE}.LimitRangeSpec`]: ['limits 1 repeated LimitRangeItem'],
  [`${CORE}.LimitRangeItem`]: [
    'type 1 string',
    `max 2 ${QMAP}`,
    `min 3 ${QMAP}`,
    `default 4 ${QMAP}`,
    `defaultRequest 5 ${QMAP}`,
    `maxLimitRequestRatio 6 ${QMAP}`,
  ],

  // PersistentVolumeClaim (also the volumeClaimTemplates of StatefulSets and ephemeral volumes)
  [`${CORE}.PersistentVolumeClaim`]: [
    OBJECT_META,
    'spec 2 PersistentVolumeClaimSpec',
    'status 3 PersistentVolumeClaimStatus',
  ],
  [`${CORE}.PersistentVolumeClaimTemplate`]: [OBJECT_META, 'spec 2 PersistentVolumeClaimSpec'],
  [`${CORE}.PersistentVolumeClaimSpec`]: [
    'accessModes 1 repeated string',
    `selector 4 ${META}.LabelSelector`,
    'resources 2 VolumeResourceRequirements',
    'volumeName 3 string',
    'storageClassName 5 *string',
    'volumeMode 6 *string',
    'dataSource 7 TypedLocalObjectReference',
    'dataSourceRef 8 TypedObjectReference',
    'volumeAttributesClassName 9 *string',
  ],
  [`${CORE}.VolumeResourceRequirements`]: [`limits 1 ${QMAP}`, `requests 2 ${QMAP}`],
  [`${CORE}.PersistentVolumeClaimStatus`]: [
    'phase 1 string',
    'accessModes 2 repeated string',
    `capacity 3 ${QMAP}`,
    'conditions 4 repeated PersistentVolumeClaimCondition',
    `allocatedResources 5 ${QMAP}`,
    'allocatedResourceStatuses 7 map<string,string>',
    'currentVolumeAttributesClassName 8 *string',
    'modifyVolumeStatus 9 ModifyVolumeStatus',
  ],
  [`${CORE}.PersistentVolumeClaimCondition`]: [
    'type 1 string',
    'status 2 string',
    `lastProbeTime 3 ${META}.Time`,
    `lastTransitionTime 4 ${META}.Time`,
    'reason 5 string',
    'message 6 string',
  ],
  [`${CORE}.ModifyVolumeStatus`]: ['targetVolumeAttributesClassName 1 string', 'status 2 string'],

  // Endpoints (the legacy API, deprecated since 1.33 but still served)
  [`${CORE}.Endpoints`]: [OBJECT_META, 'subsets 2 repeated EndpointSubset'],
  [`${CORE}.EndpointSubset`]: [
    'addresses 1 repeated EndpointAddress',
    'notReadyAddresses 2 repeated EndpointAddress',
    'ports 3 repeated EndpointPort',
  ],
  [`${CORE}.EndpointAddress`]: [
    'ip 1 *string',
    'hostname 3 string',
    'nodeName 4 *string',
    'targetRef 2 ObjectReference',
  ],
  [`${CORE}.EndpointPort`]: ['name 1 string', 'port 2 *int32', 'protocol 3 string', 'appProtocol 4 *string'],

  // Event (core/v1; events.k8s.io/v1 is in events.ts). eventTime and series.lastObservedTime are MicroTime.
  [`${CORE}.Event`]: [
    OBJECT_META,
    'involvedObject 2 ObjectReference',
    'reason 3 string',
    'message 4 string',
    'source 5 EventSource',
    `firstTimestamp 6 ${META}.Time`,
    `lastTimestamp 7 ${META}.Time`,
    'count 8 int32',
    'type 9 string',
    `eventTime 10 ${META}.MicroTime`,
    'series 11 EventSeries',
    'action 12 string',
    'related 13 ObjectReference',
    'reportingComponent 14 *string',
    'reportingInstance 15 *string',
  ],
  [`${CORE}.EventSource`]: ['component 1 string', 'host 2 string'],
  [`${CORE}.EventSeries`]: ['count 1 int32', `lastObservedTime 2 ${META}.MicroTime`],

  // Topology selectors (StorageClass.allowedTopologies)
  [`${CORE}.TopologySelectorTerm`]: ['matchLabelExpressions 1 repeated TopologySelectorLabelRequirement'],
  [`${CORE}.TopologySelectorLabelRequirement`]: ['key 1 *string', 'values 2 repeated *string'],

  // ReplicationController
  [`${CORE}.ReplicationController`]: [
    OBJECT_META,
    'spec 2 ReplicationControllerSpec',
    'status 3 ReplicationControllerStatus',
  ],
  [`${CORE}.ReplicationControllerSpec`]: [
    'replicas 1 *int32',
    'minReadySeconds 4 int32',
    'selector 2 map<string,string>',
    'template 3 PodTemplateSpec',
  ],
  [`${CORE}.ReplicationControllerStatus`]: [
    'replicas 1 *int32',
    'fullyLabeledReplicas 2 int32',
    'readyReplicas 4 int32',
    'availableReplicas 5 int32',
    'observedGeneration 3 int64',
    'conditions 6 repeated ReplicationControllerCondition',
  ],
  [`${CORE}.ReplicationControllerCondition`]: [
    'type 1 string',
    'status 2 string',
    `lastTransitionTime 3 ${META}.Time`,
    'reason 4 string',
    'message 5 string',
  ],
};
