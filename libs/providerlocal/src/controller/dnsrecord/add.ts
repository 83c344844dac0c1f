// Wiring of provider-local's DNSRecord controller: the SDK's generic controller with the local DNSRecord actuator.
import type { Controller, Manager } from '@gardener-ts/controller-runtime';
import { addExtensionController } from '@gardener-ts/extensions';
import { DNSRecordActuator } from './actuator.js';

/** The DNS provider type provider-local serves. */
export const LocalDNSType = 'local';

/** Adds the DNSRecord controller for type `local` to `mgr`. */
export function addDNSRecordController(mgr: Manager): Controller {
  return addExtensionController(mgr, { kind: 'DNSRecord', types: [LocalDNSType], actuator: new DNSRecordActuator() });
}
