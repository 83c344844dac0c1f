// One reconcile of one Deployment: its ReplicaSets and pods as read, and the writes every strategy shares
// (finding or creating the new ReplicaSet, scaling, cleaning up history, reporting status).
import { isAlreadyExists, isConflict } from '@gardener-ts/controller-runtime';
import type { ControllerContext } from '../shared/context.js';
import type { EventRecorder } from '../shared/events.js';
import { canonicalJson } from '../shared/hash.js';
import { type Deployment, type Pod, type ReplicaSet, ReplicaSetKind } from '../shared/kinds.js';
import { controllerOf } from '../shared/owner.js';
import { newReplicaSetAnnotations, REVISION, revisionOf } from './annotations.js';
import { condition, PROGRESSING, Reasons, setCondition } from './conditions.js';
import { findNewReplicaSet, maxRevision, newReplicaSetFor, sortByCreation } from './replica-sets.js';
import { newReplicaSetReplicas, resolveFenceposts, specReplicas, sumSpec } from './rollout-math.js';
import { calculateStatus, isComplete, pastDeadline, updateProgressing } from './status.js';

export class Rollout {
  newRS?: ReplicaSet;
  old: ReplicaSet[] = [];

  constructor(
    private readonly ctx: ControllerContext,
    private readonly events: EventRecorder,
    /** A private copy, kept current with every write. */
    public d: Deployment,
    /** The ReplicaSets the Deployment controls. */
    private sets: ReplicaSet[],
    /** The pods of the namespace, for counting those of each ReplicaSet. */
    private readonly pods: Pod[],
  ) {
    this.split();
  }

  get all(): ReplicaSet[] {
    return this.newRS ? [this.newRS, ...this.old] : [...this.old];
  }

  get replicas(): number {
    return this.d.spec?.replicas ?? 1;
  }

  /** Pods of the given ReplicaSets that exist and are not finished (terminating ones included). */
  podsOf(sets: ReplicaSet[]): Pod[] {
    const uids = new Set(sets.map((rs) => rs.metadata?.uid));
    return this.pods.filter(
      (p) => uids.has(controllerOf(p)?.uid) && p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed',
    );
  }

  /** Pods in the rollout: what the ReplicaSets ask for, or more while deleted pods are still around. */
  currentPods(): number {
    return Math.max(sumSpec(this.all), this.podsOf(this.all).length);
  }

  /**
   * Brings the new ReplicaSet's revision bookkeeping up to date (a rollback makes an old one new again under the
   * next revision) and, if `create`, creates it when there is none. Mirrors the revision onto the Deployment.
   */
  async syncRevision(create: boolean): Promise<void> {
    const revision = maxRevision(this.old) + 1;
    const annotations = (current?: Record<string, string>) =>
      newReplicaSetAnnotations(
        current,
        this.d.metadata?.annotations,
        revision,
        this.replicas,
        this.replicas + resolveFenceposts(this.d).maxSurge,
      );
    if (this.newRS) {
      const wanted = annotations(this.newRS.metadata?.annotations);
      const minReadySeconds = this.d.spec?.minReadySeconds ?? 0;
      if (
        canonicalJson(wanted) !== canonicalJson(this.newRS.metadata?.annotations ?? {}) ||
        (this.newRS.spec?.minReadySeconds ?? 0) !== minReadySeconds
      ) {
        const next = structuredClone(this.newRS);
        next.metadata!.annotations = wanted;
        next.spec!.minReadySeconds = minReadySeconds;
        this.replace(await this.ctx.client.update(next));
      }
      if (!condition(this.d.status ?? {}, PROGRESSING) && this.d.spec?.progressDeadlineSeconds !== undefined) {
        await this.writeStatus(Reasons.foundNewReplicaSet, `Found new replica set "${this.newRS.metadata?.name}"`);
      }
    } else if (create) {
      await this.createNewReplicaSet(annotations());
    }
    if (this.newRS && this.d.metadata?.annotations?.[REVISION] !== String(revisionOf(this.newRS))) {
      const next = structuredClone(this.d);
      next.metadata!.annotations = { ...next.metadata?.annotations, [REVISION]: String(revisionOf(this.newRS)) };
      this.d = await this.ctx.client.update(next);
    }
  }

  /** Scales a ReplicaSet, recording the Deployment's size it was scaled for. Returns whether it changed. */
  async scale(rs: ReplicaSet, replicas: number): Promise<boolean> {
    const from = specReplicas(rs);
    const annotations = newReplicaSetAnnotations(
      rs.metadata?.annotations,
      {},
      revisionOf(rs),
      this.replicas,
      this.replicas + resolveFenceposts(this.d).maxSurge,
    );
    if (from === replicas && canonicalJson(annotations) === canonicalJson(rs.metadata?.annotations ?? {})) return false;
    const next = structuredClone(rs);
    next.spec!.replicas = replicas;
    next.metadata!.annotations = annotations;
    this.replace(await this.ctx.client.update(next));
    if (from !== replicas) {
      const direction = replicas > from ? 'up' : 'down';
      this.events.event(
        this.d,
        'Normal',
        'ScalingReplicaSet',
        `Scaled ${direction} replica set ${rs.metadata?.name} from ${from} to ${replicas}`,
      );
    }
    return from !== replicas;
  }

