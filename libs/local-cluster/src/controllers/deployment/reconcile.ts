// The Deployment reconciler: claim the ReplicaSets, then roll out (RollingUpdate or Recreate), or only resize
// while paused or scaling, and report status.
import {
  ignoreNotFound,
  type ReconcileContext,
  type ReconcileResult,
  type Request,
} from '@gardener-ts/controller-runtime';
import type { ControllerContext } from '../shared/context.js';
import type { EventRecorder } from '../shared/events.js';
import { type Deployment, DeploymentKind, PodKind, ReplicaSetKind } from '../shared/kinds.js';
import { claimObjects } from '../shared/owner.js';
import { selectorMatcher } from '../shared/selectors.js';
import { isScalingEvent } from './proportional-scaling.js';
import { Rollout } from './rollout.js';
import { recreate, rollingUpdate, sync } from './strategies.js';

export class DeploymentReconciler {
  constructor(
    private readonly ctx: ControllerContext,
    private readonly events: EventRecorder,
  ) {}

  async reconcile(req: Request, _ctx: ReconcileContext): Promise<ReconcileResult | void> {
    const cached = await this.ctx.client.get(DeploymentKind, req).catch(ignoreNotFound);
    if (!cached) return;
    const d = structuredClone(cached) as Deployment;
    const selector = d.spec?.selector;
    if (!selector?.matchLabels && !selector?.matchExpressions?.length) {
      this.events.event(
        d,
        'Warning',
        'SelectingAll',
        'This deployment is selecting all pods. A non-empty selector is required.',
      );
      return;
    }
    const sets = await claimObjects((await this.ctx.client.list(ReplicaSetKind, { namespace: req.namespace })).items, {
      client: this.ctx.client,
      kind: ReplicaSetKind,
      owner: d,
      ownerKind: DeploymentKind,
      selector: selectorMatcher(selector),
      ownerIsCurrent: async () => {
        const fresh = await this.ctx.api.get(DeploymentKind, req).catch(ignoreNotFound);
        return fresh?.metadata?.uid === d.metadata?.uid && !fresh?.metadata?.deletionTimestamp;
      },
    });
    const pods = (await this.ctx.client.list(PodKind, { namespace: req.namespace })).items;
    const rollout = new Rollout(this.ctx, this.events, d, structuredClone(sets), pods);

    if (d.metadata?.deletionTimestamp) {
      await rollout.syncStatus(false);
      return;
    }
    await rollout.syncPaused();
    if (d.spec?.paused || isScalingEvent(d, rollout.all)) {
      await sync(rollout);
      return;
    }
    const deadlineIn = d.spec?.strategy?.type === 'Recreate' ? await recreate(rollout) : await rollingUpdate(rollout);
    // A rollout that stops moving must be marked ProgressDeadlineExceeded even if nothing else happens.
    return deadlineIn !== undefined ? { requeueAfter: deadlineIn + 100 } : undefined;
  }
}
