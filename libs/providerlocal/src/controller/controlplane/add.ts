// Wiring of provider-local's ControlPlane controller: the SDK's generic controller for type `local` and purpose
// `normal` with the local ControlPlane actuator. Purpose `exposure` is not served (such a ControlPlane stays
// unanswered): Gardener's provider-local has no exposure chart, so there it would be a no-op, and this gardenlet's
// shoot flow writes only the normal ControlPlane.
import { EventRecorder, type Controller, type Manager } from '@gardener-ts/controller-runtime';
import { addExtensionController } from '@gardener-ts/extensions';
import { ControlPlaneActuator, type ControlPlaneActuatorOptions } from './actuator.js';

/** The ControlPlane type provider-local serves. */
export const LocalControlPlaneType = 'local';

/**
 * Adds the ControlPlane controller for type `local`, purpose `normal`, to `mgr`; `shootWebhookConfiguration` is the
 * webhook server's configuration for shoots (none deployed without it).
 */
export function addControlPlaneController(
  mgr: Manager,
  options: Pick<ControlPlaneActuatorOptions, 'shootWebhookConfiguration'> = {},
): Controller {
  const { api } = mgr.cluster();
  const events = new EventRecorder(api, { component: 'gardener-extension-provider-local', log: mgr.log });
  mgr.add({ needLeaderElection: false, start: () => undefined, stop: () => events.stop() });
  return addExtensionController(mgr, {
    kind: 'ControlPlane',
    types: [LocalControlPlaneType],
    purpose: 'normal',
    actuator: new ControlPlaneActuator({ events, apiReader: api, ...options }),
  });
}
