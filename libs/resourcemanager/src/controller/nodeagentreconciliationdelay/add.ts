// Registers the node-agent reconciliation delay controller: Node creations and deletions in the target cluster, one
// worker (Gardener enqueues anonymously; here every event enqueues the node, and a reconciliation for an unchanged set
// of nodes does nothing).
import {
  controllerFor,
  type Cluster,
  type Controller,
  type Manager,
  type Predicate,
  type KubernetesObject,
} from '@gardener-ts/controller-runtime';
import { NodeAgentReconciliationDelay, NodeKind } from './reconcile.js';

export const NodeAgentReconciliationDelayControllerName = 'node-agent-reconciliation-delay';

export interface AddNodeAgentReconciliationDelayOptions {
  targetCluster: string;
  target: Cluster;
  minDelayMs: number;
  maxDelayMs: number;
}

export function addNodeAgentReconciliationDelay(mgr: Manager, o: AddNodeAgentReconciliationDelayOptions): Controller {
  const createOrDelete: Predicate<KubernetesObject> = (e) => e.type === 'create' || e.type === 'delete';
  return controllerFor(mgr, NodeAgentReconciliationDelayControllerName)
    .inCluster(o.targetCluster)
    .for(NodeKind, { predicates: [createOrDelete] })
    .withOptions({ maxConcurrentReconciles: 1 })
    .complete(
      new NodeAgentReconciliationDelay({ target: o.target.client, minDelayMs: o.minDelayMs, maxDelayMs: o.maxDelayMs }),
    );
}
