// Wiring of the Machine controller: Machines, and the machine Pods they own.
import { Kinds, controllerFor, type Controller, type Manager } from '@gardener-ts/controller-runtime';
import { MachineKind } from '../../objects.js';
import { MachineReconciler } from './reconciler.js';

/** The controller's name. */
export const ControllerName = 'machine';

/** Adds the controller. */
export function addMachineController(mgr: Manager): Controller {
  return controllerFor(mgr, ControllerName)
    .for(MachineKind)
    .owns(Kinds.Pod)
    .withOptions({ maxConcurrentReconciles: 5 })
    .complete(new MachineReconciler(mgr.cluster().client));
}
