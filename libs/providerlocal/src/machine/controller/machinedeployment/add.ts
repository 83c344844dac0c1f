// Wiring of the MachineDeployment controller: MachineDeployments, and the MachineSets they own.
import { controllerFor, type Controller, type Manager } from '@gardener-ts/controller-runtime';
import { MachineDeploymentKind, MachineSetKind } from '../../objects.js';
import { MachineDeploymentReconciler } from './reconciler.js';

/** The controller's name. */
export const ControllerName = 'machinedeployment';

/** Adds the controller; it reads MachineSets live from the API (no stale cache may double a set). */
export function addMachineDeploymentController(mgr: Manager): Controller {
  return controllerFor(mgr, ControllerName)
    .for(MachineDeploymentKind)
    .owns(MachineSetKind)
    .withOptions({ maxConcurrentReconciles: 5 })
    .complete(new MachineDeploymentReconciler(mgr.cluster().api));
}
