// Gardener's ManagedSeedSet reconciler: the finalizer `gardener`, the set's ControllerRevisions brought up to date
// (`revision.ts`: the update revision found, renumbered or created, a name clash raising `status.collisionCount`, the
// history pruned afterwards), the replicas of the set read from the garden (Shoots and ManagedSeeds of its namespace
// and Seeds matching its selector), one step of the planner (`actuator.ts`) carried out (a rolling update
// merge-patches a replica's Shoot and ManagedSeed), Gardener's events recorded (Normal with the step's reason, Warning
// `ReconcileError` on failure), the status written, and on deletion the finalizer removed once every replica is gone.
import type { Seed, Shoot } from '@gardener-ts/api';
import {
  addFinalizer,
  hasFinalizer,
  ignoreNotFound,
  isAlreadyExists,
  labelSelectorMatcher,
  removeFinalizer,
  type Client,
  type EventRecorder,
  type LabelSelector,
  type ReconcileContext,
  type ReconcileResult,
  type Request,
} from '@gardener-ts/controller-runtime';
import { ManagedSeedKind, SeedKind, ShootKind, type ManagedSeed } from '../../kinds.js';
import { planManagedSeedSet, type ReplicaAction, type RevisionInput, type SetPlan } from './actuator.js';
import { replicaName, RevisionLabel, type Replica } from './replica.js';
import {
  ControllerRevisionKind,
  DefaultRevisionHistoryLimit,
  equalRevision,
  ownedRevisions,
  revisionName,
  revisionsToPrune,
  templatesOf,
  templatesOfRevision,
  updateRevisionStep,
  type ControllerRevision,
  type RevisionTemplates,
} from './revision.js';
import { ManagedSeedSetKind, type ManagedSeedSet } from './types.js';

/** The finalizer the controller keeps on a set until its replicas are gone. */
export const ManagedSeedSetFinalizer = 'gardener';

export interface ManagedSeedSetReconcilerOptions {
  /** The cached client (reads) that writes to the garden. */
  client: Pick<Client, 'get' | 'list' | 'create' | 'patch' | 'delete'>;
  /**
   * Live reads: the cross-check of the set's Shoots, the shoots scheduled on a replica's seed and the set's
   * ControllerRevisions.
   */
  api: Pick<Client, 'list'>;
  syncPeriodMs: number;
  maxShootRetries: number;
  /** Gardener's events on the set (events.k8s.io/v1, reporting controller `managedseedset-controller`). */
  events?: Pick<EventRecorder, 'actionEvent'>;
  now?: () => Date;
}

