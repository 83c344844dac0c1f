// core/v1: Node (spec with taints and the deprecated configSource, status with addresses, conditions, capacity,
// nodeInfo, images, daemonEndpoints, config, runtime handlers and features); see notation.ts.
// Field numbers: k8s.io/api core/v1 generated.proto. Go prints NodeSystemInfo, DaemonEndpoint.Port and the address
// and attached-volume fields without omitempty, hence the `*`.
import type { MessageTable } from './notation.js';
import { CORE, META, QUANTITY } from './notation.js';

const QMAP = `map<string,${QUANTITY}>`;

export const CORE_NODE_MESSAGES: MessageTable = {
  [`${CORE}.Node`]: [`metadata 1 ${META}.ObjectMeta`, 'spec 2 NodeSpec', 'status 3 NodeStatus'],
  [`${CORE}.NodeSpec`]: [
    'podCIDR 1 string',
    'podCIDRs 7 repeated string',
    'providerID 3 string',
    'unschedulable 4 bool',
    'taints 5 repeated Taint',
    'configSource 6 NodeConfigSource',
    'externalID 2 string',
  ],
  [`${CORE}.Taint`]: ['key 1 *string', 'value 2 string', 'effect 3 *string', `timeAdded 4 ${META}.Time`],
  [`${CORE}.NodeConfigSource`]: ['configMap 2 ConfigMapNodeConfigSource'],
  [`${CORE}.ConfigMapNodeConfigSource`]: [
    'namespace 1 *string',
    'name 2 *string',
    'uid 3 string',
    'resourceVersion 4 string',
    'kubeletConfigKey 5 *string',
  ],
  [`${CORE}.NodeStatus`]: [
    `capacity 1 ${QMAP}`,
    `allocatable 2 ${QMAP}`,
    'phase 3 string',
    'conditions 4 repeated NodeCondition',
    'addresses 5 repeated NodeAddress',
    'daemonEndpoints 6 NodeDaemonEndpoints',
    'nodeInfo 7 NodeSystemInfo',
    'images 8 repeated ContainerImage',
    'volumesInUse 9 repeated string',
    'volumesAttached 10 repeated AttachedVolume',
    'config 11 NodeConfigStatus',
    'runtimeHandlers 12 repeated NodeRuntimeHandler',
    'features 13 NodeFeatures',
    'declaredFeatures 14 repeated string',
  ],
  [`${CORE}.NodeCondition`]: [
    'type 1 *string',
    'status 2 *string',
    `lastHeartbeatTime 3 ${META}.Time`,
    `lastTransitionTime 4 ${META}.Time`,
    'reason 5 string',
    'message 6 string',
  ],
  [`${CORE}.NodeAddress`]: ['type 1 *string', 'address 2 *string'],
  [`${CORE}.NodeDaemonEndpoints`]: ['kubeletEndpoint 1 DaemonEndpoint'],
  [`${CORE}.DaemonEndpoint`]: ['Port 1 *int32'],
  [`${CORE}.NodeSystemInfo`]: [
    'machineID 1 *string',
    'systemUUID 2 *string',
    'bootID 3 *string',
    'kernelVersion 4 *string',
    'osImage 5 *string',
    'containerRuntimeVersion 6 *string',
    'kubeletVersion 7 *string',
    'kubeProxyVersion 8 *string',
    'operatingSystem 9 *string',
    'architecture 10 *string',
    'swap 11 NodeSwapStatus',
  ],
  [`${CORE}.NodeSwapStatus`]: ['capacity 1 *int64'],
  [`${CORE}.ContainerImage`]: ['names 1 repeated string', 'sizeBytes 2 int64'],
  [`${CORE}.AttachedVolume`]: ['name 1 *string', 'devicePath 2 *string'],
  [`${CORE}.NodeConfigStatus`]: [
    'assigned 1 NodeConfigSource',
    'active 2 NodeConfigSource',
    'lastKnownGood 3 NodeConfigSource',
    'error 4 string',
  ],
  [`${CORE}.NodeRuntimeHandler`]: ['name 1 *string', 'features 2 NodeRuntimeHandlerFeatures'],
  [`${CORE}.NodeRuntimeHandlerFeatures`]: ['recursiveReadOnlyMounts 1 *bool', 'userNamespaces 2 *bool'],
  [`${CORE}.NodeFeatures`]: ['supplementalGroupsPolicy 1 *bool', 'containerUlimits 2 *bool'],
};
