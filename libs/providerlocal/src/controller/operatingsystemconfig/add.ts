// Wiring of provider-local's OperatingSystemConfig controller: the SDK's generic controller with the local actuator.
import type { Controller, Manager } from '@gardener-ts/controller-runtime';
import { addExtensionController } from '@gardener-ts/extensions';
import { LocalOSType, OperatingSystemConfigActuator } from './actuator.js';

/** Adds the OperatingSystemConfig controller for type `local` to `mgr`. */
export function addOperatingSystemConfigController(mgr: Manager): Controller {
  return addExtensionController(mgr, {
    kind: 'OperatingSystemConfig',
    types: [LocalOSType],
    actuator: new OperatingSystemConfigActuator(),
  });
}
