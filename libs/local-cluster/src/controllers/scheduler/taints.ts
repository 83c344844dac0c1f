// Taints and tolerations (kube's TaintToleration filter), including the taints a node's conditions imply.
import type { Node, Taint, Toleration } from '../shared/kinds.js';

export const TAINT_NOT_READY = 'node.kubernetes.io/not-ready';
export const TAINT_UNREACHABLE = 'node.kubernetes.io/unreachable';
export const TAINT_UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';

export function tolerates(toleration: Toleration, taint: Taint): boolean {
  if (toleration.effect && toleration.effect !== taint.effect) return false;
  if (toleration.operator === 'Exists') return !toleration.key || toleration.key === taint.key;
  return toleration.key === taint.key && (toleration.value ?? '') === (taint.value ?? '');
}

export function toleratesAll(tolerations: Toleration[] | undefined, taint: Taint): boolean {
  return (tolerations ?? []).some((t) => tolerates(t, taint));
}

/**
 * The node's scheduling taints: its own NoSchedule/NoExecute taints, plus not-ready/unreachable ones for a node
 * whose Ready condition says so (the node lifecycle controller adds those too; a node it has not tainted yet must
 * not get pods either).
 */
export function schedulingTaints(node: Node): Taint[] {
  const taints = (node.spec?.taints ?? []).filter((t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute');
  const ready = node.status?.conditions?.find((c) => c.type === 'Ready')?.status;
  const implied = ready === 'True' ? undefined : ready === 'False' ? TAINT_NOT_READY : TAINT_UNREACHABLE;
  if (implied && !taints.some((t) => t.key === implied)) taints.push({ key: implied, effect: 'NoSchedule' });
  return taints;
}

/** The first scheduling taint the pod does not tolerate. */
export function untoleratedTaint(node: Node, tolerations: Toleration[] | undefined): Taint | undefined {
  return schedulingTaints(node).find((t) => !toleratesAll(tolerations, t));
}
