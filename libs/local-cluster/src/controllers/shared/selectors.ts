// Label selectors of workload specs, compiled once per reconcile (kube's LabelSelectorAsSelector, from @gardener-ts/api).
import { labelSelectorAsSelector } from '@gardener-ts/api';
import type { LabelMatcher } from '@gardener-ts/controller-runtime';
import type { LabelSelector } from './kinds.js';

/** A nil selector selects nothing; an empty one selects everything (as kube's LabelSelectorAsSelector). */
export function selectorMatcher(selector: LabelSelector | undefined): LabelMatcher {
  const converted = labelSelectorAsSelector(selector);
  return (labels) => converted.matches(labels);
}
