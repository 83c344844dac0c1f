// When a node's critical components are ready: every node-critical DaemonSet that should run on the node has a pod
// there, every node-critical pod on the node is Ready, and every CSI driver those pods wait for is registered in the
// node's CSINode. Each failed check says why (as the Warning event Gardener records on the Node).
import { nodeShouldRunDaemonPod, type DaemonSetLike, type NodeLike } from './daemon.js';

export const TaintCriticalComponentsNotReady = 'node.gardener.cloud/critical-components-not-ready';
export const LabelCriticalComponent = 'node.gardener.cloud/critical-component';
export const AnnotationPrefixWaitForCSINode = 'node.gardener.cloud/wait-for-csi-node-';

export interface PodLike {
  metadata?: {
    namespace?: string;
    name?: string;
    annotations?: Record<string, string>;
    ownerReferences?: Array<{ apiVersion?: string; kind?: string; uid?: string; controller?: boolean }>;
  };
  status?: { conditions?: Array<{ type?: string; status?: string }> };
}

export interface Finding {
  reason: string;
  message: string;
}

export function hasCriticalComponentsTaint(node: NodeLike | undefined): boolean {
  return (node?.spec?.taints ?? []).some((t) => t.key === TaintCriticalComponentsNotReady);
}

const key = (o: { metadata?: { namespace?: string; name?: string } }) =>
  `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;

export function unscheduledDaemonSets(node: NodeLike, daemonSets: DaemonSetLike[], pods: PodLike[]): string[] {
  const scheduled = new Set<string>();
  for (const pod of pods) {
    const owner = (pod.metadata?.ownerReferences ?? []).find((r) => r.controller);
    if (owner && owner.kind === 'DaemonSet' && /^apps\//.test(owner.apiVersion ?? '') && owner.uid)
      scheduled.add(owner.uid);
  }
  return daemonSets
    .filter((ds) => ds.spec?.template?.metadata?.labels?.[LabelCriticalComponent] === 'true')
    .filter((ds) => nodeShouldRunDaemonPod(node, ds) && !scheduled.has(ds.metadata?.uid ?? ''))
    .map(key);
}

export const isPodReady = (pod: PodLike) =>
  (pod.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');

export function requiredDrivers(pods: PodLike[]): Set<string> {
  const drivers = new Set<string>();
  for (const pod of pods) {
    for (const [k, v] of Object.entries(pod.metadata?.annotations ?? {}))
      if (k.startsWith(AnnotationPrefixWaitForCSINode)) drivers.add(v);
  }
  return drivers;
}

/** Why the taint must stay (empty: remove it). `existingDrivers` is read only if some pod waits for a driver. */
export async function criticalComponentsFindings(
  node: NodeLike,
  daemonSets: DaemonSetLike[],
  pods: PodLike[],
  existingDrivers: () => Promise<Set<string>>,
): Promise<Finding[]> {
  const unscheduled = unscheduledDaemonSets(node, daemonSets, pods);
  if (unscheduled.length > 0) {
    return [
      {
        reason: 'UnscheduledNodeCriticalDaemonSets',
        message: `Node-critical DaemonSets found that were not scheduled to Node yet: ${unscheduled.join(', ')}`,
      },
    ];
  }
  const unready = pods.filter((p) => !isPodReady(p)).map(key);
  if (unready.length > 0)
    return [
      { reason: 'UnreadyNodeCriticalPods', message: `Unready node-critical Pods found on Node: ${unready.join(', ')}` },
    ];
  const required = requiredDrivers(pods);
  if (required.size === 0) return [];
  const existing = await existingDrivers();
  const missing = [...required].filter((d) => !existing.has(d)).sort();
  return missing.length > 0
    ? [
        {
          reason: 'UnreadyRequiredCSIDrivers',
          message: `Unready required CSI drivers for Node: [${missing.join(' ')}]`,
        },
      ]
    : [];
}

/** The taints without this controller's taint. */
export function withoutCriticalComponentsTaint<T extends { key?: string }>(taints: T[] | undefined): T[] {
  return (taints ?? []).filter((t) => t.key !== TaintCriticalComponentsNotReady);
}
