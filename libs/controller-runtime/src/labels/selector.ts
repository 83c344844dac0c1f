// Label selectors, in both forms: the string of list requests (`app=web,tier in (a,b),!canary`) and the
// LabelSelector object of API types (matchLabels / matchExpressions). Both compile to a predicate on labels, over
// the one selector implementation in @gardener-ts/api (kube's labels.Parse and LabelSelectorAsSelector).
import { LabelSelectorError, labelSelectorAsSelector, parseSelector } from '@gardener-ts/api';

export type Labels = Record<string, string> | undefined;
export type LabelMatcher = (labels: Labels) => boolean;

export interface LabelSelectorRequirement {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
  values?: string[];
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

/** A selector that does not parse or convert; the message is kube's. */
export const SelectorError = LabelSelectorError;
export type SelectorError = LabelSelectorError;

/** Compiles a selector string; an empty string matches everything. Throws SelectorError on bad syntax. */
export function parseLabelSelector(selector: string): LabelMatcher {
  const parsed = parseSelector(selector);
  return (labels) => parsed.matches(labels);
}

/** Compiles a LabelSelector object; an empty selector matches everything (as in the API). Throws SelectorError. */
export function labelSelectorMatcher(selector: LabelSelector): LabelMatcher {
  const converted = labelSelectorAsSelector(selector);
  return (labels) => converted.matches(labels);
}
