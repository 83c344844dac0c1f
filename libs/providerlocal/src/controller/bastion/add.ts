// Wiring of provider-local's Bastion controller: the SDK's generic controller for Bastions of type `local` (class
// `shoot`, as Gardener's provider-local serves them) with the local Bastion actuator.
import type { Controller, Manager } from '@gardener-ts/controller-runtime';
import { addExtensionController } from '@gardener-ts/extensions';
import { BastionActuator, type BastionActuatorOptions } from './actuator.js';
import type { BastionObject } from './objects.js';

/** The Bastion type provider-local serves. */
export const LocalBastionType = 'local';

/** Adds the Bastion controller for type `local` to `mgr`. */
export function addBastionController(mgr: Manager, options: BastionActuatorOptions = {}): Controller {
  return addExtensionController<BastionObject>(mgr, {
    kind: 'Bastion',
    types: [LocalBastionType],
    classes: ['shoot'],
    actuator: new BastionActuator(options),
  });
}
