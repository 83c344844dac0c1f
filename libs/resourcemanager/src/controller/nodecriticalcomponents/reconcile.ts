// The node critical components controller: removes the `critical-components-not-ready` taint from a Node of the
// target cluster once its node-critical components (kube-system) are scheduled and ready; checks again after the
// backoff otherwise.
import {
  isNotFound,
  kind,
  type ApiClient,
  type EventRecorder,
  type KubernetesObject,
  type ReconcileContext,
  type ReconcileResult,
  type Request,
} from '@gardener-ts/controller-runtime';
import type { DaemonSetLike, NodeLike } from './daemon.js';
import {
  criticalComponentsFindings,
  hasCriticalComponentsTaint,
  LabelCriticalComponent,
  withoutCriticalComponentsTaint,
  type PodLike,
} from './rules.js';

export const NodeKind = kind<KubernetesObject & NodeLike>('v1', 'Node');
const DaemonSetKind = kind<KubernetesObject & DaemonSetLike>('apps/v1', 'DaemonSet');
const PodKind = kind<KubernetesObject & PodLike & { spec?: { nodeName?: string } }>('v1', 'Pod');
const CSINodeKind = kind<KubernetesObject & { spec?: { drivers?: Array<{ name?: string }> } }>(
  'storage.k8s.io/v1',
  'CSINode',
);

export interface NodeCriticalComponentsOptions {
  target: ApiClient;
  recorder: EventRecorder;
  backoffMs: number;
}

const notFoundAsUndefined = (err: unknown) => {
  if (isNotFound(err)) return undefined;
  throw err;
};

export class NodeCriticalComponents {
  constructor(private readonly o: NodeCriticalComponentsOptions) {}

  async reconcile(req: Request, ctx: ReconcileContext): Promise<ReconcileResult | void> {
    const node = await this.o.target.get(NodeKind, { name: req.name }).catch(notFoundAsUndefined);
    // Someone else may have removed the taint while the node waited in the queue.
    if (!node || !hasCriticalComponentsTaint(node)) return;

    const selector = { namespace: 'kube-system', labelSelector: `${LabelCriticalComponent}=true` };
    const daemonSets = await this.o.target.list(DaemonSetKind, selector).catch((err) => {
      throw new Error(`failed listing node-critical DaemonSets on node: ${(err as Error).message}`);
    });
    const pods = await this.o.target.list(PodKind, selector).catch((err) => {
      throw new Error(`failed listing node-critical Pods on node: ${(err as Error).message}`);
    });
    const onNode = pods.items.filter((p) => p.spec?.nodeName === req.name);
    const findings = await criticalComponentsFindings(node, daemonSets.items, onNode, async () => {
      const csiNode = await this.o.target.get(CSINodeKind, { name: req.name }).catch(notFoundAsUndefined);
      return new Set((csiNode?.spec?.drivers ?? []).map((d) => d.name ?? ''));
    });
    if (findings.length > 0) {
      for (const f of findings) {
        ctx.log.info({ reason: f.reason }, f.message);
        this.o.recorder.event(node, 'Warning', f.reason, f.message);
      }
      return { requeueAfter: this.o.backoffMs };
    }

    ctx.log.info('All node-critical components got ready, removing taint');
    this.o.recorder.event(
      node,
      'Normal',
      'NodeCriticalComponentsReady',
      'All node-critical components got ready, removing taint',
    );
    // Optimistic lock: fails (and retries) if the Node changed since it was read.
    await this.o.target.patch(
      NodeKind,
      { name: req.name },
      {
        type: 'merge',
        patch: {
          metadata: { resourceVersion: node.metadata?.resourceVersion },
          spec: { taints: withoutCriticalComponentsTaint(node.spec?.taints) },
        },
      },
    );
  }
}
