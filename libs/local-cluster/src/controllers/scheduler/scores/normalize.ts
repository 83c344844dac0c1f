// Score normalisation as kube's framework does it: every score plugin's result ends up in 0..MAX_NODE_SCORE.
export const MAX_NODE_SCORE = 100;

/** kube's DefaultNormalizeScore: scaled so the highest becomes 100 (reversed: 100 minus that); all zero stays 0 (reversed: 100). */
export function defaultNormalize(scores: number[], reverse = false): number[] {
  const max = Math.max(0, ...scores);
  if (max === 0) return scores.map(() => (reverse ? MAX_NODE_SCORE : 0));
  return scores.map((s) => {
    const scaled = Math.trunc((MAX_NODE_SCORE * s) / max);
    return reverse ? MAX_NODE_SCORE - scaled : scaled;
  });
}

/** Min-max scaling onto 0..100 (InterPodAffinity); all equal gives 0. */
export function minMaxNormalize(scores: number[]): number[] {
  const min = Math.min(...scores);
  const diff = Math.max(...scores) - min;
  return scores.map((s) => (diff > 0 ? Math.trunc((MAX_NODE_SCORE * (s - min)) / diff) : 0));
}
