export { WebhookServer, type HttpHandler, type WebhookServerOptions, type WebhookType } from './server.js';
export {
  allowed,
  denied,
  errored,
  patched,
  type AdmissionHandler,
  type AdmissionResult,
  type HandlerContext,
} from './admission.js';
export { CertWatcher, type CertWatcherOptions, type KeyPairFiles, type ServingKeyPair } from './cert-watcher.js';
export { createJsonPatch } from './json-patch.js';
export {
  decodeReview,
  encodeReview,
  MalformedReviewError,
  type AdmissionRequest,
  type AdmissionResponse,
  type AdmissionReview,
  type Operation,
} from './review.js';
export {
  rule,
  webhookConfiguration,
  type ClientTarget,
  type RuleWithOperations,
  type WebhookConfigurationSpec,
  type WebhookSpec,
} from './configuration.js';
export {
  conversionHandler,
  convertReview,
  decodeConversionReview,
  MalformedConversionReviewError,
  type ConversionRequest,
  type ConversionResponse,
  type ConversionReview,
  type ConvertFunction,
  type ConvertibleObject,
} from './conversion.js';
