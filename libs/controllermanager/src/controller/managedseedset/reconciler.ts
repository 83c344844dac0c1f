// Gardener's ManagedSeedSet reconciler: the finalizer `gardener`, the replicas of the set read from the garden
// (Shoots and ManagedSeeds of its namespace and Seeds matching its selector), one step of the planner (`actuator.ts`)
// carried out (a rolling update merge-patches a replica's Shoot and ManagedSeed with the templates), the status
// written, and on deletion the finalizer removed once every replica is gone.
import type { Seed, Shoot } from '@gardener-ts/api';
import {
  addFinalizer,
  hasFinalizer,
  ignoreNotFound,
  isAlreadyExists,
  labelSelectorMatcher,
  removeFinalizer,
  type Client,
  type LabelSelector,
  type ReconcileContext,
  type ReconcileResult,
  type Request,
} from '@gardener-ts/controller-runtime';
import { ManagedSeedKind, SeedKind, ShootKind, type ManagedSeed } from '../../kinds.js';
import { planManagedSeedSet, type ReplicaAction, type SetPlan } from './actuator.js';
import { replicaName, type Replica } from './replica.js';
import { ManagedSeedSetKind, type ManagedSeedSet } from './types.js';

/** The finalizer the controller keeps on a set until its replicas are gone. */
export const ManagedSeedSetFinalizer = 'gardener';

export interface ManagedSeedSetReconcilerOptions {
  /** The cached client (reads) that writes to the garden. */
  client: Pick<Client, 'get' | 'list' | 'create' | 'patch' | 'delete'>;
  /** Live reads: the cross-check of the set's Shoots and the shoots scheduled on a replica's seed. */
  api: Pick<Client, 'list'>;
  syncPeriodMs: number;
  maxShootRetries: number;
  now?: () => Date;
}

/** Reconciles one ManagedSeedSet. */
export class ManagedSeedSetReconciler {
  constructor(private readonly o: ManagedSeedSetReconcilerOptions) {}

  async reconcile(req: Request, ctx: ReconcileContext): Promise<ReconcileResult | void> {
    let set = await this.o.client.get(ManagedSeedSetKind, req).catch(ignoreNotFound);
    if (!set) {
      ctx.log.debug('Object is gone, stop reconciling');
      return;
    }
    const deleting = !!set.metadata?.deletionTimestamp;
    if (deleting && !hasFinalizer(set, ManagedSeedSetFinalizer)) return;
    if (!deleting && !hasFinalizer(set, ManagedSeedSetFinalizer)) {
      ctx.log.info('Adding finalizer');
      set = await addFinalizer(this.o.client, set, ManagedSeedSetFinalizer);
    }

    const key = `${req.namespace}/${req.name}`;
    const what = deleting ? 'deletion' : 'creation or update';
    let plan: SetPlan;
    try {
      plan = planManagedSeedSet({
        set,
        replicas: await this.replicas(set),
        maxShootRetries: this.o.maxShootRetries,
        now: (this.o.now?.() ?? new Date()).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      });
    } catch (err) {
      throw new Error(`could not reconcile ManagedSeedSet ${key} ${what}`, { cause: err });
    }
    if (plan.event) ctx.log.info({ reason: plan.event.reason }, plan.event.message);

    let failure: unknown;
    try {
      if (plan.error) throw new Error(plan.error);
      if (plan.action) await this.act(plan.action);
    } catch (err) {
      failure = new Error(`could not reconcile ManagedSeedSet ${key} ${what}`, { cause: err });
    }
    if (deleting && plan.done && !failure) {
      ctx.log.info('Removing finalizer');
      await removeFinalizer(this.o.client, set, ManagedSeedSetFinalizer);
      return;
    }
    try {
      await this.writeStatus(set, plan);
    } catch (err) {
      if (!failure) throw new Error('could not update status', { cause: err });
    }
    if (failure) throw failure;
    return { requeueAfter: this.o.syncPeriodMs };
  }

