// apps/v1: Deployment, ReplicaSet, StatefulSet, DaemonSet and ControllerRevision (see notation.ts).
import type { MessageTable } from './notation.js';
import { APPS, CORE, INTSTR, META, RUNTIME } from './notation.js';

const OBJECT_META = `metadata 1 ${META}.ObjectMeta`;
const LS = `${META}.LabelSelector`;
const TEMPLATE = `${CORE}.PodTemplateSpec`;
const TIME = `${META}.Time`;

/** The condition shape apps/v1 uses for ReplicaSet, StatefulSet and DaemonSet. */
const CONDITION = [
  'type 1 string',
  'status 2 string',
  `lastTransitionTime 3 ${TIME}`,
  'reason 4 string',
  'message 5 string',
];

export const APPS_MESSAGES: MessageTable = {
  [`${APPS}.Deployment`]: [OBJECT_META, 'spec 2 DeploymentSpec', 'status 3 DeploymentStatus'],
  [`${APPS}.DeploymentSpec`]: [
    'replicas 1 *int32',
    `selector 2 ${LS}`,
    `template 3 ${TEMPLATE}`,
    'strategy 4 DeploymentStrategy',
    'minReadySeconds 5 int32',
    'revisionHistoryLimit 6 *int32',
    'paused 7 bool',
    'progressDeadlineSeconds 9 *int32',
    'podReplacementPolicy 10 *string',
  ],
  [`${APPS}.DeploymentStrategy`]: ['type 1 string', 'rollingUpdate 2 RollingUpdateDeployment'],
  [`${APPS}.RollingUpdateDeployment`]: [`maxUnavailable 1 ${INTSTR}`, `maxSurge 2 ${INTSTR}`],
  [`${APPS}.DeploymentStatus`]: [
    'observedGeneration 1 int64',
    'replicas 2 int32',
    'updatedReplicas 3 int32',
    'readyReplicas 7 int32',
    'availableReplicas 4 int32',
    'unavailableReplicas 5 int32',
    'terminatingReplicas 9 *int32',
    'conditions 6 repeated DeploymentCondition',
    'collisionCount 8 *int32',
  ],
  [`${APPS}.DeploymentCondition`]: [
    'type 1 string',
    'status 2 string',
    `lastUpdateTime 6 ${TIME}`,
    `lastTransitionTime 7 ${TIME}`,
    'reason 4 string',
    'message 5 string',
  ],

  [`${APPS}.ReplicaSet`]: [OBJECT_META, 'spec 2 ReplicaSetSpec', 'status 3 ReplicaSetStatus'],
  [`${APPS}.ReplicaSetSpec`]: [
    'replicas 1 *int32',
    'minReadySeconds 4 int32',
    `selector 2 ${LS}`,
    `template 3 ${TEMPLATE}`,
  ],
  [`${APPS}.ReplicaSetStatus`]: [
    'replicas 1 *int32',
    'fullyLabeledReplicas 2 int32',
    'readyReplicas 4 int32',
    'availableReplicas 5 int32',
    'terminatingReplicas 7 *int32',
    'observedGeneration 3 int64',
    'conditions 6 repeated ReplicaSetCondition',
  ],
  [`${APPS}.ReplicaSetCondition`]: CONDITION,

  [`${APPS}.StatefulSet`]: [OBJECT_META, 'spec 2 StatefulSetSpec', 'status 3 StatefulSetStatus'],
  [`${APPS}.StatefulSetSpec`]: [
    'replicas 1 *int32',
    `selector 2 ${LS}`,
    `template 3 ${TEMPLATE}`,
    `volumeClaimTemplates 4 repeated ${CORE}.PersistentVolumeClaim`,
    'serviceName 5 string',
    'podManagementPolicy 6 string',
    'updateStrategy 7 StatefulSetUpdateStrategy',
    'revisionHistoryLimit 8 *int32',
    'minReadySeconds 9 int32',
    'persistentVolumeClaimRetentionPolicy 10 StatefulSetPersistentVolumeClaimRetentionPolicy',
    'ordinals 11 StatefulSetOrdinals',
  ],
  [`${APPS}.StatefulSetUpdateStrategy`]: ['type 1 string', 'rollingUpdate 2 RollingUpdateStatefulSetStrategy'],
  [`${APPS}.RollingUpdateStatefulSetStrategy`]: ['partition 1 *int32', `maxUnavailable 2 ${INTSTR}`],
  [`${APPS}.StatefulSetPersistentVolumeClaimRetentionPolicy`]: ['whenDeleted 1 string', 'whenScaled 2 string'],
  [`${APPS}.StatefulSetOrdinals`]: ['start 1 int32'],
  [`${APPS}.StatefulSetStatus`]: [
    'observedGeneration 1 int64',
    'replicas 2 *int32',
    'readyReplicas 3 int32',
    'currentReplicas 4 int32',
    'updatedReplicas 5 int32',
    'currentRevision 6 string',
    'updateRevision 7 string',
    'collisionCount 9 *int32',
    'conditions 10 repeated StatefulSetCondition',
    'availableReplicas 11 int32',
  ],
  [`${APPS}.StatefulSetCondition`]: CONDITION,

  [`${APPS}.DaemonSet`]: [OBJECT_META, 'spec 2 DaemonSetSpec', 'status 3 DaemonSetStatus'],
  [`${APPS}.DaemonSetSpec`]: [
    `selector 1 ${LS}`,
    `template 2 ${TEMPLATE}`,
    'updateStrategy 3 DaemonSetUpdateStrategy',
    'minReadySeconds 4 int32',
    'revisionHistoryLimit 6 *int32',
  ],
  [`${APPS}.DaemonSetUpdateStrategy`]: ['type 1 string', 'rollingUpdate 2 RollingUpdateDaemonSet'],
  [`${APPS}.RollingUpdateDaemonSet`]: [`maxUnavailable 1 ${INTSTR}`, `maxSurge 2 ${INTSTR}`],
  [`${APPS}.DaemonSetStatus`]: [
    'currentNumberScheduled 1 *int32',
    'numberMisscheduled 2 *int32',
    'desiredNumberScheduled 3 *int32',
    'numberReady 4 *int32',
    'observedGeneration 5 int64',
    'updatedNumberScheduled 6 int32',
    'numberAvailable 7 int32',
    'numberUnavailable 8 int32',
    'collisionCount 9 *int32',
    'conditions 10 repeated DaemonSetCondition',
  ],
  [`${APPS}.DaemonSetCondition`]: CONDITION,

  [`${APPS}.ControllerRevision`]: [OBJECT_META, `data 2 ${RUNTIME}.RawExtension`, 'revision 3 *int64'],
};
