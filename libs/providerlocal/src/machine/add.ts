// The local machine controller (machine-controller-manager's role with the local driver): MachineDeployments →
// MachineSets → Machines → Pods in the seed's shoot namespaces.
import type { Manager } from '@gardener-ts/controller-runtime';
import { addMachineController } from './controller/machine/add.js';
import type { MachineReconcilerOptions } from './controller/machine/reconciler.js';
import { addMachineDeploymentController } from './controller/machinedeployment/add.js';
import { addMachineSetController } from './controller/machineset/add.js';

/**
 * Adds the three machine controllers to `mgr` (its default cluster is the seed); `machine` are the Machine
 * controller's timeouts, drain settings and health check period (defaults: machine-controller-manager's; a Machine's
 * own spec — its pool's settings — overrides them).
 */
export function addMachineControllers(mgr: Manager, machine: MachineReconcilerOptions = {}): void {
  addMachineDeploymentController(mgr);
  addMachineSetController(mgr);
  addMachineController(mgr, machine);
}
