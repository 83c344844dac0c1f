// gardener-node-agent's Lease controller: renews Lease `gardener-node-agent-<node>` in the shoot's kube-system (holder
// the node, owned by the Node so it goes with it) — gardenlet reads it to tell whether node-agent is alive. Until the
// kubelet has registered the Node, there is nothing to renew.
import {
  Kinds,
  ignoreNotFound,
  isNotFound,
  microTime,
  type Client,
  type Lease,
  type ReconcileResult,
  type Request,
} from '@gardener-ts/controller-runtime';

/** The namespace of node-agent's Lease. */
export const LeaseNamespace = 'kube-system';
/** How long the Lease is valid without renewal, in seconds. */
export const LeaseDurationSeconds = 40;

/** The name of node-agent's Lease for a node. */
export function leaseName(nodeName: string): string {
  return `gardener-node-agent-${nodeName}`;
}

/** Renews node-agent's Lease. */
export class LeaseReconciler {
  constructor(
    private readonly deps: { client: Pick<Client, 'get' | 'create' | 'update'>; nodeName: string; now?: () => Date },
  ) {}

  async reconcile(req: Request): Promise<ReconcileResult | void> {
    const { client, nodeName } = this.deps;
    const node = await client.get(Kinds.Node, { namespace: '', name: nodeName }).catch(ignoreNotFound);
    if (!node) return;
    const renewTime = microTime((this.deps.now ?? (() => new Date()))());
    const spec = { holderIdentity: nodeName, leaseDurationSeconds: LeaseDurationSeconds, renewTime };
    const existing = await client.get(Kinds.Lease, req).catch(ignoreNotFound);
    if (existing) {
      // An update, as Gardener's: node-agent's Role in kube-system grants leases get/list/watch/create/update only.
      await client.update({ ...existing, spec: { ...existing.spec, ...spec } });
      return;
    }
    const lease: Lease = {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: {
        name: req.name,
        namespace: req.namespace,
        ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: nodeName, uid: node.metadata!.uid! }],
      },
      spec: { ...spec, acquireTime: renewTime },
    };
    await client.create(lease).catch((err: unknown) => {
      if (!isNotFound(err)) throw err;
    });
  }
}
