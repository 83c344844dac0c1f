// The local machine controller (machine-controller-manager's role with the local driver): MachineDeployments →
// MachineSets → Machines → Pods in the seed's shoot namespaces.
import type { Manager } from '@gardener-ts/controller-runtime';
import { addMachineController } from './controller/machine/add.js';
import { addMachineDeploymentController } from './controller/machinedeployment/add.js';
import { addMachineSetController } from './controller/machineset/add.js';

/** Adds the three machine controllers to `mgr` (its default cluster is the seed). */
export function addMachineControllers(mgr: Manager): void {
  addMachineDeploymentController(mgr);
  addMachineSetController(mgr);
  addMachineController(mgr);
}
