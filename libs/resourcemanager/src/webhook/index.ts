// The resource-manager's admission webhooks: pure decisions per webhook, their handlers and the server.
export * from './constants.js';
export { highAvailabilityConfig, type HighAvailabilityInput } from './high-availability.js';
export { replicaCount, topologySpreadConstraints, parseZones } from './topology.js';
export { kubernetesServiceHost, KubernetesServiceHostEnv } from './kubernetes-service-host.js';
export {
  projectedTokenMount,
  projectedTokenVolume,
  ProjectedTokenVolumeName,
  type ProjectedTokenMountInput,
} from './projected-token-mount.js';
export { podTopologySpreadConstraints } from './pod-topology-spread-constraints.js';
export {
  systemComponentsConfig,
  tolerationForTaint,
  type SystemComponentsConfigInput,
  type Taint,
} from './system-components-config.js';
export { endpointSliceHints } from './endpoint-slice-hints.js';
export { crdDeletionProtection, protectedResource } from './crd-deletion-protection.js';
export { extensionValidation, extensionErrors } from './extension-validation.js';
export { podSchedulerName } from './pod-scheduler-name.js';
export { seccompProfile } from './seccomp-profile.js';
export { mutatingWebhooks, validatingWebhooks, webhookConfigurations } from './configurations.js';
export { createSelfSignedCertificate, servingNames, type SelfSignedCertificate } from './certificates.js';
export { ResourceManagerWebhooks, webhookHandlers, type ResourceManagerWebhooksOptions } from './server.js';
export { tokenInvalidator, TokenInvalidatorPath, InvalidToken } from './token-invalidator.js';
export {
  authorizeNodeAgent,
  nodeAgentMachineName,
  NodeAgentAuthorizerPath,
  NodeAgentsGroup,
  NodeAgentUserNamePrefix,
  type NodeAgentReads,
  type AuthorizerResult,
} from './node-agent-authorizer.js';
export {
  decodeSubjectAccessReview,
  parseFieldSelector,
  type AuthorizationAttributes,
} from './subject-access-review.js';
export { registerWebhookConfigurations, registrationTarget } from './registration.js';
