// Registers the shoot reference controller (Gardener's `shoot-reference`): reference protection for the Secrets and
// ConfigMaps of a Shoot's namespace that the Shoot references (`references.ts`).
import type { Shoot } from '@gardener-ts/api';
import type { Controller, Manager } from '@gardener-ts/controller-runtime';
import { ShootKind } from '../../kinds.js';
import { addReferenceController } from '../reference/add.js';
import type { ReferencingKind } from '../reference/reconciler.js';
import { shootConfigMapNames, shootReferencesChanged, shootSecretNames } from './references.js';

/** The controller's name in logs and metrics (Gardener's). */
export const ControllerName = 'shoot-reference';

/** Shoots reference Secrets and ConfigMaps of their own namespace. */
export const shootReferences: ReferencingKind<Shoot> = {
  kind: ShootKind,
  namespaceOf: (shoot) => shoot.metadata?.namespace ?? '',
  secretNames: shootSecretNames,
  configMapNames: shootConfigMapNames,
};

/** Adds the controller to `mgr` on its garden cluster. */
export function addShootReferenceController(
  mgr: Manager,
  deps: { cluster: string; concurrentSyncs: number },
): Controller {
  return addReferenceController(mgr, ControllerName, shootReferences, shootReferencesChanged, deps);
}
