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
} from './controller/managedresource/reconciler.js';
export { addManagedResourceController, type ManagedResourceControllerDeps } from './controller/managedresource/add.js';
export { addHealthController, type HealthControllerDeps } from './controller/health/add.js';
export { addGarbageCollector, type GarbageCollectorDeps } from './controller/garbagecollector/add.js';
export { merge, mergeMapsBasedOnOldMap, injectLabels, type MergeOptions } from './controller/managedresource/merge.js';
export { needsUpdate, isSubset, quantityValue } from './controller/managedresource/compare.js';
export { decodeSecrets, type DecodeResult, type DecodedObject } from './controller/managedresource/decode.js';
export { deletionWaves, deletionWave, applyPriority, sortForApply } from './controller/managedresource/order.js';
export { originFor, parseOrigin } from './controller/managedresource/origin.js';
export { HealthReconciler, type HealthReconcilerOptions } from './controller/health/reconciler.js';
export {
  GarbageCollectorReconciler,
  collectGarbage,
  type GarbageCollectorOptions,
  type GarbageCollectionResult,
} from './controller/garbagecollector/reconciler.js';
export * from './health/checks.js';
export * from './references/references.js';
export { desiredPolicies, portsExposedByIngresses, type DesiredInput } from './controller/networkpolicy/desired.js';
export { NetworkPolicyReconciler, type NetworkPolicyReconcilerOptions } from './controller/networkpolicy/reconcile.js';
export { addNetworkPolicyController, type NetworkPolicyControllerConfig } from './controller/networkpolicy/add.js';
export { NetworkingAnnotation, NetworkingLabel } from './controller/networkpolicy/types.js';
/** The resource-manager document's NetworkPolicy examples as data (Services in, policies out), for tests. */
export * as networkPolicySeedExamples from './controller/networkpolicy/seed-examples.js';
export {
  conditionTransitions,
  publishTransitions,
  type TransitionSink,
  type Transition,
} from './events/transitions.js';
export { TokenRequestor, withToken, type TokenRequestorOptions } from './controller/tokenrequestor/reconcile.js';
export { setKubeconfigToken, kubeconfigToken, kubeconfigCA } from './controller/tokenrequestor/kubeconfig.js';
export { renewAfterMs, expirationSeconds, isTokenRequestorSecret } from './controller/tokenrequestor/renewal.js';
export { TokenRequestorAnnotation, TokenRequestorLabel } from './controller/tokenrequestor/names.js';
export { seedKubeconfig as tokenRequestorSeedKubeconfig } from './controller/tokenrequestor/seed-example.js';
export { TokenInvalidator } from './controller/tokeninvalidator/reconcile.js';
export { planInvalidation, TokenInvalidatorLabel, type InvalidatorPlan } from './controller/tokeninvalidator/rules.js';
export { CSRApprover } from './controller/csrapprover/reconcile.js';
export { decideKubeletServing, approvalCondition, type Decision } from './controller/csrapprover/rules.js';
export { parseCertificateRequest, type CertificateRequestInfo } from './controller/csrapprover/certificate-request.js';
export { NodeCriticalComponents } from './controller/nodecriticalcomponents/reconcile.js';
export { NodeAgentReconciliationDelay } from './controller/nodeagentreconciliationdelay/reconcile.js';
export {
  AnnotationNodeAgentReconciliationDelay,
  reconciliationDelays,
} from './controller/nodeagentreconciliationdelay/delay.js';
export {
  criticalComponentsFindings,
  TaintCriticalComponentsNotReady,
  LabelCriticalComponent,
} from './controller/nodecriticalcomponents/rules.js';
export { nodeShouldRunDaemonPod } from './controller/nodecriticalcomponents/daemon.js';
export * from './webhook/index.js';
