// @gardener-ts/admission-plugins: gardener-apiserver's strategies and admission plugins and gardener-admission-controller's handlers, as pure functions with webhook shells.
export {
  allow,
  mutated,
  forbidden,
  forbiddenFields,
  invalidObject,
  badRequest,
  qualifiedResource,
  type AccessAttributes,
  type AdmissionAttributes,
  type AdmissionDecision,
  type AdmissionOperation,
  type KubeObject,
  type Listers,
  type UserInfo,
} from './attributes.js';
export { runChain, runMutating, runValidating, type AdmissionPlugin, type ChainResult } from './chain.js';
export * from './plugins/index.js';
export { clientListers, staticListers } from './listers.js';
export { attributesOf, mutatingHandler, validatingHandler } from './webhook/handlers.js';
export {
  admissionWebhookConfigurations,
  ADMITTED_GROUPS,
  WEBHOOK_CONFIGURATION_NAME,
  WebhookPaths,
} from './webhook/configurations.js';
export {
  createServingCertificate,
  ensureServingCertificate,
  serviceNames,
  type ServingCertificate,
  type ServingNames,
} from './webhook/certificates.js';
export { configuredService, injectCABundle, withCABundle } from './webhook/ca-bundle.js';
export { admissionWebhookServer, type AdmissionWebhookServerOptions } from './webhook/server.js';
export { startAdmissionController } from './admission-controller.js';
export {
  authorizeSeed,
  secretsOfSeed,
  seedNamespace,
  seedOfUser,
  SEEDS_GROUP,
  SEED_USER_PREFIX,
  type AuthorizationDecision,
  type ResourceAttributes,
} from './authorizer/seed-authorizer.js';
export { reviewSubjectAccess, seedAuthorizerHandler } from './authorizer/handler.js';
export { SeedRestriction } from './authorizer/seed-restriction.js';