/** The action of an event (Gardener's EventActionReconcile or EventActionDelete): deletions for deletion steps. */
export const eventAction = (reason: string): 'Reconcile' | 'Delete' => (/Delet/.test(reason) ? 'Delete' : 'Reconcile');
/** How often a name clash of the update revision is resolved by raising the collision count in one reconciliation. */
const MaxCollisionRetries = 5;

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
    const warn = (err: unknown) =>
      this.o.events?.actionEvent(set!, undefined, 'Warning', 'ReconcileError', 'Reconcile', (err as Error).message);
    let plan: SetPlan;
    let history: History;
    try {
      history = await this.revisions(set, deleting);
      plan = planManagedSeedSet({
        set,
        replicas: await this.replicas(set),
        maxShootRetries: this.o.maxShootRetries,
        now: (this.o.now?.() ?? new Date()).toISOString().replace(/\.\d{3}Z$/, 'Z'),
        revisions: history.input,
      });
    } catch (err) {
      warn(err);
      throw new Error(`could not reconcile ManagedSeedSet ${key} ${what}`, { cause: err });
    }
    if (plan.event) {
      ctx.log.info({ reason: plan.event.reason }, plan.event.message);
      this.o.events?.actionEvent(
        set,
        undefined,
        'Normal',
        plan.event.reason,
        eventAction(plan.event.reason),
        plan.event.message,
      );
    }

    let failure: unknown;
    try {
      if (plan.error) throw new Error(plan.error);
      if (plan.action) await this.act(plan.action);
      if (!deleting) await this.pruneHistory(set, history.owned, plan);
    } catch (err) {
      warn(err);
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

  /**
   * The set's revisions (Kubernetes' getStatefulSetRevisions): its ControllerRevisions read live; the update revision
   * found among them, renumbered (the templates were reverted to it) or created, a clash with a revision of the same
   * name but other templates raising the collision count; the current revision the status names while a revision or
   * a replica is at it, else the update revision. While the set is being deleted nothing is written.
   */
  private async revisions(set: ManagedSeedSet, deleting: boolean): Promise<History> {
    const namespace = set.metadata!.namespace!;
    const status = set.status as { collisionCount?: number; currentRevision?: string } | undefined;
    let collisionCount = status?.collisionCount ?? 0;
    const owned = ownedRevisions(set, (await this.o.api.list(ControllerRevisionKind, { namespace })).items);
    let update: string | undefined;
    if (deleting) update = revisionName(set, collisionCount);
    for (let attempt = 0; update === undefined; attempt++) {
      const step = updateRevisionStep(set, owned, collisionCount);
      if (step.type === 'existing') {
        update = step.revision.metadata!.name!;
      } else if (step.type === 'renumber') {
        await this.o.client.patch(
          ControllerRevisionKind,
          { namespace, name: step.revision.metadata!.name! },
          { type: 'merge', patch: { revision: step.number } },
        );
        step.revision.revision = step.number;
        owned.sort((a, b) => a.revision - b.revision);
        update = step.revision.metadata!.name!;
      } else {
        try {
          owned.push(await this.o.client.create(step.revision));
          update = step.revision.metadata!.name!;
        } catch (err) {
          if (!isAlreadyExists(err)) throw err;
          const clash = await this.o.client.get(ControllerRevisionKind, {
            namespace,
            name: step.revision.metadata!.name!,
          });
          if (equalRevision(clash, step.revision)) {
            update = step.revision.metadata!.name!;
          } else if (attempt >= MaxCollisionRetries) {
            throw new Error(
              `could not create ControllerRevision ${namespace}/${step.revision.metadata!.name!}: hash collision`,
            );
          } else {
            collisionCount++;
          }
        }
      }
    }
    const templates = new Map<string, RevisionTemplates>();
    for (const r of owned) {
      const t = templatesOfRevision(r);
      if (t) templates.set(r.metadata!.name!, t);
    }
    if (!templates.has(update)) templates.set(update, templatesOf(set));
    const named = status?.currentRevision;
    const replicaAt = async (name: string) =>
      (await this.o.client.list(ShootKind, { namespace })).items.some(
        (s) => s.metadata?.labels?.[RevisionLabel] === name,
      );
    const current = named && (templates.has(named) || (await replicaAt(named))) ? named : update;
    return { owned, input: { update, current, collisionCount, templates } };
  }

  /**
   * Kubernetes' truncateHistory: beyond `spec.revisionHistoryLimit` (default 10) the oldest revisions no replica is at
   * (and neither the current nor the update one) are deleted.
   */
  private async pruneHistory(set: ManagedSeedSet, owned: readonly ControllerRevision[], plan: SetPlan): Promise<void> {
    const namespace = set.metadata!.namespace!;
    const live = new Set<string>([plan.status.currentRevision, plan.status.updateRevision]);
    const add = (labels: Record<string, string> | undefined) => {
      if (labels?.[RevisionLabel]) live.add(labels[RevisionLabel]);
    };
    for (const s of (await this.o.client.list(ShootKind, { namespace })).items) add(s.metadata?.labels);
    for (const m of (await this.o.client.list(ManagedSeedKind, { namespace })).items) add(m.metadata?.labels);
    const limit = (set.spec as { revisionHistoryLimit?: number }).revisionHistoryLimit ?? DefaultRevisionHistoryLimit;
    for (const r of revisionsToPrune(owned, live, limit)) {
      await this.o.client.delete(ControllerRevisionKind, { namespace, name: r.metadata!.name! }).catch(ignoreNotFound);
    }
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
        // Merge patches: server defaults and what others set (the seed name, maintenance's Kubernetes version
        // updates) stay.
        // The patches hold what changed between the replica's revision and the update revision (fields a template
        // dropped are nulled), or every field the templates set when the replica's revision is not known.
        await c.patch(ShootKind, shootKey(action.replica), { type: 'merge', patch: action.shootPatch });
        if (action.managedSeedPatch) {
          await c.patch(ManagedSeedKind, shootKey(action.replica), { type: 'merge', patch: action.managedSeedPatch });
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

/** The set's revisions: those it controls (oldest first) and what the planner needs of them. */
interface History {
  owned: ControllerRevision[];
  input: RevisionInput;
}

const shootKey = (r: Replica) => ({ namespace: r.shoot.metadata!.namespace!, name: replicaName(r) });
