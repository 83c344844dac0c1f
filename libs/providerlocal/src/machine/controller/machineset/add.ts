// Wiring of the MachineSet controller: MachineSets, and the Machines they own.
import { controllerFor, type Controller, type Manager } from '@gardener-ts/controller-runtime';
import { MachineKind, MachineSetKind } from '../../objects.js';
import { MachineSetReconciler } from './reconciler.js';

/** The controller's name. */
export const ControllerName = 'machineset';

/** Adds the controller; it lists Machines live from the API, so a Machine just created is never created twice. */
export function addMachineSetController(mgr: Manager): Controller {
  return controllerFor(mgr, ControllerName)
    .for(MachineSetKind)
    .owns(MachineKind)
    .withOptions({ maxConcurrentReconciles: 5 })
    .complete(new MachineSetReconciler(mgr.cluster().api));
}