  /** Deletes the oldest empty ReplicaSets beyond revisionHistoryLimit. */
  async cleanup(): Promise<void> {
    const limit = this.d.spec?.revisionHistoryLimit ?? 10;
    const cleanable = this.old
      .filter((rs) => !rs.metadata?.deletionTimestamp)
      .sort((a, b) => revisionOf(a) - revisionOf(b));
    for (const rs of cleanable.slice(0, Math.max(0, cleanable.length - limit))) {
      if (
        (rs.status?.replicas ?? 0) !== 0 ||
        specReplicas(rs) !== 0 ||
        (rs.metadata?.generation ?? 0) > (rs.status?.observedGeneration ?? 0)
      )
        continue;
      await this.ctx.client
        .delete(ReplicaSetKind, { namespace: rs.metadata?.namespace, name: rs.metadata!.name! })
        .catch((err: unknown) => {
          if (!isConflict(err)) throw err;
        });
    }
  }

  /**
   * Writes the status: counts, Available, and (unless paused, or `progressing` is false) Progressing. Returns how
   * long until the progress deadline runs out, if a rollout is under way.
   */
  async syncStatus(progressing = true): Promise<number | undefined> {
    const now = this.ctx.now();
    const status = calculateStatus(this.d, this.all, this.newRS, now);
    if (progressing && !this.d.spec?.paused) updateProgressing(this.d, status, this.newRS, now);
    if (canonicalJson(status) !== canonicalJson(this.d.status ?? {}))
      this.d = await this.ctx.client.updateStatus({ ...this.d, status });
    if (!progressing || this.d.spec?.paused || isComplete(this.d, status)) return undefined;
    const past = pastDeadline(this.d, status, now);
    return past !== undefined && past < 0 ? -past : undefined;
  }

  /** The Progressing condition when pausing or resuming. */
  async syncPaused(): Promise<void> {
    const reason = condition(this.d.status ?? {}, PROGRESSING)?.reason;
    if (this.d.spec?.progressDeadlineSeconds === undefined) return;
    if (this.d.spec?.paused && reason !== Reasons.paused)
      await this.writeStatus(Reasons.paused, 'Deployment is paused', 'Unknown');
    else if (!this.d.spec?.paused && reason === Reasons.paused)
      await this.writeStatus(Reasons.resumed, 'Deployment is resumed', 'Unknown');
  }

  private async createNewReplicaSet(annotations: Record<string, string>): Promise<void> {
    const rs = newReplicaSetFor(this.d, newReplicaSetReplicas(this.d, undefined, this.currentPods()), annotations);
    try {
      this.newRS = await this.ctx.client.create(rs);
    } catch (err) {
      if (!isAlreadyExists(err)) {
        await this.writeStatus(
          Reasons.replicaSetCreateError,
          `Failed to create new replica set "${rs.metadata?.name}": ${(err as Error).message}`,
          'False',
        );
        throw err;
      }
      // The name is taken by a ReplicaSet with another template: the next hash gets a different name.
      const status = { ...this.d.status, collisionCount: (this.d.status?.collisionCount ?? 0) + 1 };
      this.d = await this.ctx.client.updateStatus({ ...this.d, status });
      throw new Error(`replica set ${rs.metadata?.name} exists with another template; trying the next name`);
    }
    this.old = this.old.filter((o) => o.metadata?.uid !== this.newRS?.metadata?.uid);
    this.events.event(
      this.d,
      'Normal',
      'ScalingReplicaSet',
      `Scaled up replica set ${rs.metadata?.name} from 0 to ${specReplicas(this.newRS)}`,
    );
    await this.writeStatus(Reasons.newReplicaSetCreated, `Created new replica set "${rs.metadata?.name}"`);
  }

  private async writeStatus(
    reason: string,
    message: string,
    value: 'True' | 'False' | 'Unknown' = 'True',
  ): Promise<void> {
    const status = structuredClone(this.d.status ?? {});
    setCondition(status, PROGRESSING, value, reason, message, this.ctx.now());
    this.d = await this.ctx.client.updateStatus({ ...this.d, status });
  }

  private replace(rs: ReplicaSet): void {
    this.sets = this.sets.map((s) => (s.metadata?.uid === rs.metadata?.uid ? rs : s));
    this.split();
  }

  private split(): void {
    this.newRS = findNewReplicaSet(this.d, this.sets);
    this.old = sortByCreation(this.sets.filter((rs) => rs !== this.newRS));
  }
}
