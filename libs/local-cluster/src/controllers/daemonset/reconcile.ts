// The DaemonSet reconciler: one plan step over the nodes and their daemon pods, then status and revision history.
import { ignoreNotFound, isNotFound, type ReconcileResult, type Request } from '@gardener-ts/controller-runtime';
import type { ControllerContext } from '../shared/context.js';
import {
  byRevision,
  REVISION_HASH_LABEL,
  syncUpdateRevision,
  truncateRevisionHistory,
} from '../shared/controller-revisions.js';
import type { EventRecorder } from '../shared/events.js';
import type { Expectations } from '../shared/expectations.js';
import { canonicalJson } from '../shared/hash.js';
import { scaledValue } from '../shared/intstr.js';
import { type DaemonSet, DaemonSetKind, ControllerRevisionKind, NodeKind, type Pod, PodKind } from '../shared/kinds.js';
import { claimObjects } from '../shared/owner.js';
import { podFromTemplate } from '../shared/pod-template.js';
import { msUntilAvailable, podKey } from '../shared/pods.js';
import { selectorMatcher } from '../shared/selectors.js';
import { writeStatus } from '../shared/status-writer.js';
import { nodeOf, pinToNode, shouldRunOn } from './placement.js';
import { DAEMON_REVISION_LABEL, type NodePlacement, planDaemonSet } from './plan.js';
import { daemonSetStatus } from './status.js';

export class DaemonSetReconciler {
  constructor(
    private readonly ctx: ControllerContext,
    private readonly expectations: Expectations,
    private readonly events: EventRecorder,
  ) {}

  async reconcile(req: Request): Promise<ReconcileResult | void> {
    const key = `${req.namespace}/${req.name}`;
    const ds = await this.ctx.client.get(DaemonSetKind, req).catch(ignoreNotFound);
    if (!ds) {
      this.expectations.forget(key);
      return;
    }
    const claiming = {
      client: this.ctx.client,
      owner: ds,
      ownerKind: DaemonSetKind,
      selector: selectorMatcher(ds.spec?.selector),
      ownerIsCurrent: async () => {
        const fresh = await this.ctx.api.get(DaemonSetKind, req).catch(ignoreNotFound);
        return fresh?.metadata?.uid === ds.metadata?.uid && !fresh?.metadata?.deletionTimestamp;
      },
    };
    const inNamespace = { namespace: req.namespace };
    const pods = await claimObjects((await this.ctx.client.list(PodKind, inNamespace)).items, {
      ...claiming,
      kind: PodKind,
    });
    const revisions = (
      await claimObjects((await this.ctx.client.list(ControllerRevisionKind, inNamespace)).items, {
        ...claiming,
        kind: ControllerRevisionKind,
      })
    ).sort(byRevision);
    const update = await syncUpdateRevision(this.ctx, ds, DaemonSetKind, revisions);
    const hash = update.metadata!.labels![REVISION_HASH_LABEL];
    const placements = this.placements(
      ds,
      (await this.ctx.client.list(NodeKind)).items.map((n) => ({
        name: n.metadata!.name!,
        shouldRun: shouldRunOn(ds, n),
      })),
      pods,
    );
    const now = this.ctx.now();

    if (this.expectations.satisfied(key) && !ds.metadata?.deletionTimestamp) {
      const strategy = ds.spec?.updateStrategy;
      const desired = placements.filter((p) => p.shouldRun).length;
      const plan = planDaemonSet({
        nodes: placements,
        updateHash: hash,
        maxUnavailable:
          strategy?.type === 'OnDelete'
            ? undefined
            : Math.max(1, scaledValue(strategy?.rollingUpdate?.maxUnavailable, desired, true, 1)),
        minReadySeconds: ds.spec?.minReadySeconds ?? 0,
        now,
      });
      await this.apply(key, ds, hash, plan.create, plan.delete);
    }

    const status = daemonSetStatus(ds, placements, hash, now);
    if (canonicalJson(status) !== canonicalJson(ds.status ?? {})) await writeStatus(this.ctx.client, ds, status);
    const hashes = new Set([hash, ...pods.map((p) => p.metadata?.labels?.[DAEMON_REVISION_LABEL])]);
    await truncateRevisionHistory(
      this.ctx,
      revisions,
      (r) => hashes.has(r.metadata?.labels?.[REVISION_HASH_LABEL]),
      ds.spec?.revisionHistoryLimit,
    );
    const waits = pods
      .map((p) => msUntilAvailable(p, ds.spec?.minReadySeconds ?? 0, now))
      .filter((ms): ms is number => ms !== undefined);
    return waits.length ? { requeueAfter: Math.min(...waits) + 50 } : undefined;
  }

  /** Every node with its daemon pods; pods pinned to nodes that no longer exist are placed where they must go. */
  private placements(ds: DaemonSet, nodes: { name: string; shouldRun: boolean }[], pods: Pod[]): NodePlacement[] {
    const byNode = new Map<string, Pod[]>();
    for (const pod of pods) {
      const node = nodeOf(pod);
      if (node) byNode.set(node, [...(byNode.get(node) ?? []), pod]);
    }
    const known = new Set(nodes.map((n) => n.name));
    const gone = [...byNode.keys()].filter((n) => !known.has(n)).map((name) => ({ name, shouldRun: false }));
    return [...nodes, ...gone].map((n) => ({ node: n.name, shouldRun: n.shouldRun, pods: byNode.get(n.name) ?? [] }));
  }

  private async apply(key: string, ds: DaemonSet, hash: string, create: string[], remove: Pod[]): Promise<void> {
    this.expectations.expect(key, create.length, remove.map(podKey));
    const results = await Promise.allSettled([
      ...create.map(async (node) => {
        const pod = podFromTemplate(ds.spec?.template, ds, DaemonSetKind, { generateName: `${ds.metadata!.name}-` });
        pod.metadata!.labels = {
          ...pod.metadata!.labels,
          [DAEMON_REVISION_LABEL]: hash,
          'pod-template-generation': String(ds.metadata?.generation ?? 1),
        };
        pinToNode(pod.spec!, node);
        try {
          await this.ctx.client.create(pod);
        } catch (err) {
          this.expectations.creationObserved(key);
          this.events.event(ds, 'Warning', 'FailedCreate', `Error creating: ${(err as Error).message}`);
          throw err;
        }
      }),
      ...remove.map(async (pod) => {
        try {
          await this.ctx.client.delete(PodKind, { namespace: pod.metadata?.namespace, name: pod.metadata!.name! });
          this.events.event(ds, 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.metadata?.name}`);
        } catch (err) {
          this.expectations.deletionObserved(key, podKey(pod));
          if (!isNotFound(err)) throw err;
        }
      }),
    ]);
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }
}
