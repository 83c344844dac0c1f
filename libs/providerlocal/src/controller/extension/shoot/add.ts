// Wiring of provider-local's `local-ext-shoot` Extension controller: the SDK's generic Extension controller for the
// type, classes `shoot` (Gardener's also serves `garden`: not here, the operator's runtime has no such Extension),
// resynced hourly as Gardener's.
import type { Controller, Manager } from '@gardener-ts/controller-runtime';
import { addExtensionController } from '@gardener-ts/extensions';
import { LocalExtShootType, localExtShootActuator } from './actuator.js';

/** Adds the `local-ext-shoot` Extension controller to `mgr`. */
export function addLocalExtShootController(mgr: Manager): Controller {
  return addExtensionController(mgr, {
    kind: 'Extension',
    name: LocalExtShootType,
    types: [LocalExtShootType],
    classes: ['shoot'],
    resyncMs: 60 * 60_000,
    actuator: localExtShootActuator({ apiReader: mgr.cluster().api }),
  });
}
