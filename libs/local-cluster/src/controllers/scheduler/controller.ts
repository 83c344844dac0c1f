// Wiring of the scheduler: unscheduled pods are its work; any node change, any change of a bound pod (which may
// free resources or satisfy an affinity), any namespace change (namespaceSelector) and any claim change (a missing
// PersistentVolumeClaim created) retries the pods still waiting.
import { controllerFor, NamespaceKind, type InformerCache, type Request } from '@gardener-ts/controller-runtime';
import type { ControllerContext } from '../shared/context.js';
import { NodeKind, PersistentVolumeClaimKind, type Pod, PodKind } from '../shared/kinds.js';
import { needsScheduling, SCHEDULER_NAME, SchedulerReconciler } from './reconcile.js';

export interface SchedulerOptions {
  /** The scheduler names (kube-scheduler's profiles) whose pods it places; default `default-scheduler`. */
  schedulerNames?: readonly string[];
}

/** Adds the scheduler: pods of `options.schedulerNames` are bound to the best feasible node. */
export function addScheduler(ctx: ControllerContext, options: SchedulerOptions = {}): void {
  const names = options.schedulerNames?.length ? options.schedulerNames : [SCHEDULER_NAME];
  const waiting = () => waitingPods(ctx.cache, names);
  controllerFor(ctx.mgr, 'scheduler')
    .for(PodKind, { predicates: [(e) => needsScheduling(e.object, names)] })
    .watches(NodeKind, waiting)
    .watches(NamespaceKind, waiting)
    .watches(PersistentVolumeClaimKind, waiting)
    .watches(PodKind, (pod: Pod) => (pod.spec?.nodeName ? waiting() : []))
    .withOptions({ needLeaderElection: false })
    .complete(new SchedulerReconciler(ctx, ctx.events(SCHEDULER_NAME), names));
}

function waitingPods(cache: InformerCache, names: readonly string[]): Request[] {
  return cache
    .informerFor(PodKind)
    .store.list()
    .filter((pod) => needsScheduling(pod, names))
    .map((p) => ({ namespace: p.metadata!.namespace!, name: p.metadata!.name! }));
}
