// autoscaling/v1: Scale (the scale subresource) and HorizontalPodAutoscaler; autoscaling/v2: HorizontalPodAutoscaler,
// what `kubectl autoscale` creates (see notation.ts).
import type { MessageTable } from './notation.js';
import { AUTOSCALING, AUTOSCALING_V2, META, QUANTITY } from './notation.js';

const OBJECT_META = `metadata 1 ${META}.ObjectMeta`;
const HPA_CONDITION = [
  'type 1 string',
  'status 2 string',
  `lastTransitionTime 3 ${META}.Time`,
  'reason 4 string',
  'message 5 string',
  'observedGeneration 6 int64',
];

export const AUTOSCALING_MESSAGES: MessageTable = {
  // Go's ScaleSpec.replicas is a plain int32 (omitempty); its zero is kept here: `kubectl scale --replicas=0` sets it.
  [`${AUTOSCALING}.Scale`]: [OBJECT_META, 'spec 2 ScaleSpec', 'status 3 ScaleStatus'],
  [`${AUTOSCALING}.ScaleSpec`]: ['replicas 1 *int32'],
  [`${AUTOSCALING}.ScaleStatus`]: ['replicas 1 *int32', 'selector 2 string'],

  [`${AUTOSCALING}.HorizontalPodAutoscaler`]: [
    OBJECT_META,
    'spec 2 HorizontalPodAutoscalerSpec',
    'status 3 HorizontalPodAutoscalerStatus',
  ],
  [`${AUTOSCALING}.HorizontalPodAutoscalerSpec`]: [
    'scaleTargetRef 1 CrossVersionObjectReference',
    'minReplicas 2 *int32',
    'maxReplicas 3 *int32',
    'targetCPUUtilizationPercentage 4 *int32',
  ],
  [`${AUTOSCALING}.CrossVersionObjectReference`]: ['kind 1 string', 'name 2 string', 'apiVersion 3 string'],
  [`${AUTOSCALING}.HorizontalPodAutoscalerStatus`]: [
    'observedGeneration 1 *int64',
    `lastScaleTime 2 ${META}.Time`,
    'currentReplicas 3 *int32',
    'desiredReplicas 4 *int32',
    'currentCPUUtilizationPercentage 5 *int32',
  ],

  [`${AUTOSCALING_V2}.HorizontalPodAutoscaler`]: [
    OBJECT_META,
    'spec 2 HorizontalPodAutoscalerSpec',
    'status 3 HorizontalPodAutoscalerStatus',
  ],
  [`${AUTOSCALING_V2}.HorizontalPodAutoscalerSpec`]: [
    'scaleTargetRef 1 CrossVersionObjectReference',
    'minReplicas 2 *int32',
    'maxReplicas 3 *int32',
    'metrics 4 repeated MetricSpec',
    'behavior 5 HorizontalPodAutoscalerBehavior',
  ],
  [`${AUTOSCALING_V2}.CrossVersionObjectReference`]: ['kind 1 string', 'name 2 string', 'apiVersion 3 string'],
  [`${AUTOSCALING_V2}.HorizontalPodAutoscalerBehavior`]: ['scaleUp 1 HPAScalingRules', 'scaleDown 2 HPAScalingRules'],
  [`${AUTOSCALING_V2}.HPAScalingRules`]: [
    'stabilizationWindowSeconds 3 *int32',
    'selectPolicy 1 *string',
    'policies 2 repeated HPAScalingPolicy',
    `tolerance 4 ${QUANTITY}`,
  ],
  [`${AUTOSCALING_V2}.HPAScalingPolicy`]: ['type 1 string', 'value 2 *int32', 'periodSeconds 3 *int32'],
  [`${AUTOSCALING_V2}.MetricSpec`]: [
    'type 1 string',
    'object 2 ObjectMetricSource',
    'pods 3 PodsMetricSource',
    'resource 4 ResourceMetricSource',
    'containerResource 7 ContainerResourceMetricSource',
    'external 5 ExternalMetricSource',
  ],
  [`${AUTOSCALING_V2}.MetricTarget`]: [
    'type 1 string',
    `value 2 ${QUANTITY}`,
    `averageValue 3 ${QUANTITY}`,
    'averageUtilization 4 *int32',
  ],
  [`${AUTOSCALING_V2}.MetricIdentifier`]: ['name 1 string', `selector 2 ${META}.LabelSelector`],
  [`${AUTOSCALING_V2}.ObjectMetricSource`]: [
    'describedObject 1 CrossVersionObjectReference',
    'target 2 MetricTarget',
    'metric 3 MetricIdentifier',
  ],
  [`${AUTOSCALING_V2}.PodsMetricSource`]: ['metric 1 MetricIdentifier', 'target 2 MetricTarget'],
  [`${AUTOSCALING_V2}.ResourceMetricSource`]: ['name 1 string', 'target 2 MetricTarget'],
  [`${AUTOSCALING_V2}.ContainerResourceMetricSource`]: ['name 1 string', 'target 2 MetricTarget', 'container 3 string'],
  [`${AUTOSCALING_V2}.ExternalMetricSource`]: ['metric 1 MetricIdentifier', 'target 2 MetricTarget'],
  [`${AUTOSCALING_V2}.HorizontalPodAutoscalerStatus`]: [
    'observedGeneration 1 *int64',
    `lastScaleTime 2 ${META}.Time`,
    'currentReplicas 3 int32',
    'desiredReplicas 4 *int32',
    'currentMetrics 5 repeated MetricStatus',
    'conditions 6 repeated HorizontalPodAutoscalerCondition',
  ],
  [`${AUTOSCALING_V2}.HorizontalPodAutoscalerCondition`]: HPA_CONDITION,
  [`${AUTOSCALING_V2}.MetricStatus`]: [
    'type 1 string',
    'object 2 ObjectMetricStatus',
    'pods 3 PodsMetricStatus',
    'resource 4 ResourceMetricStatus',
    'containerResource 7 ContainerResourceMetricStatus',
    'external 5 ExternalMetricStatus',
  ],
  [`${AUTOSCALING_V2}.MetricValueStatus`]: [
    `value 1 ${QUANTITY}`,
    `averageValue 2 ${QUANTITY}`,
    'averageUtilization 3 *int32',
  ],
  [`${AUTOSCALING_V2}.ObjectMetricStatus`]: [
    'metric 1 MetricIdentifier',
    'current 2 MetricValueStatus',
    'describedObject 3 CrossVersionObjectReference',
  ],
  [`${AUTOSCALING_V2}.PodsMetricStatus`]: ['metric 1 MetricIdentifier', 'current 2 MetricValueStatus'],
  [`${AUTOSCALING_V2}.ResourceMetricStatus`]: ['name 1 string', 'current 2 MetricValueStatus'],
  [`${AUTOSCALING_V2}.ContainerResourceMetricStatus`]: [
    'name 1 string',
    'current 2 MetricValueStatus',
    'container 3 string',
  ],
  [`${AUTOSCALING_V2}.ExternalMetricStatus`]: ['metric 1 MetricIdentifier', 'current 2 MetricValueStatus'],
};
