// The seed lease reconciler (Gardener pkg/gardenlet/controller/seed/lease): every leaseResyncSeconds it probes the
// seed API server's /healthz; on 200 it renews the seed's Lease in the garden, sets GardenletReady True and reports
// the gardenlet healthy. Any failure reports it unhealthy (/healthz 500) and is retried with back-off.
import {
  ignoreNotFound,
  systemClock,
  wrapError,
  Kinds,
  type Client,
  type Condition,
  type ReconcileResult,
  type Request,
  type WallClock,
} from '@gardener-ts/controller-runtime';
import { SEED_LEASE_NAMESPACE } from '../../constants.js';
import { patchStatusOptimistically } from '../../status.js';
import { SeedKind, type Seed } from '../../seed-kind.js';
import type { HealthManager } from './health.js';
import { gardenletReadyConditions, renewedLease } from './lease.js';

export interface LeaseReconcilerDeps {
  /** Garden client (Seeds, Leases). */
  garden: Pick<Client, 'get' | 'create' | 'update' | 'patch'>;
  /** Resolves when the seed API server's /healthz answers 200; throws otherwise. */
  seedHealthz: () => Promise<void>;
  health: HealthManager;
  leaseResyncSeconds: number;
  clock?: WallClock;
}

/** Renews the seed's heartbeat. */
export class LeaseReconciler {
  constructor(private readonly deps: LeaseReconcilerDeps) {}

  async reconcile(req: Request): Promise<ReconcileResult | void> {
    const { garden, health } = this.deps;
    const clock = this.deps.clock ?? systemClock;
    const seed = await garden.get(SeedKind, { name: req.name }).catch(ignoreNotFound);
    if (!seed) return;
    try {
      await this.deps.seedHealthz();
    } catch (err) {
      health.set(false);
      throw wrapError(err, 'seed API server /healthz failed');
    }
    try {
      await this.renewLease(seed, clock.now());
    } catch (err) {
      health.set(false);
      throw wrapError(err, `renewing Lease ${SEED_LEASE_NAMESPACE}/${req.name}`);
    }
    health.set(true);
    if (gardenletReadyConditions(seed.status?.conditions as Condition[] | undefined, clock)) {
      await patchStatusOptimistically(garden, SeedKind, { name: req.name }, (_seed, conditions) => {
        const ready = gardenletReadyConditions(conditions, clock);
        return ready ? { conditions: ready } : undefined;
      });
    }
    return { requeueAfter: this.deps.leaseResyncSeconds * 1000 };
  }

  private async renewLease(seed: Seed, now: Date): Promise<void> {
    const key = { namespace: SEED_LEASE_NAMESPACE, name: seed.metadata!.name! };
    const existing = await this.deps.garden.get(Kinds.Lease, key).catch(ignoreNotFound);
    const lease = renewedLease(seed, now, this.deps.leaseResyncSeconds, existing);
    if (existing) await this.deps.garden.update(lease);
    else await this.deps.garden.create(lease);
  }
}
