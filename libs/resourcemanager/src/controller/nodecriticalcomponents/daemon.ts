// Whether a DaemonSet should run a pod on a node, by the DaemonSet controller's rules: the template's node name,
// node selector and required node affinity must match, and every NoSchedule/NoExecute taint must be tolerated (with
// the tolerations the DaemonSet controller adds to every daemon pod). Node selector terms are matched by
// @gardener-ts/api (kube's node affinity).
import { nodeSelectorTermMatches } from '@gardener-ts/api';

export interface Taint {
  key?: string;
  value?: string;
  effect?: string;
}
export interface Toleration {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
}
interface Requirement {
  key?: string;
  operator?: string;
  values?: string[];
}
interface Term {
  matchExpressions?: Requirement[];
  matchFields?: Requirement[];
}
export interface PodTemplateSpec {
  nodeName?: string;
  nodeSelector?: Record<string, string>;
  hostNetwork?: boolean;
  tolerations?: Toleration[];
  affinity?: { nodeAffinity?: { requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms?: Term[] } } };
}
export interface NodeLike {
  metadata?: { name?: string; labels?: Record<string, string> };
  spec?: { taints?: Taint[] };
}
export interface DaemonSetLike {
  metadata?: { namespace?: string; name?: string; uid?: string; labels?: Record<string, string> };
  spec?: { template?: { metadata?: { labels?: Record<string, string> }; spec?: PodTemplateSpec } };
}

/** The tolerations every daemon pod gets (DaemonSet controller's AddOrUpdateDaemonPodTolerations). */
function daemonTolerations(spec: PodTemplateSpec): Toleration[] {
  const exists = (key: string, effect: string): Toleration => ({ key, operator: 'Exists', effect });
  return [
    exists('node.kubernetes.io/not-ready', 'NoExecute'),
    exists('node.kubernetes.io/unreachable', 'NoExecute'),
    exists('node.kubernetes.io/disk-pressure', 'NoSchedule'),
    exists('node.kubernetes.io/memory-pressure', 'NoSchedule'),
    exists('node.kubernetes.io/pid-pressure', 'NoSchedule'),
    exists('node.kubernetes.io/unschedulable', 'NoSchedule'),
    ...(spec.hostNetwork ? [exists('node.kubernetes.io/network-unavailable', 'NoSchedule')] : []),
  ];
}

export function tolerates(t: Toleration, taint: Taint): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.key && t.key !== taint.key) return false;
  if (t.operator === 'Exists') return true;
  return (t.operator ?? 'Equal') === 'Equal' && (t.value ?? '') === (taint.value ?? '');
}

function termMatches(term: Term, node: NodeLike): boolean {
  return nodeSelectorTermMatches(term, node.metadata?.labels, { 'metadata.name': node.metadata?.name ?? '' });
}

export function nodeShouldRunDaemonPod(node: NodeLike, ds: DaemonSetLike): boolean {
  const spec = ds.spec?.template?.spec ?? {};
  if (spec.nodeName && spec.nodeName !== node.metadata?.name) return false;
  const labels = node.metadata?.labels ?? {};
  if (!Object.entries(spec.nodeSelector ?? {}).every(([k, v]) => labels[k] === v)) return false;
  const terms = spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  if (terms && !terms.some((t) => termMatches(t, node))) return false;
  const tolerations = [...(spec.tolerations ?? []), ...daemonTolerations(spec)];
  return (node.spec?.taints ?? [])
    .filter((t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute')
    .every((taint) => tolerations.some((t) => tolerates(t, taint)));
}
