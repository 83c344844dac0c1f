// Gardener's shoot migration reconciler: for a Shoot whose `spec.seedName` names another seed than `status.seedName`,
// sets the `ReadyForMigration` constraint from the destination seed's readiness (`readiness.ts`) — the source seed's
// gardenlet waits for it to be True before it migrates the control plane — and removes it once the migration is over.
import type { Seed, Shoot } from '@gardener-ts/api';
import {
  ignoreNotFound,
  removeConditions,
  systemClock,
  type Client,
  type Condition,
  type ReconcileContext,
  type ReconcileResult,
  type Request,
  type WallClock,
} from '@gardener-ts/controller-runtime';
import { SeedKind, ShootKind } from '../../kinds.js';
import {
  migrationDecision,
  readyForMigrationConstraint,
  ReadyForMigration,
  RecheckIntervalMs,
  shouldPrepareShootForMigration,
} from './readiness.js';

export interface ShootMigrationReconcilerOptions {
  client: Pick<Client, 'get' | 'patch'>;
  clock?: WallClock;
}

/** Maintains the `ReadyForMigration` constraint of one Shoot. */
export class ShootMigrationReconciler {
  constructor(private readonly o: ShootMigrationReconcilerOptions) {}

  async reconcile(req: Request, ctx: ReconcileContext): Promise<ReconcileResult | void> {
    const shoot = await this.o.client.get(ShootKind, req).catch(ignoreNotFound);
    if (!shoot) {
      ctx.log.debug('Object is gone, stop reconciling');
      return;
    }
    if (!shouldPrepareShootForMigration(shoot)) {
      if (!readyForMigrationConstraint(shoot)) return;
      ctx.log.info('Removing constraint since shoot is already migrating');
      await this.patchConstraints(shoot, removeConditions(shoot.status?.constraints as Condition[], ReadyForMigration));
      return;
    }
    const source = await this.seed(shoot.status!.seedName!, 'source');
    const destination = await this.seed(shoot.spec.seedName!, 'destination');
    const decision = migrationDecision(shoot, source, destination, this.o.clock ?? systemClock);
    if (decision.action === 'remove') return;
    if (decision.constraints) {
      ctx.log.info(
        { status: decision.status, reason: decision.reason, message: decision.message },
        'Updating ReadyForMigration constraint',
      );
      await this.patchConstraints(shoot, decision.constraints);
    }
    return decision.requeue ? { requeueAfter: RecheckIntervalMs } : undefined;
  }

  private async seed(name: string, role: 'source' | 'destination'): Promise<Seed> {
    try {
      return await this.o.client.get(SeedKind, { name });
    } catch (err) {
      throw new Error(`failed reading ${role} seed ${name}`, { cause: err });
    }
  }

  /** Writes the Shoot's constraints, guarded by its resourceVersion (the whole list is replaced by a merge patch). */
  private async patchConstraints(shoot: Shoot, constraints: Condition[]): Promise<void> {
    try {
      await this.o.client.patch(
        ShootKind,
        { namespace: shoot.metadata!.namespace!, name: shoot.metadata!.name! },
        {
          type: 'merge',
          patch: { metadata: { resourceVersion: shoot.metadata!.resourceVersion }, status: { constraints } },
        },
        { subresource: 'status' },
      );
    } catch (err) {
      throw new Error('failed patching shoot constraints', { cause: err });
    }
  }
}
