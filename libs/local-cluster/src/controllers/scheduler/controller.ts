// Wiring of the scheduler: unscheduled pods are its work; the cluster events that may make a waiting pod schedulable
// retry it at once (requeue.ts): any node change, any change of a bound pod (which may free resources or satisfy an
// affinity), any namespace change (namespaceSelector), a change of a claim the pod mounts (created, given its class,
// bound) and a StorageClass change (created: a claim of it binds for its first consumer). A pod reserved on a node
// while its claims bind is unscheduled too: its claims' events (Bound) are what bind it.
import { controllerFor, NamespaceKind, type InformerCache, type Request } from '@gardener-ts/controller-runtime';
import type { ControllerContext } from '../shared/context.js';
import { NodeKind, PersistentVolumeClaimKind, type Pod, PodKind, StorageClassKind } from '../shared/kinds.js';
import { needsScheduling, SCHEDULER_NAME, SchedulerReconciler, VOLUME_BINDING_TIMEOUT_MS } from './reconcile.js';
import { type ClusterEvent, podsToRetry } from './requeue.js';

export interface SchedulerOptions {
  /** The scheduler names (kube-scheduler's profiles) whose pods it places; default `default-scheduler`. */
  schedulerNames?: readonly string[];
  /** How long a pod reserved on its node waits for its claims to bind (kube's `bindTimeoutSeconds`); default 600 s. */
  volumeBindingTimeoutMs?: number;
}

/** Adds the scheduler: pods of `options.schedulerNames` are bound to the best feasible node. */
export function addScheduler(ctx: ControllerContext, options: SchedulerOptions = {}): void {
  const names = options.schedulerNames?.length ? options.schedulerNames : [SCHEDULER_NAME];
  const retry = (event: ClusterEvent) => podsToRetry(event, waitingPods(ctx.cache, names)).map(requestOf);
  controllerFor(ctx.mgr, 'scheduler')
    .for(PodKind, { predicates: [(e) => needsScheduling(e.object, names)] })
    .watches(NodeKind, () => retry({ kind: 'Node' }))
    .watches(NamespaceKind, () => retry({ kind: 'Namespace' }))
    .watches(PersistentVolumeClaimKind, (claim) => retry({ kind: 'PersistentVolumeClaim', claim }))
    .watches(StorageClassKind, () => retry({ kind: 'StorageClass' }))
    .watches(PodKind, (pod: Pod) => (pod.spec?.nodeName ? retry({ kind: 'AssignedPod' }) : []))
    .withOptions({ needLeaderElection: false })
    .complete(
      new SchedulerReconciler(
        ctx,
        ctx.events(SCHEDULER_NAME),
        names,
        options.volumeBindingTimeoutMs ?? VOLUME_BINDING_TIMEOUT_MS,
      ),
    );
}

function waitingPods(cache: InformerCache, names: readonly string[]): Pod[] {
  return cache
    .informerFor(PodKind)
    .store.list()
    .filter((pod) => needsScheduling(pod, names));
}

const requestOf = (p: Pod): Request => ({ namespace: p.metadata!.namespace!, name: p.metadata!.name! });
