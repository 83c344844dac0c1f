// Wiring of the Node controller: this machine's Node only, when it carries the restart annotation.
import { Kinds, controllerFor, type Controller, type Manager, type Predicate } from '@gardener-ts/controller-runtime';
import type { UnitManager } from '../../units/runner.js';
import { NodeReconciler, RestartSystemdServicesAnnotation } from './reconciler.js';

/** The controller's name (Gardener's). */
export const ControllerName = 'node';

/** Events of Node `nodeName` that carry the restart annotation. */
export function isOwnNodeAskingForRestart(nodeName: string): Predicate<any> {
  return (event) =>
    event.object.metadata?.name === nodeName &&
    event.object.metadata?.annotations?.[RestartSystemdServicesAnnotation] !== undefined;
}

/** Adds the controller to `mgr` (its default cluster is the shoot). */
export function addNodeController(mgr: Manager, deps: { nodeName: string; units: UnitManager }): Controller {
  return controllerFor(mgr, ControllerName)
    .for(Kinds.Node, { predicates: [isOwnNodeAskingForRestart(deps.nodeName)] })
    .withOptions({ needLeaderElection: false })
    .complete(new NodeReconciler({ client: mgr.cluster().client, units: deps.units }));
}
