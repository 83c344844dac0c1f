// Nodes as a kubelet registers them and posts their status, for tests that play the kubelet.
import type { ApiClient } from '@gardener-ts/controller-runtime';
import { type Node, NodeKind, type Taint } from '../../../src/controllers/shared/kinds.js';
import { renewLease } from './leases.js';

const rfc3339 = (ms = Date.now()) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

const KUBELET_CONDITIONS: Record<string, [string, string]> = {
  MemoryPressure: ['False', 'KubeletHasSufficientMemory'],
  DiskPressure: ['False', 'KubeletHasNoDiskPressure'],
  PIDPressure: ['False', 'KubeletHasSufficientPID'],
};

/** Posts the node's status as the kubelet does: the three pressure conditions False and Ready as given, heartbeat now. */
export async function postNodeStatus(api: ApiClient, name: string, ready: 'True' | 'False'): Promise<Node> {
  const node = await api.get(NodeKind, { name });
  const at = rfc3339();
  const previous = new Map((node.status?.conditions ?? []).map((c) => [c.type, c]));
  const condition = (type: string, status: string, reason: string) => ({
    type,
    status,
    reason,
    message: `${type} is ${status}`,
    lastHeartbeatTime: at,
    lastTransitionTime: previous.get(type)?.status === status ? previous.get(type)!.lastTransitionTime : at,
  });
  const conditions = [
    ...Object.entries(KUBELET_CONDITIONS).map(([type, [status, reason]]) => condition(type, status, reason)),
    condition('Ready', ready, ready === 'True' ? 'KubeletReady' : 'KubeletNotReady'),
  ];
  const allocatable = { cpu: '4', memory: '8Gi', pods: '110' };
  return api.updateStatus({ ...node, status: { ...node.status, allocatable, capacity: allocatable, conditions } });
}

/** Creates the Node with its taints, posts a status with Ready as given and creates its Lease. */
export async function registerNode(
  api: ApiClient,
  name: string,
  ready: 'True' | 'False',
  taints: Taint[] = [],
): Promise<Node> {
  await api.create<Node>({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name } },
    spec: { taints },
  });
  const node = await postNodeStatus(api, name, ready);
  await renewLease(api, name);
  return node;
}
