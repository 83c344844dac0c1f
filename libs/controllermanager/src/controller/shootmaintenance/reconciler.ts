// Gardener's shoot maintenance reconciler: in the shoot's (effective) maintenance window, or when asked with
// `gardener.cloud/operation=maintain`, applies `maintainShoot` — after a dry run, so a maintained spec the API refuses
// marks the maintenance Failed instead of retrying — records `status.lastMaintenance` and the maintenance events
// (Kubernetes and machine image version updates, a failed write), and comes back at a random point of the next window.
// A forced update to Kubernetes 1.34+ of a Shoot on a SecretBinding first finds or creates its CredentialsBinding.
import type { CloudProfile, NamespacedCloudProfile, Shoot } from '@gardener-ts/api';
import {
  ignoreNotFound,
  isConflict,
  wrapError,
  type Client,
  type EventRecorder,
  type ReconcileContext,
  type ReconcileResult,
  type Request,
} from '@gardener-ts/controller-runtime';
import { CloudProfileKind, NamespacedCloudProfileKind, ShootKind } from '../../kinds.js';
import { resolveCredentialsBinding } from './credentialsbinding.js';
import {
  EventActionReconcile,
  EventReasons,
  hasMaintainNowAnnotation,
  maintainShoot,
  maintenanceEvents,
} from './maintain.js';
import { effectiveWindow, inWindow, untilNextWindow } from './timewindow.js';

export interface ShootMaintenanceOptions {
  client: Client;
  enableShootControlPlaneRestarter?: boolean;
  enableShootCoreAddonRestarter?: boolean;
  /** Where the maintenance events go (none when unset). */
  events?: Pick<EventRecorder, 'actionEvent'>;
  now?: () => Date;
  /** A number in [0, 1): where in the next window to come back (random by default, as Gardener spreads the load). */
  random?: () => number;
}

const timestamp = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Maintains one Shoot. */
export class ShootMaintenanceReconciler {
  constructor(private readonly o: ShootMaintenanceOptions) {}

  /** The CloudProfile a shoot uses: its CloudProfile, or the spec its NamespacedCloudProfile's status merged. */
  private async cloudProfileOf(shoot: Shoot): Promise<CloudProfile> {
    const ref =
      shoot.spec.cloudProfile ??
      (shoot.spec.cloudProfileName ? { kind: 'CloudProfile', name: shoot.spec.cloudProfileName } : undefined);
    if (!ref) throw new Error(`shoot ${shoot.metadata?.namespace}/${shoot.metadata?.name} references no CloudProfile`);
    if (ref.kind === 'NamespacedCloudProfile') {
      const namespaced: NamespacedCloudProfile = await this.o.client.get(NamespacedCloudProfileKind, {
        namespace: shoot.metadata!.namespace!,
        name: ref.name,
      });
      const spec = namespaced.status?.cloudProfileSpec;
      if (!spec)
        throw new Error(
          `NamespacedCloudProfile ${shoot.metadata!.namespace}/${ref.name} has no status.cloudProfileSpec yet`,
        );
      return {
        apiVersion: 'core.gardener.cloud/v1beta1',
        kind: 'CloudProfile',
        metadata: { name: ref.name },
        spec,
      } as CloudProfile;
    }
    return this.o.client.get(CloudProfileKind, { name: ref.name });
  }

