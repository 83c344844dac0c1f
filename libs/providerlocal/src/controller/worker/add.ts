// Wiring of provider-local's Worker controller: the SDK's generic controller with the local Worker actuator.
import type { Controller, Manager } from '@gardener-ts/controller-runtime';
import { addExtensionController } from '@gardener-ts/extensions';
import { WorkerActuator, type WorkerActuatorOptions } from './actuator.js';

/** The Worker type provider-local serves. */
export const LocalWorkerType = 'local';

/** Adds the Worker controller for type `local` to `mgr`. */
export function addWorkerController(mgr: Manager, options: WorkerActuatorOptions = {}): Controller {
  return addExtensionController(mgr, {
    kind: 'Worker',
    types: [LocalWorkerType],
    actuator: new WorkerActuator(options),
  });
}
