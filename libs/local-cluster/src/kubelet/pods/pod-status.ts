// A Pod's status from its containers' states: the phase by the kubelet's rules, the four conditions, and the
// container statuses. Condition lastTransitionTimes move only when a condition's status changes.
import type * as k8s from '@kubernetes/client-node';
import { HOST_IP } from './field-path.js';
import { rfc3339, type ContainerState } from './container-state.js';

export type Phase = 'Pending' | 'Running' | 'Succeeded' | 'Failed';

export function podPhase(restartPolicy: string, init: ContainerState[], regular: ContainerState[]): Phase {
  if (init.some((c) => c.done && !c.succeeded)) return 'Failed';
  if (!init.every((c) => c.succeeded)) return 'Pending';
  let waiting = 0;
  let running = 0;
  let stopped = 0;
  let succeeded = 0;
  for (const c of regular) {
    if (c.running) running++;
    else if (c.terminated || c.pendingTermination) {
      stopped++;
      if ((c.terminated ?? c.pendingTermination)!.exitCode === 0) succeeded++;
    } else waiting++;
  }
  if (waiting > 0) return 'Pending';
  if (running > 0) return 'Running';
  if (restartPolicy === 'Always') return 'Running';
  if (stopped === succeeded) return 'Succeeded';
  if (restartPolicy === 'Never') return 'Failed';
  return regular.every((c) => c.done) ? 'Failed' : 'Running';
}

interface ConditionValue {
  type: string;
  status: 'True' | 'False';
  reason?: string;
  message?: string;
}

export class PodStatusBuilder {
  private readonly transitions = new Map<string, { status: string; time: string }>();

  constructor(previous: k8s.V1PodStatus | undefined) {
    for (const c of previous?.conditions ?? []) {
      if (c.lastTransitionTime)
        this.transitions.set(c.type, { status: c.status, time: rfc3339(new Date(c.lastTransitionTime)) });
    }
  }

  build(
    pod: k8s.V1Pod,
    init: ContainerState[],
    regular: ContainerState[],
    startTime: string,
    podIP: string,
  ): Record<string, unknown> {
    const phase = podPhase(pod.spec?.restartPolicy ?? 'Always', init, regular);
    const terminal = phase === 'Succeeded' || phase === 'Failed';
    const unready = regular.filter((c) => !c.ready).map((c) => c.name);
    const uninitialised = init.filter((c) => !c.succeeded).map((c) => c.name);
    const readiness: Omit<ConditionValue, 'type'> = terminal
      ? { status: 'False', reason: 'PodCompleted' }
      : unready.length > 0
        ? {
            status: 'False',
            reason: 'ContainersNotReady',
            message: `containers with unready status: [${unready.join(' ')}]`,
          }
        : { status: 'True' };
    const conditions: ConditionValue[] = [
      { type: 'PodScheduled', status: 'True' },
      uninitialised.length === 0
        ? { type: 'Initialized', status: 'True' }
        : {
            type: 'Initialized',
            status: 'False',
            reason: 'ContainersNotInitialized',
            message: `containers with incomplete status: [${uninitialised.join(' ')}]`,
          },
      { type: 'ContainersReady', ...readiness },
      { type: 'Ready', ...readiness },
    ];
    return {
      phase,
      conditions: conditions.map((c) => ({ ...c, lastProbeTime: null, lastTransitionTime: this.transitionTime(c) })),
      hostIP: HOST_IP,
      hostIPs: [{ ip: HOST_IP }],
      podIP,
      podIPs: [{ ip: podIP }],
      startTime,
      ...(init.length > 0 ? { initContainerStatuses: init.map((c) => c.status()) } : {}),
      containerStatuses: regular.map((c) => c.status()),
    };
  }

  private transitionTime(condition: ConditionValue): string {
    const known = this.transitions.get(condition.type);
    if (known && known.status === condition.status) return known.time;
    const time = rfc3339();
    this.transitions.set(condition.type, { status: condition.status, time });
    return time;
  }
}
