// The StatefulSet reconciler: revisions first, then one plan step over the ordinal pods, then status and history.
import {
  ignoreNotFound,
  isAlreadyExists,
  type ReconcileContext,
  type ReconcileResult,
  type Request,
} from '@gardener-ts/controller-runtime';
import type { ControllerContext } from '../shared/context.js';
import type { EventRecorder } from '../shared/events.js';
import { canonicalJson } from '../shared/hash.js';
import {
  type ControllerRevision,
  ControllerRevisionKind,
  PersistentVolumeClaimKind,
  PodKind,
  type StatefulSet,
  StatefulSetKind,
} from '../shared/kinds.js';
import { claimObjects } from '../shared/owner.js';
import { msUntilAvailable } from '../shared/pods.js';
import { selectorMatcher } from '../shared/selectors.js';
import { ordinalOf, podName, statefulClaims, statefulPod } from './identity.js';
import { type Action, planStatefulSet, REVISION_LABEL } from './plan.js';
import { byRevision, syncUpdateRevision, templateOf, truncateRevisionHistory } from '../shared/controller-revisions.js';
import { writeStatus } from '../shared/status-writer.js';
import { statefulSetStatus } from './status.js';

export class StatefulSetReconciler {
  constructor(
    private readonly ctx: ControllerContext,
    private readonly events: EventRecorder,
  ) {}

  async reconcile(req: Request, { log }: ReconcileContext): Promise<ReconcileResult | void> {
    const sts = await this.ctx.client.get(StatefulSetKind, req).catch(ignoreNotFound);
    if (!sts) return;
    const claiming = {
      client: this.ctx.client,
      owner: sts,
      ownerKind: StatefulSetKind,
      selector: selectorMatcher(sts.spec?.selector),
      ownerIsCurrent: async () => {
        const fresh = await this.ctx.api.get(StatefulSetKind, req).catch(ignoreNotFound);
        return fresh?.metadata?.uid === sts.metadata?.uid && !fresh?.metadata?.deletionTimestamp;
      },
    };
    const inNamespace = { namespace: req.namespace };
    const pods = (
      await claimObjects((await this.ctx.client.list(PodKind, inNamespace)).items, { ...claiming, kind: PodKind })
    ).filter((p) => ordinalOf(sts, p) !== undefined);
    const revisions = (
      await claimObjects((await this.ctx.client.list(ControllerRevisionKind, inNamespace)).items, {
        ...claiming,
        kind: ControllerRevisionKind,
      })
    ).sort(byRevision);

    const update = await syncUpdateRevision(this.ctx, sts, StatefulSetKind, revisions);
    const current = revisions.find((r) => r.metadata?.name === sts.status?.currentRevision) ?? update;

    if (!sts.metadata?.deletionTimestamp) {
      const byOrdinal = new Map(pods.map((p) => [ordinalOf(sts, p)!, p]));
      const strategy = sts.spec?.updateStrategy;
      const actions = planStatefulSet({
        replicas: sts.spec?.replicas ?? 1,
        start: sts.spec?.ordinals?.start ?? 0,
        orderedReady: (sts.spec?.podManagementPolicy ?? 'OrderedReady') === 'OrderedReady',
        partition: strategy?.type === 'OnDelete' ? undefined : (strategy?.rollingUpdate?.partition ?? 0),
        updateRevision: update.metadata!.name!,
        pods: byOrdinal,
      });
      if (actions.length) log.debug({ actions: actions.map((a) => `${a.type} ${a.ordinal}`) }, 'Acting on pods');
      for (const action of actions) await this.apply(sts, action, current, update);
    }

    const now = this.ctx.now();
    const status = statefulSetStatus(sts, pods, current.metadata!.name!, update.metadata!.name!, now);
    if (canonicalJson(status) !== canonicalJson(sts.status ?? {})) await writeStatus(this.ctx.client, sts, status);
    const live = new Set([
      status.currentRevision,
      status.updateRevision,
      ...pods.map((p) => p.metadata?.labels?.[REVISION_LABEL]),
    ]);
    await truncateRevisionHistory(
      this.ctx,
      revisions,
      (r) => live.has(r.metadata?.name),
      sts.spec?.revisionHistoryLimit,
    );
    const waits = pods
      .map((p) => msUntilAvailable(p, sts.spec?.minReadySeconds ?? 0, now))
      .filter((ms): ms is number => ms !== undefined);
    return waits.length ? { requeueAfter: Math.min(...waits) + 50 } : undefined;
  }

  private async apply(
    sts: StatefulSet,
    action: Action,
    current: ControllerRevision,
    update: ControllerRevision,
  ): Promise<void> {
    if (action.type === 'delete') {
      await this.ctx.client
        .delete(PodKind, { namespace: sts.metadata?.namespace, name: action.pod.metadata!.name! })
        .catch(ignoreNotFound);
      this.events.event(
        sts,
        'Normal',
        'SuccessfulDelete',
        `delete Pod ${action.pod.metadata?.name} in StatefulSet ${sts.metadata?.name} successful`,
      );
      return;
    }
    // kube's rule: a member is not created while one of its claims is being deleted (its Pod would hold the claim's
    // pvc-protection finalizer forever); the set is reconciled again once the claim is gone.
    for (const claim of statefulClaims(sts, action.ordinal)) {
      const key = { namespace: claim.metadata!.namespace, name: claim.metadata!.name! };
      const existing = await this.ctx.client.get(PersistentVolumeClaimKind, key).catch(ignoreNotFound);
      if (existing?.metadata?.deletionTimestamp) throw new Error(`pvc ${key.name} is being deleted`);
      if (existing) continue;
      await this.ctx.client.create(claim).catch((err: unknown) => {
        if (!isAlreadyExists(err)) throw err;
      });
    }
    // Ordinals below the partition stay on the current revision.
    const partition = sts.spec?.updateStrategy?.rollingUpdate?.partition ?? 0;
    const start = sts.spec?.ordinals?.start ?? 0;
    const revision =
      sts.spec?.updateStrategy?.type !== 'OnDelete' && action.ordinal - start < partition ? current : update;
    try {
      await this.ctx.client.create(statefulPod(sts, action.ordinal, templateOf(revision), revision.metadata!.name!));
    } catch (err) {
      if (isAlreadyExists(err)) return;
      this.events.event(
        sts,
        'Warning',
        'FailedCreate',
        `create Pod ${podName(sts, action.ordinal)} in StatefulSet ${sts.metadata?.name} failed error: ${(err as Error).message}`,
      );
      throw err;
    }
    this.events.event(
      sts,
      'Normal',
      'SuccessfulCreate',
      `create Pod ${podName(sts, action.ordinal)} in StatefulSet ${sts.metadata?.name} successful`,
    );
  }
}
