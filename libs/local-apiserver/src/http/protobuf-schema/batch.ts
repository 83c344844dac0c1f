// batch/v1: Job and CronJob (see notation.ts).
import type { MessageTable } from './notation.js';
import { BATCH, CORE, META } from './notation.js';

const OBJECT_META = `metadata 1 ${META}.ObjectMeta`;
const TIME = `${META}.Time`;

export const BATCH_MESSAGES: MessageTable = {
  [`${BATCH}.Job`]: [OBJECT_META, 'spec 2 JobSpec', 'status 3 JobStatus'],
  [`${BATCH}.JobSpec`]: [
    'parallelism 1 *int32',
    'completions 2 *int32',
    'activeDeadlineSeconds 3 *int64',
    'podFailurePolicy 11 PodFailurePolicy',
    'successPolicy 16 SuccessPolicy',
    'backoffLimit 7 *int32',
    'backoffLimitPerIndex 12 *int32',
    'maxFailedIndexes 13 *int32',
    `selector 4 ${META}.LabelSelector`,
    'manualSelector 5 *bool',
    `template 6 ${CORE}.PodTemplateSpec`,
    'ttlSecondsAfterFinished 8 *int32',
    'completionMode 9 *string',
    'suspend 10 *bool',
    'podReplacementPolicy 14 *string',
    'managedBy 15 *string',
  ],
  [`${BATCH}.PodFailurePolicy`]: ['rules 1 repeated PodFailurePolicyRule'],
  [`${BATCH}.PodFailurePolicyRule`]: [
    'action 1 string',
    'onExitCodes 2 PodFailurePolicyOnExitCodesRequirement',
    'onPodConditions 3 repeated PodFailurePolicyOnPodConditionsPattern',
  ],
  [`${BATCH}.PodFailurePolicyOnExitCodesRequirement`]: [
    'containerName 1 *string',
    'operator 2 string',
    'values 3 repeated int32',
  ],
  [`${BATCH}.PodFailurePolicyOnPodConditionsPattern`]: ['type 1 string', 'status 2 string'],
  [`${BATCH}.SuccessPolicy`]: ['rules 1 repeated SuccessPolicyRule'],
  [`${BATCH}.SuccessPolicyRule`]: ['succeededIndexes 1 *string', 'succeededCount 2 *int32'],
  [`${BATCH}.JobStatus`]: [
    'conditions 1 repeated JobCondition',
    `startTime 2 ${TIME}`,
    `completionTime 3 ${TIME}`,
    'active 4 int32',
    'succeeded 5 int32',
    'failed 6 int32',
    'terminating 11 *int32',
    'completedIndexes 7 string',
    'failedIndexes 10 *string',
    'uncountedTerminatedPods 8 UncountedTerminatedPods',
    'ready 9 *int32',
  ],
  [`${BATCH}.JobCondition`]: [
    'type 1 string',
    'status 2 string',
    `lastProbeTime 3 ${TIME}`,
    `lastTransitionTime 4 ${TIME}`,
    'reason 5 string',
    'message 6 string',
  ],
  [`${BATCH}.UncountedTerminatedPods`]: ['succeeded 1 repeated string', 'failed 2 repeated string'],

  [`${BATCH}.CronJob`]: [OBJECT_META, 'spec 2 CronJobSpec', 'status 3 CronJobStatus'],
  [`${BATCH}.CronJobSpec`]: [
    'schedule 1 string',
    'timeZone 8 *string',
    'startingDeadlineSeconds 2 *int64',
    'concurrencyPolicy 3 string',
    'suspend 4 *bool',
    'jobTemplate 5 JobTemplateSpec',
    'successfulJobsHistoryLimit 6 *int32',
    'failedJobsHistoryLimit 7 *int32',
  ],
  [`${BATCH}.JobTemplateSpec`]: [OBJECT_META, 'spec 2 JobSpec'],
  [`${BATCH}.CronJobStatus`]: [
    `active 1 repeated ${CORE}.ObjectReference`,
    `lastScheduleTime 4 ${TIME}`,
    `lastSuccessfulTime 5 ${TIME}`,
  ],
};
