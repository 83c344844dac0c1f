// Gardener's shoot conditions reconciler: a Shoot registered as a Seed through a ManagedSeed gets the Seed's
// conditions in its status next to its own; once it is no longer registered (or the Seed is gone) they are removed.
import type { Seed } from '@gardener-ts/api';
import {
  conditionsNeedUpdate,
  ignoreNotFound,
  type Client,
  type Condition,
  type ReconcileContext,
  type ReconcileResult,
  type Request,
} from '@gardener-ts/controller-runtime';
import { ManagedSeedKind, SeedKind, ShootKind } from '../../kinds.js';
import { conditionsOf, managedSeedOfShoot, shootConditionsWithSeed } from './conditions.js';

export interface ShootConditionsReconcilerOptions {
  client: Pick<Client, 'get' | 'list' | 'patch'>;
}

/** Keeps the Seed conditions of one Shoot in step with its Seed. */
export class ShootConditionsReconciler {
  constructor(private readonly o: ShootConditionsReconcilerOptions) {}

  async reconcile(req: Request, ctx: ReconcileContext): Promise<ReconcileResult | void> {
    const shoot = await this.o.client.get(ShootKind, req).catch(ignoreNotFound);
    if (!shoot) {
      ctx.log.debug('Object is gone, stop reconciling');
      return;
    }
    const seed = await this.seedOf(req.namespace ?? '', req.name);
    const conditions = shootConditionsWithSeed(
      conditionsOf(shoot),
      seed?.status?.conditions as Condition[] | undefined,
    );
    if (!conditionsNeedUpdate(conditionsOf(shoot) ?? [], conditions)) return;
    ctx.log.debug('Updating shoot conditions');
    // Guarded by the resourceVersion (Gardener updates, so that it acts on an up-to-date Shoot): a conflict retries.
    await this.o.client.patch(
      ShootKind,
      { namespace: req.namespace, name: req.name },
      {
        type: 'merge',
        patch: { metadata: { resourceVersion: shoot.metadata!.resourceVersion }, status: { conditions } },
      },
      { subresource: 'status' },
    );
  }

  /** The Seed the Shoot is registered as, if any (its ManagedSeed's name). */
  private async seedOf(namespace: string, name: string): Promise<Seed | undefined> {
    const managedSeeds = (await this.o.client.list(ManagedSeedKind, { namespace })).items;
    const managedSeed = managedSeedOfShoot(managedSeeds, namespace, name);
    if (!managedSeed) return undefined;
    return this.o.client.get(SeedKind, { name: managedSeed.metadata!.name! }).catch(ignoreNotFound);
  }
}
