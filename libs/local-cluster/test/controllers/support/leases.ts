// Node Leases as a kubelet renews them, for tests that play the kubelet's heartbeat.
import { isNotFound, type ApiClient } from '@gardener-ts/controller-runtime';
import { type Lease, LeaseKind } from '../../../src/controllers/shared/kinds.js';

/** A metav1.MicroTime (microsecond precision) for `ms`. */
export const microTime = (ms = Date.now()): string => new Date(ms).toISOString().replace(/Z$/, '000Z');

/** Creates or renews the node's Lease in kube-node-lease, renewTime now. */
export async function renewLease(api: ApiClient, name: string): Promise<void> {
  const key = { namespace: 'kube-node-lease', name };
  const current = await api.get(LeaseKind, key).catch((err: unknown) => {
    if (isNotFound(err)) return undefined;
    throw err;
  });
  const spec = { holderIdentity: name, leaseDurationSeconds: 40, renewTime: microTime() };
  if (current) await api.update<Lease>({ ...current, spec: { ...current.spec, ...spec } });
  else await api.create<Lease>({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: key, spec });
}
