// @gardener-ts/resourcemanager: the gardener-resource-manager's logic (Gardener's pkg/resourcemanager).
export * from './constants.js';
export { startResourceManager, resolveClusterID, type ResourceManagerOptions } from './resource-manager.js';
export { ClassFilter } from './class-filter.js';
export { TargetObjects } from './target.js';
export { StatusWriter } from './status.js';
export {
  ManagedResourceReconciler,
  ManagedResourceKind,
  describeObject,
  type ManagedResourceReconcilerOptions,
} from './controller/managedresource/reconcile.js';
export { merge, mergeMapsBasedOnOldMap, injectLabels, type MergeOptions } from './controller/managedresource/merge.js';
export { needsUpdate, isSubset, quantityValue } from './controller/managedresource/compare.js';
export { decodeSecrets, type DecodeResult, type DecodedObject } from './controller/managedresource/decode.js';
export { deletionWaves, deletionWave, applyPriority, sortForApply } from './controller/managedresource/order.js';
export { originFor, parseOrigin } from './controller/managedresource/origin.js';
export { HealthReconciler, type HealthReconcilerOptions } from './controller/health/reconcile.js';
export { GarbageCollector, collectGarbage, type GarbageCollectorOptions, type GarbageCollectionResult } from './controller/garbagecollector/reconcile.js';
export * from './health/checks.js';
export * from './references/references.js';
export { conditionTransitions, publishTransitions, type TransitionSink, type Transition } from './events/transitions.js';
