// NodeAffinity scoring: the summed weights of the preferred node affinity terms a node matches, scaled to 0..100.
import type { Node, Pod } from '../../shared/kinds.js';
import { matchesNodeSelectorTerms } from '../node-affinity.js';
import { defaultNormalize } from './normalize.js';
import type { ScorePlugin } from './types.js';

/** The raw score: weights of the matching preferred terms (a term with no requirements matches nothing). */
export function preferredNodeAffinityWeight(pod: Pod, node: Node): number {
  const terms = pod.spec?.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? [];
  return terms.reduce((sum, t) => sum + (matchesNodeSelectorTerms([t.preference], node) ? t.weight : 0), 0);
}

export const nodeAffinityScore: ScorePlugin = ({ pod, feasible }) =>
  defaultNormalize(feasible.map((c) => preferredNodeAffinityWeight(pod, c.node)));