  /** The set's replicas (Gardener's ReplicaGetter): one per Shoot of its namespace that its selector selects. */
  private async replicas(set: ManagedSeedSet): Promise<Replica[]> {
    const matches = labelSelectorMatcher(set.spec.selector as LabelSelector);
    const namespace = set.metadata!.namespace!;
    const selected = <T extends { metadata?: { labels?: Record<string, string> } }>(items: T[]) =>
      items.filter((o) => matches(o.metadata?.labels));
    const shoots = selected((await this.o.client.list(ShootKind, { namespace })).items);
    const managedSeeds = selected((await this.o.client.list(ManagedSeedKind, { namespace })).items);
    const seeds = selected((await this.o.client.list(SeedKind)).items);
    // The cache may lag behind: its Shoots are cross-checked with the API server's.
    const live = selected((await this.o.api.list(ShootKind, { namespace })).items);
    if (live.length !== shoots.length) throw new Error('cross-checking number of shoots failed');

    const byName = <T extends { metadata?: { name?: string } }>(items: T[]) =>
      new Map(items.map((o) => [o.metadata!.name!, o]));
    const managedSeedsByName = byName<ManagedSeed>(managedSeeds);
    const seedsByName = byName<Seed>(seeds);
    const seedNamesWithShoots = seeds.length
      ? new Set((await this.o.api.list(ShootKind)).items.map((s: Shoot) => s.spec.seedName).filter(Boolean))
      : new Set<string | undefined>();
    return shoots.map((shoot) => {
      const name = shoot.metadata!.name!;
      const seed = seedsByName.get(name);
      return {
        shoot,
        ...(managedSeedsByName.has(name) ? { managedSeed: managedSeedsByName.get(name)! } : {}),
        ...(seed ? { seed } : {}),
        hasScheduledShoots: !!seed && seedNamesWithShoots.has(name),
      };
    });
  }

  private async act(action: ReplicaAction): Promise<void> {
    const c = this.o.client;
    switch (action.type) {
      case 'createShoot':
        await c.create(action.shoot).catch((err: unknown) => {
          if (!isAlreadyExists(err)) throw err;
        });
        return;
      case 'createManagedSeed':
        await c.create(action.managedSeed).catch((err: unknown) => {
          if (!isAlreadyExists(err)) throw err;
        });
        return;
      case 'retryShoot':
        await c.patch(ShootKind, shootKey(action.replica), {
          type: 'merge',
          patch: { metadata: { annotations: { 'gardener.cloud/operation': 'retry' } } },
        });
        return;
      case 'deleteShoot':
        await c
          .patch(ShootKind, shootKey(action.replica), {
            type: 'merge',
            patch: { metadata: { annotations: { 'confirmation.gardener.cloud/deletion': 'true' } } },
          })
          .catch(ignoreNotFound);
        await c.delete(ShootKind, shootKey(action.replica)).catch(ignoreNotFound);
        return;
      case 'deleteManagedSeed':
        await c.delete(ManagedSeedKind, shootKey(action.replica)).catch(ignoreNotFound);
        return;
      case 'updateReplica': {
        // Merge patches: fields the templates set are written; server defaults and what others set (the seed name,
        // maintenance's Kubernetes version updates) stay.
        const { shoot, managedSeed } = action;
        await c.patch(ShootKind, shootKey(action.replica), {
          type: 'merge',
          patch: {
            metadata: { labels: shoot.metadata?.labels, annotations: shoot.metadata?.annotations },
            spec: shoot.spec,
          },
        });
        if (managedSeed) {
          await c.patch(ManagedSeedKind, shootKey(action.replica), {
            type: 'merge',
            patch: {
              metadata: { labels: managedSeed.metadata?.labels, annotations: managedSeed.metadata?.annotations },
              spec: { gardenlet: managedSeed.spec.gardenlet },
            },
          });
        }
        return;
      }
    }
  }

  /** Merge-patches the planned status; a cleared pending replica is removed. */
  private async writeStatus(set: ManagedSeedSet, plan: SetPlan): Promise<void> {
    const { pendingReplica, ...counts } = plan.status;
    await this.o.client.patch(
      ManagedSeedSetKind,
      { namespace: set.metadata!.namespace!, name: set.metadata!.name! },
      {
        type: 'merge',
        patch: { status: { ...counts, pendingReplica: pendingReplica ?? null } },
      },
      { subresource: 'status' },
    );
  }
}

const shootKey = (r: Replica) => ({ namespace: r.shoot.metadata!.namespace!, name: replicaName(r) });
