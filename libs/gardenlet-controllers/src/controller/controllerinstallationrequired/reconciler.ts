// The ControllerInstallation "required" reconciler: maintains `Required` of this seed's installations from the
// extension resources in the seed (read from the seed cache the watches fill).
import {
  conditionsNeedUpdate,
  ignoreNotFound,
  kind,
  systemClock,
  type Client,
  type Reader,
  type ReconcileResult,
  type Request,
  type WallClock,
} from '@gardener-ts/controller-runtime';
import { patchStatusOptimistically } from '../../status.js';
import { ControllerInstallationKind, ControllerRegistrationKind } from '../controllerinstallation/kinds.js';
import { EXTENSION_KINDS, requiredBy, requiredConditions, type ExtensionObject } from './required.js';

/** The Kind of an extension resource. */
export const extensionKind = (name: string) =>
  kind<ExtensionObject & { apiVersion: string; kind: string }>('extensions.gardener.cloud/v1alpha1', name);

export interface RequiredReconcilerDeps {
  garden: Pick<Client, 'get' | 'patch'>;
  /** Reads extension resources of the seed (the cache). */
  seed: Reader;
  seedName: string;
  clock?: WallClock;
}

/** Maintains the `Required` condition. */
export class ControllerInstallationRequiredReconciler {
  constructor(private readonly deps: RequiredReconcilerDeps) {}

  async reconcile(req: Request): Promise<ReconcileResult | void> {
    const ci = await this.deps.garden.get(ControllerInstallationKind, { name: req.name }).catch(ignoreNotFound);
    if (!ci || ci.spec.seedRef?.name !== this.deps.seedName) return;
    const registration = await this.deps.garden
      .get(ControllerRegistrationKind, { name: ci.spec.registrationRef.name! })
      .catch(ignoreNotFound);
    if (!registration) return;
    const resources = (registration.spec.resources ?? [])
      .filter((r) => EXTENSION_KINDS.includes(r.kind))
      .map((r) => ({ kind: r.kind, type: r.type }));
    const objects: ExtensionObject[] = [];
    for (const k of new Set(resources.map((r) => r.kind))) {
      const list = await this.deps.seed.list(extensionKind(k));
      objects.push(...list.items.map((o) => ({ ...o, kind: k })));
    }
    const required = requiredBy(resources, objects);
    const clock = this.deps.clock ?? systemClock;
    await patchStatusOptimistically(
      this.deps.garden,
      ControllerInstallationKind,
      { name: req.name },
      (_ci, existing) => {
        const conditions = requiredConditions(existing, required, clock);
        return conditionsNeedUpdate(existing, conditions) ? { conditions } : undefined;
      },
    );
  }
}
