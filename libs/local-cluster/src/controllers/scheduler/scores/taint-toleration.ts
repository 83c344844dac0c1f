// TaintToleration scoring: fewer untolerated PreferNoSchedule taints score higher.
import type { Node, Pod } from '../../shared/kinds.js';
import { toleratesAll } from '../taints.js';
import { defaultNormalize } from './normalize.js';
import type { ScorePlugin } from './types.js';

/** The node's PreferNoSchedule taints the pod does not tolerate. */
export function intolerablePreferNoSchedule(pod: Pod, node: Node): number {
  return (node.spec?.taints ?? []).filter(
    (t) => t.effect === 'PreferNoSchedule' && !toleratesAll(pod.spec?.tolerations, t),
  ).length;
}

export const taintTolerationScore: ScorePlugin = ({ pod, feasible }) =>
  defaultNormalize(
    feasible.map((c) => intolerablePreferNoSchedule(pod, c.node)),
    true,
  );
