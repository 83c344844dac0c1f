// Registers the node critical components controller: Nodes of the target cluster carrying the taint.
import {
  controllerFor,
  EventRecorder,
  type Cluster,
  type Controller,
  type KubernetesObject,
  type Manager,
  type Predicate,
} from '@gardener-ts/controller-runtime';
import type { Logger } from '@gardener-ts/logging';
import type { NodeLike } from './daemon.js';
import { NodeCriticalComponents, NodeKind } from './reconcile.js';
import { hasCriticalComponentsTaint } from './rules.js';

export const NodeCriticalComponentsControllerName = 'node-critical-components';

export interface AddNodeCriticalComponentsOptions {
  targetCluster: string;
  target: Cluster;
  concurrentSyncs: number;
  backoffMs: number;
  log: Logger;
}

export function addNodeCriticalComponents(mgr: Manager, o: AddNodeCriticalComponentsOptions): Controller {
  const recorder = new EventRecorder(o.target.api, {
    component: `${NodeCriticalComponentsControllerName}-controller`,
    log: o.log,
  });
  mgr.add({ needLeaderElection: false, start: () => undefined, stop: () => recorder.stop() });
  const predicate: Predicate<KubernetesObject & NodeLike> = (e) =>
    (e.type === 'create' || e.type === 'update') && hasCriticalComponentsTaint(e.object);
  return controllerFor(mgr, NodeCriticalComponentsControllerName)
    .inCluster(o.targetCluster)
    .for(NodeKind, { predicates: [predicate] })
    .withOptions({ maxConcurrentReconciles: o.concurrentSyncs })
    .complete(new NodeCriticalComponents({ target: o.target.api, recorder, backoffMs: o.backoffMs }));
}
