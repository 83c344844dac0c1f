// Where a DaemonSet's pods belong: nodes its template selects and whose taints it tolerates, counting the
// tolerations kube adds to every daemon pod; and how a daemon pod is pinned to its node.
import type * as k8s from '@kubernetes/client-node';
import type { DaemonSet, Node, Pod, PodSpec, Toleration } from '../shared/kinds.js';
import { matchesNodeSelectorAndAffinity } from '../scheduler/node-affinity.js';
import { untoleratedTaint } from '../scheduler/taints.js';

/** The tolerations kube adds to daemon pods, so node trouble and cordons do not evict or block them. */
export function daemonTolerations(spec: PodSpec | undefined): Toleration[] {
  const tolerations: Toleration[] = [
    { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
    { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
    { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
  ];
  if (spec?.hostNetwork)
    tolerations.push({ key: 'node.kubernetes.io/network-unavailable', operator: 'Exists', effect: 'NoSchedule' });
  const own = spec?.tolerations ?? [];
  return [...own, ...tolerations.filter((t) => !own.some((o) => o.key === t.key && o.effect === t.effect))];
}

export function shouldRunOn(ds: DaemonSet, node: Node): boolean {
  const spec = ds.spec?.template.spec;
  const pod: Pod = { spec: { containers: [], ...spec, tolerations: daemonTolerations(spec) } };
  return matchesNodeSelectorAndAffinity(pod, node) && !untoleratedTaint(node, pod.spec!.tolerations);
}

/**
 * Pins a pod spec to one node with required node affinity on `metadata.name`, replacing any such field term, so
 * the scheduler places it there (and still checks resources and taints).
 */
export function pinToNode(spec: PodSpec, nodeName: string): void {
  const nameTerm: k8s.V1NodeSelectorRequirement = { key: 'metadata.name', operator: 'In', values: [nodeName] };
  const affinity = (spec.affinity ??= {});
  const nodeAffinity = (affinity.nodeAffinity ??= {});
  const required = nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution;
  const terms = required?.nodeSelectorTerms?.length ? required.nodeSelectorTerms : [{}];
  nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution = {
    nodeSelectorTerms: terms.map((t) => ({ ...t, matchFields: [nameTerm] })),
  };
  spec.tolerations = daemonTolerations(spec);
}

/** The node a daemon pod runs on, or is pinned to while unscheduled. */
export function nodeOf(pod: Pod): string | undefined {
  if (pod.spec?.nodeName) return pod.spec.nodeName;
  for (const term of pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution
    ?.nodeSelectorTerms ?? []) {
    const field = term.matchFields?.find(
      (f) => f.key === 'metadata.name' && f.operator === 'In' && f.values?.length === 1,
    );
    if (field) return field.values![0];
  }
  return undefined;
}
