// Gardener's ControllerInstallation shoot reconciler (`controllerinstallation-shoot`): for one self-hosted Shoot,
// creates a ControllerInstallation (`spec.shootRef`) for every ControllerRegistration the shoot needs (`required.ts`),
// keeps its references and hash labels (`shoot-spec-hash`, `registration-spec-hash`, `deployment-hash`) current, and
// deletes the installations that are no longer needed — all of them once the shoot is being deleted.
import { ignoreNotFound, type Client, type ReconcileContext, type Request } from '@gardener-ts/controller-runtime';
import {
  BackupBucketKind,
  BackupEntryKind,
  ControllerInstallationKind,
  ControllerRegistrationKind,
  ShootKind,
} from '../../../kinds.js';
import { applyInstallationPlan, specHash } from '../apply-plan.js';
import { computeShootNeeds, installationOfShoot, planShootInstallations } from './required.js';

/** Label on installations: hash of the shoot's spec (like `pod-template-hash`). */
export const ShootSpecHash = 'shoot-spec-hash';

export interface ControllerInstallationShootReconcilerOptions {
  /** Cached reads, live writes. */
  client: Client;
  /** Live reads of ControllerInstallations: a stale cache would create a second installation for the same pair. */
  api: Client;
}

/** Reconciles one self-hosted Shoot's ControllerInstallations. */
export class ControllerInstallationShootReconciler {
  constructor(private readonly o: ControllerInstallationShootReconcilerOptions) {}

  async reconcile(req: Request, ctx: ReconcileContext): Promise<void> {
    const shoot = await this.o.client.get(ShootKind, req).catch(ignoreNotFound);
    if (!shoot) {
      ctx.log.debug('Object is gone, stop reconciling');
      return;
    }
    ctx.log.info('Reconciling');
    const [registrations, installations, buckets, entries] = await Promise.all([
      this.o.client.list(ControllerRegistrationKind),
      this.o.api.list(ControllerInstallationKind),
      this.o.client.list(BackupBucketKind),
      this.o.client.list(BackupEntryKind, { namespace: shoot.metadata!.namespace! }),
    ]);
    const needs = computeShootNeeds({
      shoot,
      registrations: registrations.items,
      installations: installations.items,
      backupBuckets: buckets.items,
      backupEntries: entries.items,
    });
    if (!needs.ok) throw new Error(needs.error);
    for (const entry of needs.entriesWithoutBucket) {
      ctx.log.error({ backupEntry: entry }, "Couldn't find referenced BackupBucket for BackupEntry");
    }

    const plan = planShootInstallations(shoot, needs.registrations, registrations.items, installations.items);
    if (plan.unknownRegistrations.length > 0) {
      throw new Error(`ControllerRegistration "${plan.unknownRegistrations.join('", "')}" does not exist`);
    }
    const existing = new Map(
      installations.items
        .filter((i) => installationOfShoot(i, shoot))
        .map((i) => [i.spec.registrationRef.name ?? '', i]),
    );
    await applyInstallationPlan(
      plan,
      registrations.items,
      {
        existing,
        ref: {
          shootRef: {
            name: shoot.metadata!.name!,
            namespace: shoot.metadata!.namespace!,
            resourceVersion: shoot.metadata!.resourceVersion!,
          },
        },
        specHashLabel: [ShootSpecHash, specHash(shoot.spec)],
      },
      this.o.client,
      ctx.log,
    );
  }
}