  async reconcile(req: Request, ctx: ReconcileContext): Promise<ReconcileResult | void> {
    const shoot = await this.o.client.get(ShootKind, req).catch(ignoreNotFound);
    if (!shoot || shoot.metadata?.deletionTimestamp) return;
    const now = this.o.now?.() ?? new Date();
    const window = effectiveWindow(shoot.spec.maintenance?.timeWindow);
    const next = { requeueAfter: untilNextWindow(window, now, (this.o.random ?? Math.random)()) };
    if (!hasMaintainNowAnnotation(shoot) && !inWindow(window, now)) {
      ctx.log.debug(
        { requeueAfterMs: next.requeueAfter },
        "Skipping Shoot because it doesn't need to be maintained now",
      );
      return next;
    }

    ctx.log.info('Maintaining Shoot');
    const profile = await this.cloudProfileOf(shoot);
    const options = {
      now,
      enableShootControlPlaneRestarter: this.o.enableShootControlPlaneRestarter,
      enableShootCoreAddonRestarter: this.o.enableShootCoreAddonRestarter,
    };
    let result = maintainShoot(shoot, profile, options);
    if (result.needsCredentialsBindingMigration) {
      // A forced update to 1.34+ leaves the SecretBinding: find or create the CredentialsBinding, then maintain again.
      const credentialsBinding = await resolveCredentialsBinding(
        this.o.client,
        req.namespace ?? '',
        shoot.spec.secretBindingName!,
      );
      if ('error' in credentialsBinding)
        ctx.log.error({ err: credentialsBinding.error }, 'Failed to migrate SecretBinding to CredentialsBinding');
      result = maintainShoot(shoot, profile, { ...options, credentialsBinding });
    }
    if (result.machineImageError)
      ctx.log.error({ err: result.machineImageError }, 'Failed to maintain Shoot machine images');
    const key = { namespace: req.namespace, name: req.name };
    const patchStatus = (lastMaintenance: Record<string, unknown>) =>
      this.o.client.patch(
        ShootKind,
        key,
        { type: 'merge', patch: { status: { lastMaintenance } } },
        { subresource: 'status' },
      );

    if (result.lastMaintenance) {
      try {
        await this.o.client.update(result.shoot, { dryRun: true });
      } catch (err) {
        // A concurrent change: maintain again from the fresh object (with back-off).
        if (isConflict(err)) throw wrapError(err, 'maintaining Shoot (dry run)');
        // The maintained spec is refused: fail this maintenance, retry in the next window (or on a new `maintain`).
        if (hasMaintainNowAnnotation(shoot)) {
          const annotations = { ...shoot.metadata?.annotations };
          delete annotations['gardener.cloud/operation'];
          await this.o.client.patch(ShootKind, key, {
            type: 'json',
            patch: [{ op: 'replace', path: '/metadata/annotations', value: annotations }],
          });
        }
        await patchStatus({
          description: 'Maintenance failed',
          triggeredTime: timestamp(now),
          state: 'Failed',
          failureReason: `Updates to the Shoot failed to be applied: ${(err as Error).message}`,
        });
        ctx.log.info({ reason: (err as Error).message }, 'Shoot maintenance failed');
        return next;
      }
      const { state, description, failureReason } = result.lastMaintenance;
      const patched = await patchStatus({
        description,
        triggeredTime: timestamp(now),
        state: state === 'Failed' ? 'Failed' : 'Processing',
        failureReason: failureReason ?? null,
      });
      // The status write moved the resourceVersion on; the spec update carries the new one.
      result.shoot.metadata = { ...result.shoot.metadata, resourceVersion: patched.metadata?.resourceVersion };
    }

    try {
      await this.o.client.update(result.shoot);
    } catch (err) {
      this.o.events?.actionEvent(
        shoot,
        undefined,
        'Warning',
        EventReasons.failed,
        EventActionReconcile,
        (err as Error).message,
      );
      throw err;
    }

    const last = shoot.status?.lastMaintenance;
    if (!result.lastMaintenance && last?.state === 'Failed') {
      await patchStatus({ state: 'Succeeded', description: 'Maintenance succeeded', failureReason: null });
    } else if (result.lastMaintenance && result.lastMaintenance.state !== 'Failed') {
      await patchStatus({ state: 'Succeeded' });
    }
    for (const e of maintenanceEvents(result))
      this.o.events?.actionEvent(shoot, undefined, e.type, e.reason, EventActionReconcile, e.message);
    ctx.log.info({ requeueAfterMs: next.requeueAfter }, 'Shoot maintenance completed');
    return next;
  }
}
