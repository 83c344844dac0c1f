// kube's DefaultTolerationSeconds admission plugin (enabled by default): a Pod written (CREATE or UPDATE, not a
// subresource) gets a toleration of 300 s for each of the `node.kubernetes.io/not-ready` and
// `node.kubernetes.io/unreachable` NoExecute taints it does not tolerate yet. A toleration counts when its key is that
// taint's or empty and its effect is NoExecute or empty (operator and value are not looked at), as in kube.
import type { WriteStep } from '../server/pipeline.js';
import type { KubeObject } from '../storage/types.js';

export const NOT_READY_TAINT = 'node.kubernetes.io/not-ready';
export const UNREACHABLE_TAINT = 'node.kubernetes.io/unreachable';
/** kube-apiserver's `--default-not-ready-toleration-seconds` and `--default-unreachable-toleration-seconds`. */
export const DEFAULT_TOLERATION_SECONDS = 300;

function tolerates(tolerations: KubeObject[], taint: string): boolean {
  return tolerations.some((t) => (!t.key || t.key === taint) && (!t.effect || t.effect === 'NoExecute'));
}

export const defaultTolerationSeconds: WriteStep = (r) => {
  const d = r.definition;
  if (d.group !== '' || d.resource !== 'pods' || r.subresource !== '') return;
  if (r.operation !== 'CREATE' && r.operation !== 'UPDATE') return;
  const spec: KubeObject = (r.object.spec ??= {});
  const tolerations: KubeObject[] = Array.isArray(spec.tolerations) ? spec.tolerations : [];
  const added = [NOT_READY_TAINT, UNREACHABLE_TAINT]
    .filter((taint) => !tolerates(tolerations, taint))
    .map((key) => ({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: DEFAULT_TOLERATION_SECONDS }));
  if (added.length > 0) spec.tolerations = [...tolerations, ...added];
};
