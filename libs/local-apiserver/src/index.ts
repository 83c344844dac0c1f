export {
  LocalApiServer,
  KUBERNETES_VERSION,
  type LocalApiServerOptions,
  type StorageKind,
  type EtcdTLSOptions,
  type ServiceAccountOptions,
} from './server/apiserver.js';
export { ObjectService } from './server/objects.js';
export { Registry } from './registry/registry.js';
export type { ResourceDefinition, PrinterColumn } from './registry/types.js';
export type { Storage, KubeObject, StorageEvent } from './storage/types.js';
export { ApiError } from './api/errors.js';
export { startTestCluster, type TestCluster } from './testing/test-cluster.js';
export type { AuthorizationWebhookOptions } from './auth/webhook-authorizer.js';
export { createCA, issueCertificate, type CertificateAuthority, type KeyPair } from './pki/certs.js';
export { kubeconfig } from './pki/kubeconfig.js';
export { API_AUDIENCES } from './auth/service-account-tokens.js';
export { ROOT_CA_CONFIGMAP, ROOT_CA_CONFIGMAP_DESCRIPTION } from './controllers/namespace-defaults.js';
