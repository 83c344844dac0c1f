// kube's DisruptionTarget pod condition, set before a controller deletes a pod it did not ask for (taint eviction, pod
// garbage collection), so the pod's owner (a Job's pod failure policy, say) can tell why it went. Written as kube's
// PatchPodStatus does: a strategic merge patch of pods/status carrying the pod's uid as precondition, built from the
// copy the controller holds. That is all kube's controller roles allow (pod-garbage-collector may not get a pod, only
// patch its status).
import { isConflict, isNotFound } from '@gardener-ts/controller-runtime';
import type { ControllerContext } from './context.js';
import { type Pod, type PodCondition, PodKind } from './kinds.js';
import { rfc3339 } from './time.js';

/**
 * Sets `DisruptionTarget=True` with `reason`/`message` on the pod (and `phase: Failed` when `fail`, as pod GC does
 * for a pod whose node is gone). Best effort: a pod gone or replaced by one of the same name keeps no condition.
 */
export async function markDisruptionTarget(
  ctx: Pick<ControllerContext, 'client' | 'now'>,
  pod: Pod,
  reason: string,
  message: string,
  options: { fail?: boolean } = {},
): Promise<void> {
  const current = pod.status?.conditions?.find((c) => c.type === 'DisruptionTarget');
  const terminal = pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
  const needsFailing = options.fail === true && !terminal;
  if (current?.status === 'True' && current.reason === reason && !needsFailing) return;
  const condition: PodCondition = {
    type: 'DisruptionTarget',
    status: 'True',
    reason,
    message,
    lastTransitionTime: rfc3339(ctx.now()),
  };
  try {
    await ctx.client.patch(
      PodKind,
      { namespace: pod.metadata!.namespace!, name: pod.metadata!.name! },
      {
        type: 'strategic',
        patch: {
          metadata: { uid: pod.metadata?.uid },
          status: { conditions: [condition], ...(needsFailing ? { phase: 'Failed' } : {}) },
        },
      },
      { subresource: 'status' },
    );
  } catch (err) {
    if (!isConflict(err) && !isNotFound(err)) throw err;
  }
}
