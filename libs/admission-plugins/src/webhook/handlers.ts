// The thin webhook shell over the admission chain: an AdmissionReview request becomes the plugins' attributes, the
// chain's answer becomes the review's response (a patch for a changed object, the plugin's Status for a denial).
import {
  denied,
  patched,
  allowed,
  type AdmissionHandler,
  type AdmissionRequest,
} from '@gardener-ts/controller-runtime';
import type { AdmissionAttributes, KubeObject, Listers } from '../attributes.js';
import { runMutating, runValidating, type AdmissionPlugin, type ChainResult } from '../chain.js';

/** The plugins' view of an AdmissionReview request. */
export function attributesOf(request: AdmissionRequest): AdmissionAttributes {
  return {
    operation: request.operation,
    kind: request.kind,
    resource: request.resource,
    ...(request.subResource ? { subresource: request.subResource } : {}),
    ...(request.namespace ? { namespace: request.namespace } : {}),
    ...(request.name ? { name: request.name } : {}),
    object: (request.object as KubeObject | null | undefined) ?? null,
    oldObject: (request.oldObject as KubeObject | null | undefined) ?? null,
    userInfo: request.userInfo ?? {},
    ...(request.dryRun ? { dryRun: true } : {}),
  };
}

function answer(result: ChainResult, log?: { info: (o: object, m: string) => void }) {
  if (!result.allowed) {
    log?.info({ plugin: result.plugin, code: result.code }, 'Request denied');
    return denied(result.message, { code: result.code, reason: result.reason });
  }
  return result.object ? patched(result.object, result.warnings) : allowed(undefined, result.warnings);
}

/** The mutating webhook: the chain's mutating phase. */
export function mutatingHandler(plugins: readonly AdmissionPlugin[], listers: Listers): AdmissionHandler {
  return async (request, ctx) => answer(await runMutating(plugins, attributesOf(request), listers), ctx.log);
}

/** The validating webhook: the chain's validating phase. */
export function validatingHandler(plugins: readonly AdmissionPlugin[], listers: Listers): AdmissionHandler {
  return async (request, ctx) => answer(await runValidating(plugins, attributesOf(request), listers), ctx.log);
}
