export { loadKubeConfig, TokenFileRefreshMs, type LoadKubeConfigOptions } from './kubeconfig.js';
export {
  ApiClient,
  type Client,
  type Reader,
  type Writer,
  type PatchOptions,
  type WatchEvent,
  type WatchEventType,
  type WatchOptions,
} from './client.js';
export {
  ApiError,
  isNotFound,
  isConflict,
  isAlreadyExists,
  isGone,
  isInvalid,
  isForbidden,
  ignoreNotFound,
  type StatusDetails,
  type StatusCause,
} from './api-error.js';
export {
  kind,
  kindFrom,
  metadataOnly,
  gvkOf,
  apiVersionOf,
  parseApiVersion,
  gvkString,
  type GroupVersionKind,
  type Kind,
  type ObjectOf,
} from './gvk.js';
export { RESTMapper, NoKindMatchError, type RESTMapping } from './rest-mapper.js';
export { Transport, type TransportOptions } from './transport.js';
export { TokenBucket, clientRateLimiter, DEFAULT_QPS, DEFAULT_BURST, type ClientRateLimit } from './rate-limit.js';
export * from './kinds.js';
export type {
  DeleteOptions,
  JsonPatchOperation,
  ListOptions,
  Patch,
  PropagationPolicy,
  Selector,
  WriteOptions,
} from './options.js';
export type {
  KubernetesObject,
  ObjectKey,
  ObjectList,
  ObjectMeta,
  OwnerReference,
  ListMeta,
  PartialObjectMetadata,
} from './types.js';
export { applyMergePatch } from './merge-patch.js';
