// @gardener-ts/scheduling: which Seed each Shoot goes to, decided as Gardener's scheduler decides it.
export * from './constants.js';
export * from './types.js';
export { SchedulingInputError } from './errors.js';
export { determineSeed } from './determine.js';
export { describeRejections, type DescribeLimits } from './decision/describe.js';
export { seedUsage, type SeedUsage } from './seeds/usage.js';
export { quantityValue } from './seeds/quantity.js';
export { parseCidr, cidrsIntersect, type Cidr } from './networks/cidr.js';
export { levenshtein } from './strategies/levenshtein.js';
export { regionDistance, splitOrientation } from './strategies/region-distance.js';
export { findRegionConfig, regionDistances, isRegionConfig } from './strategies/region-config.js';
export { isPendingShoot } from './controller/pending.js';
export { AssumedBindings } from './controller/assumed.js';
export { decide } from './controller/decide.js';
export { schedulingInput, cloudProfileOf, type InputOptions } from './controller/inputs.js';
export {
  informerSchedulingCache,
  schedulingInformers,
  staticSchedulingCache,
  type SchedulingCache,
} from './controller/scheduling-cache.js';
export {
  ShootReconciler,
  type ShootEventSink,
  type DecisionSink,
  type ShootReconcilerOptions,
} from './controller/reconcile.js';
export {
  addShootScheduler,
  pendingShootChanged,
  CONTROLLER_NAME,
  type ShootScheduler,
  type ShootSchedulerOptions,
} from './controller/controller.js';
export { PendingShootWaker, seedSchedulingFingerprint } from './controller/waker.js';
export { schedulingDecisionMessage, previewResponseMessage } from './decision/messages.js';
export { PREVIEW_SUBJECT, PREVIEW_QUEUE } from './preview/subjects.js';
export { previewScheduling, type PreviewRequest } from './preview/preview.js';
export { servePreview } from './preview/responder.js';
export { requestPreview, type PreviewTarget } from './preview/request.js';
export { startScheduler, natsCredentials, type StartSchedulerOptions } from './scheduler.js';
