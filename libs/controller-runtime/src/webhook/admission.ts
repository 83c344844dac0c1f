// What webhook handlers return, and the helpers that build it: allow (optionally with a changed object), deny.
import type { KubernetesObject } from '../client/types.js';
import type { Logger } from '@gardener-ts/logging';
import type { AdmissionRequest } from './review.js';

export type AdmissionResult =
  | {
      allowed: true;
      message?: string;
      warnings?: string[];
      /** Mutating webhooks: the object as it should be stored. */ patched?: KubernetesObject;
    }
  | { allowed: false; code: number; reason?: string; message: string; warnings?: string[] };

export interface HandlerContext {
  log: Logger;
  /** Aborts when the server's timeout for the request passes: stop working, the answer is no longer awaited. */
  signal: AbortSignal;
}

export type AdmissionHandler<T extends KubernetesObject = KubernetesObject> = (
  request: AdmissionRequest<T>,
  ctx: HandlerContext,
) => AdmissionResult | Promise<AdmissionResult>;

export function allowed(message?: string, warnings?: string[]): AdmissionResult {
  return { allowed: true, ...(message ? { message } : {}), ...(warnings?.length ? { warnings } : {}) };
}

/** Allows the request with `object` in place of the one sent: the server answers with the JSON patch between them. */
export function patched(object: KubernetesObject, warnings?: string[]): AdmissionResult {
  return { allowed: true, patched: object, ...(warnings?.length ? { warnings } : {}) };
}

/** Denies the request; the message reaches the user (kubectl prints it). Default code 403 Forbidden. */
export function denied(
  message: string,
  options: { code?: number; reason?: string; warnings?: string[] } = {},
): AdmissionResult {
  return {
    allowed: false,
    code: options.code ?? 403,
    reason: options.reason ?? 'Forbidden',
    message,
    ...(options.warnings?.length ? { warnings: options.warnings } : {}),
  };
}

/** Denies the request because the webhook could not decide (code 500 unless given). */
export function errored(err: unknown, code = 500): AdmissionResult {
  return {
    allowed: false,
    code,
    reason: code === 400 ? 'BadRequest' : 'InternalError',
    message: err instanceof Error ? err.message : String(err),
  };
}
