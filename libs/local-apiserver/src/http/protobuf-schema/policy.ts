// policy/v1: PodDisruptionBudget and Eviction (see notation.ts).
import type { MessageTable } from './notation.js';
import { INTSTR, META, POLICY } from './notation.js';

export const POLICY_MESSAGES: MessageTable = {
  [`${POLICY}.PodDisruptionBudget`]: [
    `metadata 1 ${META}.ObjectMeta`,
    'spec 2 PodDisruptionBudgetSpec',
    'status 3 PodDisruptionBudgetStatus',
  ],
  [`${POLICY}.PodDisruptionBudgetSpec`]: [
    `minAvailable 1 ${INTSTR}`,
    `selector 2 ${META}.LabelSelector`,
    `maxUnavailable 3 ${INTSTR}`,
    'unhealthyPodEvictionPolicy 4 *string',
  ],
  [`${POLICY}.PodDisruptionBudgetStatus`]: [
    'observedGeneration 1 int64',
    `disruptedPods 2 map<string,${META}.Time>`,
    'disruptionsAllowed 3 *int32',
    'currentHealthy 4 *int32',
    'desiredHealthy 5 *int32',
    'expectedPods 6 *int32',
    `conditions 7 repeated ${META}.Condition`,
  ],
  [`${POLICY}.Eviction`]: [`metadata 1 ${META}.ObjectMeta`, `deleteOptions 2 ${META}.DeleteOptions`],
};
