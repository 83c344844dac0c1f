// Gardener's seed lifecycle reconciler: applies `decideLifecycle` to a Seed — GardenletReady=Unknown when its Lease is
// not renewed within `monitorPeriod`, then the shoots' conditions and constraints Unknown after `shootMonitorPeriod`.
import type { Shoot } from '@gardener-ts/api';
import {
  getOrInitCondition,
  ignoreNotFound,
  Kinds,
  mergeConditions,
  updatedCondition,
  type Client,
  type Condition,
  type ReconcileContext,
  type ReconcileResult,
  type Request,
  type WallClock,
} from '@gardener-ts/controller-runtime';
import { SeedKind, ShootKind } from '../../kinds.js';
import {
  decideLifecycle,
  GardenletReady,
  SeedLeaseNamespace,
  SeedStatusUnknownMessage,
  SeedStatusUnknownReason,
  ShootConditionTypes,
  ShootConstraintTypes,
  ShootStatusUnknownMessage,
  ShootStatusUnknownReason,
} from './lifecycle.js';

export interface SeedLifecycleOptions {
  client: Client;
  syncPeriodMs: number;
  monitorPeriodMs: number;
  shootMonitorPeriodMs: number;
  leaseNamespace?: string;
  clock?: WallClock;
}

/** The shoot's conditions and constraints with every listed type Unknown (others untouched). */
export function unknownShootStatus(
  shoot: Shoot,
  clock: WallClock,
): { conditions: Condition[]; constraints: Condition[] } {
  const toUnknown = (existing: readonly Condition[] | undefined, types: readonly string[]) =>
    mergeConditions(
      existing,
      ...types.map((t) =>
        updatedCondition(
          getOrInitCondition(existing, t, clock),
          'Unknown',
          ShootStatusUnknownReason,
          ShootStatusUnknownMessage,
          { clock },
        ),
      ),
    );
  const status = shoot.status as { conditions?: Condition[]; constraints?: Condition[] } | undefined;
  return {
    conditions: toUnknown(status?.conditions, ShootConditionTypes),
    constraints: toUnknown(status?.constraints, ShootConstraintTypes),
  };
}

/** Watches one Seed's gardenlet heartbeat. */
export class SeedLifecycleReconciler {
  private readonly clock: WallClock;
  private readonly leaseNamespace: string;

  constructor(private readonly o: SeedLifecycleOptions) {
    this.clock = o.clock ?? { now: () => new Date() };
    this.leaseNamespace = o.leaseNamespace ?? SeedLeaseNamespace;
  }

  async reconcile(req: Request, ctx: ReconcileContext): Promise<ReconcileResult | void> {
    const seed = await this.o.client.get(SeedKind, { name: req.name }).catch(ignoreNotFound);
    if (!seed) return;
    const again = { requeueAfter: this.o.syncPeriodMs };
    const lease = await this.o.client
      .get(Kinds.Lease, { namespace: this.leaseNamespace, name: req.name })
      .catch(ignoreNotFound);
    const renewTime = lease?.spec?.renewTime ? new Date(lease.spec.renewTime) : undefined;
    const conditions = (seed.status?.conditions ?? []) as Condition[];
    const now = this.clock.now();
    const decision = decideLifecycle({
      conditions,
      renewTime,
      now,
      monitorPeriodMs: this.o.monitorPeriodMs,
      shootMonitorPeriodMs: this.o.shootMonitorPeriodMs,
    });
    if (decision.action === 'wait') return again;

    if (renewTime) {
      ctx.log.info(
        { renewTime: renewTime.toISOString(), seedMonitorPeriodMs: this.o.monitorPeriodMs },
        'Lease was not renewed in time',
      );
    }
    const old = conditions.find((c) => c.type === GardenletReady);
    const ready = updatedCondition(
      getOrInitCondition(conditions, GardenletReady, this.clock),
      'Unknown',
      SeedStatusUnknownReason,
      SeedStatusUnknownMessage,
      { clock: this.clock },
    );
    if (!old || old.status !== ready.status || old.reason !== ready.reason || old.message !== ready.message) {
      ctx.log.info("Setting Seed status to 'Unknown' as gardenlet stopped reporting seed status");
      await this.o.client.patch(
        SeedKind,
        { name: req.name },
        {
          type: 'merge',
          patch: {
            metadata: { resourceVersion: seed.metadata!.resourceVersion },
            status: { conditions: mergeConditions(conditions, ready) },
          },
        },
        { subresource: 'status' },
      );
    }
    if (!decision.shootsUnknown) return again;

    ctx.log.info(
      {
        gardenletOfflineSince: decision.offlineSince?.toISOString(),
        shootMonitorPeriodMs: this.o.shootMonitorPeriodMs,
      },
      "Gardenlet has not sent heartbeats for at least the configured shoot monitor period, setting shoot conditions and constraints to 'Unknown' for all shoots on this seed",
    );
    const shoots = (await this.o.client.list(ShootKind)).items.filter((s) => s.spec.seedName === req.name);
    await Promise.all(
      shoots.map((shoot) =>
        this.o.client
          .patch(
            ShootKind,
            { namespace: shoot.metadata!.namespace!, name: shoot.metadata!.name! },
            {
              type: 'merge',
              patch: {
                metadata: { resourceVersion: shoot.metadata!.resourceVersion },
                status: unknownShootStatus(shoot, this.clock),
              },
            },
            { subresource: 'status' },
          )
          .catch(ignoreNotFound),
      ),
    );
    return again;
  }
}
