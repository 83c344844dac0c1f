// The node-agent reconciliation delay controller: whenever the set of Nodes of the target cluster changes, writes
// every Node's `node-agent.gardener.cloud/reconciliation-delay` annotation (spread between minDelay and maxDelay).
import {
  kind,
  type Client,
  type KubernetesObject,
  type ReconcileContext,
  type ReconcileResult,
  type Request,
} from '@gardener-ts/controller-runtime';
import { AnnotationNodeAgentReconciliationDelay, reconciliationDelays } from './delay.js';

export const NodeKind = kind<KubernetesObject>('v1', 'Node');

export interface NodeAgentReconciliationDelayOptions {
  /** Lists (cache) and patches the Nodes of the target cluster. */
  target: Client;
  minDelayMs: number;
  maxDelayMs: number;
}

export class NodeAgentReconciliationDelay {
  /** The node names of the last successful reconciliation: nothing to do while they stay the same. */
  private knownNodeNames?: Set<string>;

  constructor(private readonly o: NodeAgentReconciliationDelayOptions) {}

  async reconcile(_req: Request, ctx: ReconcileContext): Promise<ReconcileResult | void> {
    const nodes = await this.o.target.list(NodeKind).catch((err) => {
      throw new Error(`failed listing nodes from store: ${(err as Error).message}`);
    });
    const names = new Set(nodes.items.map((n) => n.metadata?.name ?? ''));
    if (this.knownNodeNames && sameSet(names, this.knownNodeNames)) return;

    const delays = reconciliationDelays([...names], this.o.minDelayMs, this.o.maxDelayMs);
    await Promise.all(
      nodes.items.map(async (node) => {
        const name = node.metadata?.name ?? '';
        const delay = delays.get(name)!;
        ctx.log.debug({ nodeName: name, delay }, 'Computed reconciliation delay');
        // Always sent (not skipped when the cached node already shows the value): the cache may still hold the value
        // of an earlier spread that the previous reconciliation has just overwritten.
        await this.o.target.patch(
          NodeKind,
          { name },
          { type: 'merge', patch: { metadata: { annotations: { [AnnotationNodeAgentReconciliationDelay]: delay } } } },
        );
      }),
    );
    this.knownNodeNames = names;
  }
}

function sameSet(a: Set<string>, b: Set<string>): boolean {
  return a.size === b.size && [...a].every((x) => b.has(x));
}
