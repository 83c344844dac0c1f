// The pod garbage collector (kube's podgc), its orphan part: a pod bound to a Node that no longer exists (a machine
// deleted with its Node, as a hibernated or rolled Gardener worker pool does) is marked Failed with
// `DisruptionTarget` (DeletionByPodGC) and force-deleted once its node has been missing for the quarantine. No kubelet
// is left to end such a pod, and its owner (a ReplicaSet) replaces it only when it is gone. When the node was first
// seen missing lives in memory, as in kube: a restart starts the quarantine afresh. The terminated-pod threshold and
// unscheduled terminating pods are not collected here. As kube's, it records no events (its role may not write them).
import {
  ignoreNotFound,
  isConflict,
  isNotFound,
  type ReconcileContext,
  type ReconcileResult,
  type Request,
} from '@gardener-ts/controller-runtime';
import type { ControllerContext } from '../shared/context.js';
import { markDisruptionTarget } from '../shared/disruption-target.js';
import { NodeKind, PodKind } from '../shared/kinds.js';
import { OrphanQuarantineMs, orphanVerdict } from './orphans.js';

export class PodGCReconciler {
  /** When each missing node was first seen missing. */
  private readonly missingSince = new Map<string, number>();

  constructor(
    private readonly ctx: ControllerContext,
    private readonly quarantineMs = OrphanQuarantineMs,
  ) {}

  async reconcile(req: Request, { log }: ReconcileContext): Promise<ReconcileResult | void> {
    const pod = await this.ctx.client.get(PodKind, req).catch(ignoreNotFound);
    const nodeName = pod?.spec?.nodeName;
    if (!pod || !nodeName) return;
    const cached = await this.ctx.client.get(NodeKind, { name: nodeName }).catch(ignoreNotFound);
    const now = this.ctx.now();
    let verdict = orphanVerdict(
      nodeName,
      cached !== undefined,
      this.missingSince.get(nodeName),
      now,
      this.quarantineMs,
    );
    // The cache may lag behind a Node just created: the last word before deleting is the API server's.
    if (verdict.kind === 'delete') {
      const live = await this.ctx.api.get(NodeKind, { name: nodeName }).catch(ignoreNotFound);
      if (live) verdict = { kind: 'keep' };
    }
    if (verdict.kind === 'keep') {
      this.missingSince.delete(nodeName);
      return;
    }
    if (verdict.kind === 'wait') {
      this.missingSince.set(nodeName, verdict.since);
      return { requeueAfter: verdict.afterMs + 50 };
    }
    const key = `${req.namespace}/${req.name}`;
    log.info({ pod: key, node: nodeName }, 'Found orphaned Pod assigned to the Node, deleting');
    await markDisruptionTarget(this.ctx, pod, 'DeletionByPodGC', 'PodGC: node no longer exists', { fail: true });
    await this.ctx.client
      .delete(PodKind, req, { gracePeriodSeconds: 0, preconditions: { uid: pod.metadata?.uid } })
      .catch((err: unknown) => {
        if (!isNotFound(err) && !isConflict(err)) throw err;
      });
  }
}
