// The token-invalidator webhook (Gardener's pkg/resourcemanager/webhook/tokeninvalidator): the static token of a
// legacy ServiceAccount token Secret that the TokenInvalidator controller labelled `consider` is replaced by an
// invalid value; once the label is gone again, the invalid token is removed so that kube-controller-manager
// regenerates a valid one. Registered for Secrets with `resources.gardener.cloud/purpose: token-invalidator`.
import type { ResourceManagerConfiguration } from '@gardener-ts/component-config';
import type { AdmissionRequest, AdmissionResult } from '@gardener-ts/controller-runtime';
import { PurposeTokenInvalidator, TokenInvalidatorLabel } from '../controller/tokeninvalidator/rules.js';
import { labelsOf, mutateCopy } from './mutate.js';

export const TokenInvalidatorPath = '/webhooks/invalidate-service-account-token-secret';
export const TokenInvalidatorWebhookName = 'token-invalidator.resources.gardener.cloud';
/** The label (and value) the webhook's object selector matches. */
export const TokenInvalidatorSelector = { [TokenInvalidatorLabel.Purpose]: PurposeTokenInvalidator } as const;

/** `.webhooks.tokenInvalidator.enabled`: Gardener enables the webhook separately from the controller of the same name. */
export function tokenInvalidatorEnabled(config: ResourceManagerConfiguration): boolean {
  return config.webhooks.tokenInvalidator.enabled;
}

/** The key of the token in a ServiceAccount token Secret. */
export const ServiceAccountTokenKey = 'token';
/** Gardener's invalid token: three NUL bytes (`AAAA` in the Secret's data). */
export const InvalidToken = Buffer.from([0, 0, 0]).toString('base64');

interface SecretObject {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string; labels?: Record<string, string> };
  data?: Record<string, string> | null;
}

/** Whether a base64 value of a Secret's data is Gardener's invalid token (compared by bytes, not by spelling). */
function isInvalidToken(value: string | undefined): boolean {
  return value !== undefined && Buffer.from(value, 'base64').equals(Buffer.from(InvalidToken, 'base64'));
}

export function tokenInvalidator(request: AdmissionRequest): AdmissionResult {
  return mutateCopy<SecretObject & { metadata: Record<string, any> }>(request, (secret) => {
    if (!secret.data) return 'data is nil';
    if (TokenInvalidatorLabel.Consider in labelsOf(secret)) {
      if (secret.data[ServiceAccountTokenKey] === InvalidToken) return 'token is already invalidated';
      secret.data[ServiceAccountTokenKey] = InvalidToken;
      return;
    }
    if (isInvalidToken(secret.data[ServiceAccountTokenKey])) {
      // No longer to be invalidated: without a token, kube-controller-manager generates a new one.
      delete secret.data[ServiceAccountTokenKey];
      return;
    }
    return 'nothing to do';
  });
}
