// The preview: which seeds the scheduler would choose for a shoot, computed like a real decision (same cache, same
// assumed bindings) but without binding, recording or publishing anything.
import type { Shoot } from '@gardener-ts/api';
import type { MessageInput, SchedulingPreviewRequest, SchedulingPreviewResponse } from '@gardener-ts/messaging';
import { decide } from '../controller/decide.js';
import type { InputOptions } from '../controller/inputs.js';
import type { SchedulingCache } from '../controller/scheduling-cache.js';
import { DEFAULT_MAX_REJECTED, previewResponseMessage } from '../decision/messages.js';

export type PreviewRequest = Partial<Pick<SchedulingPreviewRequest, 'shootJson' | 'maxRejected'>> & {
  shoot?: { namespace?: string; name?: string };
};

export function previewScheduling(
  request: PreviewRequest,
  cache: SchedulingCache,
  options: InputOptions,
): MessageInput<SchedulingPreviewResponse> {
  let shoot: Shoot;
  try {
    shoot = shootOf(request, cache);
  } catch (err) {
    return { error: (err as Error).message };
  }
  // The preview ranks as if the shoot were not bound yet.
  const unbound: Shoot = { ...shoot, spec: { ...shoot.spec, seedName: undefined } };
  const max = request.maxRejected && request.maxRejected > 0 ? request.maxRejected : DEFAULT_MAX_REJECTED;
  return previewResponseMessage(decide(unbound, cache, options), max);
}

function shootOf(request: PreviewRequest, cache: SchedulingCache): Shoot {
  if (request.shootJson) {
    let object: Record<string, any>;
    try {
      object = JSON.parse(request.shootJson) as Record<string, any>;
    } catch (err) {
      throw new Error(`shootJson is not JSON: ${(err as Error).message}`);
    }
    if (!object || typeof object !== 'object' || Array.isArray(object))
      throw new Error('shootJson must be a JSON object (a Shoot)');
    // Lenient on purpose: a preview needs only what the scheduler reads, not a Shoot that passes admission.
    const spec = object.spec as Record<string, any> | undefined;
    if (typeof spec?.provider?.type !== 'string' || typeof spec.region !== 'string') {
      throw new Error('shootJson must be a Shoot with spec.provider.type and spec.region');
    }
    return {
      apiVersion: 'core.gardener.cloud/v1beta1',
      kind: 'Shoot',
      ...object,
      metadata: { name: 'preview', ...(object.metadata ?? {}) },
    } as Shoot;
  }
  const name = request.shoot?.name;
  if (!name) throw new Error('the request names no shoot: set shootJson or shoot (namespace and name)');
  const shoot = cache.shoot(request.shoot?.namespace ?? '', name);
  if (!shoot) throw new Error(`shoot ${request.shoot?.namespace ?? ''}/${name} not found`);
  return shoot;
}
