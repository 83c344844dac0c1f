// Label selectors of workload specs, compiled once per reconcile.
import { labelSelectorMatcher, type LabelMatcher, type LabelSelectorRequirement } from '@gardener-ts/controller-runtime';
import type { LabelSelector } from './kinds.js';

/** A nil selector selects nothing; an empty one selects everything (as kube's LabelSelectorAsSelector). */
export function selectorMatcher(selector: LabelSelector | undefined): LabelMatcher {
  if (!selector) return () => false;
  return labelSelectorMatcher({
    matchLabels: selector.matchLabels,
    matchExpressions: selector.matchExpressions as LabelSelectorRequirement[] | undefined,
  });
}
