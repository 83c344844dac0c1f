// Wiring of the Deployment controller: Deployments, the ReplicaSets they own, orphan ReplicaSets they may adopt,
// and pods (Recreate waits for old pods to go; pod counts bound the surge).
import { controllerFor, type Request } from '@gardener-ts/controller-runtime';
import type { ControllerContext } from '../shared/context.js';
import { DeploymentKind, type Pod, PodKind, type ReplicaSet, ReplicaSetKind } from '../shared/kinds.js';
import { ownersSelecting } from '../shared/owned-pods.js';
import { controllerOf } from '../shared/owner.js';
import { DeploymentReconciler } from './reconcile.js';

export function addDeploymentController(ctx: ControllerContext): void {
  const replicaSets = ctx.cache.informerFor(ReplicaSetKind);
  /** A pod's Deployment: the controller of its controlling ReplicaSet. */
  const deploymentOfPod = (pod: Pod): Request[] => {
    const rsRef = controllerOf(pod);
    if (rsRef?.kind !== 'ReplicaSet') return [];
    const rs = replicaSets.store.get(`${pod.metadata?.namespace}/${rsRef.name}`);
    const dRef = rs && controllerOf(rs);
    return dRef?.kind === 'Deployment' ? [{ namespace: pod.metadata!.namespace!, name: dRef.name }] : [];
  };
  controllerFor(ctx.mgr, 'deployment')
    .for(DeploymentKind)
    .owns(ReplicaSetKind)
    .watches(ReplicaSetKind, (rs: ReplicaSet) =>
      controllerOf(rs) ? [] : ownersSelecting(ctx.cache, DeploymentKind, (d) => d.spec?.selector, rs),
    )
    .watches(PodKind, deploymentOfPod)
    .withOptions({ maxConcurrentReconciles: 5, needLeaderElection: false })
    .complete(new DeploymentReconciler(ctx, ctx.events('deployment-controller')));
}
