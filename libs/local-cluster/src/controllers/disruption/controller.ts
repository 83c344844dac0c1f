// Wiring of the disruption controller: PodDisruptionBudgets, the pods they select, and the workloads whose scale
// gives a budget its expected pod count (a change of one enqueues the budgets selecting its pod template).
import { controllerFor, type KubernetesObject, type Request } from '@gardener-ts/controller-runtime';
import type { ControllerContext } from '../shared/context.js';
import {
  DeploymentKind,
  PodDisruptionBudgetKind,
  PodKind,
  type PodTemplateSpec,
  ReplicaSetKind,
  ReplicationControllerKind,
  StatefulSetKind,
} from '../shared/kinds.js';
import { ownersSelecting } from '../shared/owned-pods.js';
import { DisruptionReconciler } from './reconcile.js';

export function addDisruptionController(ctx: ControllerContext): void {
  const budgetsSelecting = (obj: KubernetesObject): Request[] =>
    ownersSelecting(ctx.cache, PodDisruptionBudgetKind, (pdb) => pdb.spec?.selector, obj);
  /** A workload counts through the pods its template makes: the budgets selecting those labels. */
  const budgetsOfWorkload = (w: KubernetesObject & { spec?: { template?: PodTemplateSpec } }): Request[] =>
    budgetsSelecting({
      metadata: { namespace: w.metadata?.namespace, labels: w.spec?.template?.metadata?.labels ?? {} },
    });
  controllerFor(ctx.mgr, 'disruption')
    .for(PodDisruptionBudgetKind)
    .watches(PodKind, budgetsSelecting)
    .watches(ReplicaSetKind, budgetsOfWorkload)
    .watches(DeploymentKind, budgetsOfWorkload)
    .watches(StatefulSetKind, budgetsOfWorkload)
    .watches(ReplicationControllerKind, budgetsOfWorkload)
    .withOptions({ maxConcurrentReconciles: 5, needLeaderElection: false })
    .complete(new DisruptionReconciler(ctx, ctx.events('controllermanager')));
}
