// The ReplicaSet reconciler: keep `spec.replicas` active pods that match the selector, and report on them.
import {
  ignoreNotFound,
  isNotFound,
  type ReconcileContext,
  type ReconcileResult,
  type Request,
} from '@gardener-ts/controller-runtime';
import type { ControllerContext } from '../shared/context.js';
import type { EventRecorder } from '../shared/events.js';
import type { Expectations } from '../shared/expectations.js';
import { type Pod, PodKind, type ReplicaSet, ReplicaSetKind } from '../shared/kinds.js';
import { claimObjects } from '../shared/owner.js';
import { podFromTemplate } from '../shared/pod-template.js';
import { isPodActive, msUntilAvailable, podKey } from '../shared/pods.js';
import { selectorMatcher } from '../shared/selectors.js';
import { slowStartBatch } from '../shared/slow-start.js';
import { podsToDelete } from './deletion-order.js';
import { writeStatus } from '../shared/status-writer.js';
import { replicaSetStatus, sameStatus } from './status.js';

/** At most this many pods are created or deleted per reconcile (kube's burstReplicas). */
const BURST_REPLICAS = 500;

export class ReplicaSetReconciler {
  constructor(
    private readonly ctx: ControllerContext,
    private readonly expectations: Expectations,
    private readonly events: EventRecorder,
  ) {}

  async reconcile(req: Request, { log }: ReconcileContext): Promise<ReconcileResult | void> {
    const key = `${req.namespace}/${req.name}`;
    const rs = await this.ctx.client.get(ReplicaSetKind, req).catch(ignoreNotFound);
    if (!rs) {
      this.expectations.forget(key);
      return;
    }
    const needsSync = this.expectations.satisfied(key);
    const inNamespace = (await this.ctx.client.list(PodKind, { namespace: req.namespace })).items.filter(isPodActive);
    const pods = await claimObjects(inNamespace, {
      client: this.ctx.client,
      kind: PodKind,
      owner: rs,
      ownerKind: ReplicaSetKind,
      selector: selectorMatcher(rs.spec?.selector),
      ownerIsCurrent: () => this.isCurrent(rs),
    });

    let manageError: unknown;
    if (needsSync && !rs.metadata?.deletionTimestamp) {
      manageError = await this.manageReplicas(key, rs, pods).then(
        () => undefined,
        (err: unknown) => err,
      );
    }

    const now = this.ctx.now();
    const status = replicaSetStatus(rs, pods, now);
    if (!sameStatus(rs.status, status)) {
      await writeStatus(this.ctx.client, rs, status);
      log.debug({ status }, 'Updated ReplicaSet status');
    }
    if (manageError) throw manageError;
    // Ready pods become available after minReadySeconds without any event: look again then.
    const waits = pods
      .map((p) => msUntilAvailable(p, rs.spec?.minReadySeconds ?? 0, now))
      .filter((ms): ms is number => ms !== undefined);
    return waits.length ? { requeueAfter: Math.min(...waits) + 50 } : undefined;
  }

  private async manageReplicas(key: string, rs: ReplicaSet, pods: Pod[]): Promise<void> {
    const diff = pods.length - (rs.spec?.replicas ?? 1);
    if (diff < 0) {
      const count = Math.min(-diff, BURST_REPLICAS);
      this.expectations.expect(key, count);
      const { succeeded, error } = await slowStartBatch(count, async () => {
        const pod = podFromTemplate(rs.spec?.template, rs, ReplicaSetKind, { generateName: `${rs.metadata!.name}-` });
        const created = await this.ctx.client.create(pod);
        this.events.event(rs, 'Normal', 'SuccessfulCreate', `Created pod: ${created.metadata?.name}`);
      });
      // Pods never created will never be observed.
      for (let i = succeeded; i < count; i++) this.expectations.creationObserved(key);
      if (error) {
        this.events.event(rs, 'Warning', 'FailedCreate', `Error creating: ${(error as Error).message}`);
        throw error;
      }
    } else if (diff > 0) {
      const victims = podsToDelete(pods, Math.min(diff, BURST_REPLICAS));
      this.expectations.expect(key, 0, victims.map(podKey));
      const results = await Promise.allSettled(
        victims.map(async (pod) => {
          try {
            await this.ctx.client.delete(PodKind, { namespace: pod.metadata?.namespace, name: pod.metadata!.name! });
            this.events.event(rs, 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.metadata?.name}`);
          } catch (err) {
            this.expectations.deletionObserved(key, podKey(pod));
            if (!isNotFound(err)) throw err;
          }
        }),
      );
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw failed.reason;
    }
  }

  /** The owner as the API server has it now: same uid and not being deleted. */
  private async isCurrent(rs: ReplicaSet): Promise<boolean> {
    const fresh = await this.ctx.api
      .get(ReplicaSetKind, { namespace: rs.metadata?.namespace, name: rs.metadata!.name! })
      .catch(ignoreNotFound);
    return !!fresh && fresh.metadata?.uid === rs.metadata?.uid && !fresh.metadata?.deletionTimestamp;
  }
}
