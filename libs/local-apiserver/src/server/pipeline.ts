// The steps every write passes before it is stored, in kube's order: mutating (defaulting, mutating admission),
// then validating (schema validation, validating admission). Security and webhooks plug in here.
import type { ResourceDefinition } from '../registry/types.js';
import type { KubeObject } from '../storage/types.js';
import type { RequestContext } from './context.js';

export type Operation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

export interface WriteRequest {
  operation: Operation;
  definition: ResourceDefinition;
  namespace: string;
  name: string;
  subresource: string;
  /** The object to be stored (mutable in mutating steps); the old object for DELETE. */
  object: KubeObject;
  oldObject?: KubeObject;
  ctx: RequestContext;
}

/** A step changes `request.object` (mutating) or throws an ApiError to refuse the request. */
export type WriteStep = (request: WriteRequest) => void | Promise<void>;

export interface Pipeline {
  mutating: WriteStep[];
  validating: WriteStep[];
}

/**
 * Runs the mutating steps, then `prepare` (kube's strategy PrepareForUpdate: metadata.generation is decided on the
 * defaulted, mutated object, so a write that only omits defaulted fields is no spec change), then the validating steps.
 */
export async function runPipeline(
  pipeline: Pipeline,
  request: WriteRequest,
  prepare?: (object: KubeObject) => void,
): Promise<void> {
  for (const step of pipeline.mutating) await step(request);
  prepare?.(request.object);
  for (const step of pipeline.validating) await step(request);
}
