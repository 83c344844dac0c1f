// Wiring of the scheduler: unscheduled pods are its work; any node change, any change of a bound pod (which may
// free resources or satisfy an affinity) and any namespace change (namespaceSelector) retries the pods still waiting.
import { controllerFor, NamespaceKind, type InformerCache, type Request } from '@gardener-ts/controller-runtime';
import type { ControllerContext } from '../shared/context.js';
import { NodeKind, type Pod, PodKind } from '../shared/kinds.js';
import { needsScheduling, SchedulerReconciler } from './reconcile.js';

export function addScheduler(ctx: ControllerContext): void {
  const waiting = () => waitingPods(ctx.cache);
  controllerFor(ctx.mgr, 'scheduler')
    .for(PodKind, { predicates: [(e) => needsScheduling(e.object)] })
    .watches(NodeKind, waiting)
    .watches(NamespaceKind, waiting)
    .watches(PodKind, (pod: Pod) => (pod.spec?.nodeName ? waiting() : []))
    .withOptions({ needLeaderElection: false })
    .complete(new SchedulerReconciler(ctx, ctx.events('default-scheduler')));
}

function waitingPods(cache: InformerCache): Request[] {
  return cache
    .informerFor(PodKind)
    .store.list()
    .filter(needsScheduling)
    .map((p) => ({ namespace: p.metadata!.namespace!, name: p.metadata!.name! }));
}
