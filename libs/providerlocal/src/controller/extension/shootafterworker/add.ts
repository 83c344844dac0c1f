// Wiring of provider-local's `local-ext-shoot-after-worker` Extension controller: the SDK's generic Extension
// controller for the type (class `shoot`), resynced hourly as Gardener's.
import type { Controller, Manager } from '@gardener-ts/controller-runtime';
import { addExtensionController } from '@gardener-ts/extensions';
import { LocalExtShootAfterWorkerType, localExtShootAfterWorkerActuator } from './actuator.js';

/** Adds the `local-ext-shoot-after-worker` Extension controller to `mgr`. */
export function addLocalExtShootAfterWorkerController(mgr: Manager): Controller {
  return addExtensionController(mgr, {
    kind: 'Extension',
    name: LocalExtShootAfterWorkerType,
    types: [LocalExtShootAfterWorkerType],
    resyncMs: 60 * 60_000,
    actuator: localExtShootAfterWorkerActuator({ apiReader: mgr.cluster().api }),
  });
}
