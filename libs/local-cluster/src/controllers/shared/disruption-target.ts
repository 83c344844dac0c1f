// kube's DisruptionTarget pod condition, set before a controller deletes a pod it did not ask for (taint eviction, pod
// garbage collection), so the pod's owner (a Job's pod failure policy, say) can tell why it went.
import { ignoreNotFound, isConflict, isNotFound } from '@gardener-ts/controller-runtime';
import type { ControllerContext } from './context.js';
import { type Pod, type PodCondition, PodKind } from './kinds.js';
import { rfc3339 } from './time.js';

/**
 * Sets `DisruptionTarget=True` with `reason`/`message` on the live pod (and `phase: Failed` when `fail`, as pod GC
 * does for a pod whose node is gone). Best effort: a pod changed or gone meanwhile keeps no condition.
 */
export async function markDisruptionTarget(
  ctx: Pick<ControllerContext, 'api' | 'client' | 'now'>,
  cached: Pod,
  reason: string,
  message: string,
  options: { fail?: boolean } = {},
): Promise<void> {
  // Live, not cached: a status write on a stale copy would conflict and lose the condition.
  const pod = await ctx.api
    .get(PodKind, { namespace: cached.metadata!.namespace!, name: cached.metadata!.name! })
    .catch(ignoreNotFound);
  if (!pod || pod.metadata?.uid !== cached.metadata?.uid) return;
  const current = pod.status?.conditions?.find((c) => c.type === 'DisruptionTarget');
  if (current?.status === 'True' && current.reason === reason && (!options.fail || pod.status?.phase === 'Failed'))
    return;
  const condition: PodCondition = {
    type: 'DisruptionTarget',
    status: 'True',
    reason,
    message,
    lastTransitionTime: rfc3339(ctx.now()),
  };
  const conditions = [...(pod.status?.conditions ?? []).filter((c) => c.type !== condition.type), condition];
  const terminal = pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
  try {
    await ctx.client.updateStatus<Pod>({
      ...pod,
      status: { ...pod.status, conditions, ...(options.fail && !terminal ? { phase: 'Failed' } : {}) },
    });
  } catch (err) {
    if (!isConflict(err) && !isNotFound(err)) throw err;
  }
}
