// Registers the Node, keeps its status current and renews its Lease in kube-node-lease, as the kubelet's node
// status and lease controllers do. The Lease is what tells the control plane the node is alive.
import type * as k8s from '@kubernetes/client-node';
import type { Logger } from '@gardener-ts/logging';
import { isConflict, isNotFound, MERGE_PATCH, type KubeClients } from '../api/kube-client.js';
import { pressure } from './machine.js';
import { NodeStatusBuilder, nodeObject, type NodeFacts } from './node-object.js';

export const NODE_LEASE_NAMESPACE = 'kube-node-lease';
const LEASE_DURATION_SECONDS = 40;

export interface NodeAgentOptions {
  leaseRenewMs: number;
  /** How often the status is computed; it is written when it changed, or every `statusReportMs` anyway. */
  statusUpdateMs: number;
  statusReportMs: number;
}

export class NodeAgent {
  private readonly statusBuilder = new NodeStatusBuilder();
  private readonly timers: NodeJS.Timeout[] = [];
  private nodeUid?: string;
  private lastStatus?: string;
  private lastReport = 0;

  constructor(
    private readonly clients: KubeClients,
    private readonly facts: NodeFacts,
    private readonly dataDir: string,
    private readonly options: NodeAgentOptions,
    private readonly log: Logger,
  ) {}

  async start(): Promise<void> {
    await this.register();
    await this.updateStatus();
    await this.renewLease();
    this.every(this.options.statusUpdateMs, () => this.updateStatus());
    this.every(this.options.leaseRenewMs, () => this.renewLease());
  }

  stop(): void {
    for (const t of this.timers) clearTimeout(t);
  }

  private every(ms: number, fn: () => Promise<void>): void {
    const run = () => {
      const timer = setTimeout(() => {
        fn()
          .catch((err) => this.log.error({ err }, 'Node heartbeat failed'))
          .finally(() => {
            this.timers.splice(this.timers.indexOf(timer), 1);
            run();
          });
      }, ms);
      this.timers.push(timer);
    };
    run();
  }

  private async register(): Promise<void> {
    const { core } = this.clients;
    const name = this.facts.nodeName;
    try {
      const node = await core.createNode({ body: nodeObject(this.facts) as k8s.V1Node });
      this.nodeUid = node.metadata?.uid;
      this.log.info({ node: name }, 'Node registered');
    } catch (err) {
      if (!isConflict(err)) throw err;
      // Registered before (a kubelet restart): keep the object, refresh the labels this kubelet owns.
      const node = await core.patchNode({ name, body: { metadata: { labels: this.facts.labels } } }, MERGE_PATCH);
      this.nodeUid = node.metadata?.uid;
      this.log.info({ node: name }, 'Node already registered');
    }
  }

  private async updateStatus(): Promise<void> {
    const status = this.statusBuilder.build(this.facts, await pressure(this.dataDir));
    // Heartbeat times change on every write; what matters for "changed" is everything else.
    const text = JSON.stringify(status, (k, v) => (k === 'lastHeartbeatTime' ? undefined : v));
    if (
      text === this.lastStatus &&
      Date.now() - this.lastReport < this.options.statusReportMs &&
      !(await this.readyOverwritten(status as { conditions?: { type: string; status: string }[] }))
    )
      return;
    await this.clients.core.patchNodeStatus({ name: this.facts.nodeName, body: { status } }, MERGE_PATCH);
    this.lastStatus = text;
    this.lastReport = Date.now();
  }

  // The node lifecycle controller marks a silent node Unknown; once heard again, the kubelet must say Ready at once
  // rather than at its next periodic report.
  private async readyOverwritten(status: { conditions?: { type: string; status: string }[] }): Promise<boolean> {
    const node = await this.clients.core.readNode({ name: this.facts.nodeName });
    const ready = (list?: { type: string; status: string }[]) => list?.find((c) => c.type === 'Ready')?.status;
    return ready(node.status?.conditions) !== ready(status.conditions);
  }

  private async renewLease(): Promise<void> {
    const { coordination } = this.clients;
    const name = this.facts.nodeName;
    const renewTime = new Date();
    try {
      const lease = await coordination.readNamespacedLease({ name, namespace: NODE_LEASE_NAMESPACE });
      lease.spec = { ...lease.spec, holderIdentity: name, leaseDurationSeconds: LEASE_DURATION_SECONDS, renewTime };
      await coordination.replaceNamespacedLease({ name, namespace: NODE_LEASE_NAMESPACE, body: lease });
    } catch (err) {
      if (!isNotFound(err)) throw err;
      await coordination.createNamespacedLease({
        namespace: NODE_LEASE_NAMESPACE,
        body: {
          metadata: {
            name,
            namespace: NODE_LEASE_NAMESPACE,
            ownerReferences: this.nodeUid ? [{ apiVersion: 'v1', kind: 'Node', name, uid: this.nodeUid }] : undefined,
          },
          spec: { holderIdentity: name, leaseDurationSeconds: LEASE_DURATION_SECONDS, renewTime },
        },
      });
    }
  }
}
