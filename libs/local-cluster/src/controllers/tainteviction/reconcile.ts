// The taint eviction controller (kube's taint-eviction-controller): a pod bound to a node with NoExecute taints it
// does not tolerate is deleted at once; one tolerating them for `tolerationSeconds` is deleted when that runs out
// (counted from when this controller first saw it so), unless the taints or its binding go first; one tolerating
// them forever stays. Pending evictions live in memory, as kube's timed queue does: a restart starts them afresh.
import {
  ignoreNotFound,
  isConflict,
  isNotFound,
  type ReconcileContext,
  type ReconcileResult,
  type Request,
} from '@gardener-ts/controller-runtime';
import type { ControllerContext } from '../shared/context.js';
import type { EventRecorder } from '../shared/events.js';
import { NodeKind, PodKind } from '../shared/kinds.js';
import { rfc3339 } from '../shared/time.js';
import { markDisruptionTarget } from '../shared/disruption-target.js';
import { noExecuteTaints, schedule, type ScheduledEviction, verdict } from './eviction.js';

/** Past the computed instant, so the timer never fires a hair early. */
const REQUEUE_SLACK_MS = 50;
const REASON = 'TaintManagerEviction';

export class TaintEvictionReconciler {
  /** Evictions waiting for their time, by namespace/name. */
  private readonly pending = new Map<string, ScheduledEviction>();
  /** Pods deleted already (uid by namespace/name): the cache may show them undeleted a moment longer. */
  private readonly evicted = new Map<string, string>();

  constructor(
    private readonly ctx: ControllerContext,
    private readonly events: EventRecorder,
  ) {}

  async reconcile(req: Request, { log }: ReconcileContext): Promise<ReconcileResult | void> {
    const key = `${req.namespace}/${req.name}`;
    const pod = await this.ctx.client.get(PodKind, { namespace: req.namespace, name: req.name }).catch(ignoreNotFound);
    // Gone or already going: nothing left to evict, and no one to tell about a cancelled countdown.
    if (!pod || pod.metadata?.deletionTimestamp) {
      this.pending.delete(key);
      if (!pod) this.evicted.delete(key);
      return;
    }
    if (this.evicted.get(key) === pod.metadata?.uid) return;
    this.evicted.delete(key);
    const nodeName = pod.spec?.nodeName;
    const node = nodeName ? await this.ctx.client.get(NodeKind, { name: nodeName }).catch(ignoreNotFound) : undefined;
    const now = this.ctx.now();
    const previous = this.pending.get(key);
    // The API server's DefaultTolerationSeconds plugin has given the pod its 300 s not-ready/unreachable tolerations.
    const next = schedule(verdict(noExecuteTaints(node?.spec?.taints), pod.spec?.tolerations), previous, now);

    if (previous && next !== previous) {
      this.pending.delete(key);
      this.events.event(pod, 'Normal', REASON, `Cancelling deletion of Pod ${key}`);
    }
    if (!next) return;
    if (next.fireAt > now) {
      if (next !== previous) {
        log.info(
          { pod: key, node: nodeName, at: rfc3339(next.fireAt) },
          'Pod tolerates the NoExecute taints of its node for a while; eviction scheduled',
        );
      }
      this.pending.set(key, next);
      return { requeueAfter: next.fireAt - now + REQUEUE_SLACK_MS };
    }

    log.info({ pod: key, node: nodeName }, 'Deleting pod: NoExecute taint');
    this.events.event(pod, 'Normal', REASON, `Marking for deletion Pod ${key}`);
    await markDisruptionTarget(
      this.ctx,
      pod,
      'DeletionByTaintManager',
      'Taint manager: deleting due to NoExecute taint',
    );
    await this.ctx.client
      .delete(PodKind, { namespace: req.namespace, name: req.name }, { preconditions: { uid: pod.metadata?.uid } })
      .catch((err: unknown) => {
        // Not found: deleted meanwhile. Conflict: the name belongs to a new pod now, whose own event decides.
        if (!isNotFound(err) && !isConflict(err)) throw err;
      });
    this.pending.delete(key);
    this.evicted.set(key, pod.metadata?.uid ?? '');
  }
}
