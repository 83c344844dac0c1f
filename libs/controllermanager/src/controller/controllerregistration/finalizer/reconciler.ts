// Gardener's controllerregistration cluster finalizer and ControllerRegistration finalizer: Seeds and
// ControllerRegistrations carry `core.gardener.cloud/controllerregistration` while ControllerInstallations reference
// them, so a deleted Seed waits until its installations are cleaned up, and a deleted registration until no seed has
// it installed. The finalizer goes once no installation references the object.
import type { ControllerInstallation } from '@gardener-ts/api';
import {
  addFinalizer,
  hasFinalizer,
  ignoreNotFound,
  removeFinalizer,
  type Client,
  type Kind,
  type KubernetesObject,
  type ReconcileContext,
  type Request,
} from '@gardener-ts/controller-runtime';
import { ControllerInstallationKind } from '../../../kinds.js';

/** The finalizer on Seeds and ControllerRegistrations (Gardener's). */
export const FinalizerName = 'core.gardener.cloud/controllerregistration';

/** Which installations reference the object: by seed or by registration. */
export type InstallationReference = (installation: ControllerInstallation, name: string) => boolean;

/** Installations for a seed. */
export const referencesSeed: InstallationReference = (i, name) => i.spec.seedRef?.name === name;
/** Installations of a registration. */
export const referencesRegistration: InstallationReference = (i, name) => i.spec.registrationRef.name === name;

/** Keeps the finalizer on objects of one kind while installations reference them. */
export class InstallationFinalizerReconciler<T extends KubernetesObject> {
  constructor(
    private readonly client: Client,
    private readonly kind: Kind<T>,
    private readonly references: InstallationReference,
  ) {}

  async reconcile(req: Request, ctx: ReconcileContext): Promise<void> {
    const obj = await this.client.get(this.kind, { name: req.name }).catch(ignoreNotFound);
    if (!obj) return;
    if (obj.metadata?.deletionTimestamp) {
      if (!hasFinalizer(obj, FinalizerName)) return;
      const installations = await this.client.list(ControllerInstallationKind);
      // Still referenced: the watch on ControllerInstallations brings us back once they are gone.
      if (installations.items.some((i) => this.references(i, req.name))) return;
      ctx.log.info('Removing finalizer');
      await removeFinalizer(this.client, obj, FinalizerName);
      return;
    }
    if (!hasFinalizer(obj, FinalizerName)) {
      ctx.log.info('Adding finalizer');
      await addFinalizer(this.client, obj, FinalizerName);
    }
  }
}
