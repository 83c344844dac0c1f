// Label and field selectors in kube's text syntax: `app=web,tier!=db,env in (a,b),!legacy`, `metadata.name=x`.
// Both parsers are the one implementation in @gardener-ts/api; here they answer a malformed selector with a 400.
import {
  FieldSelectorError,
  LabelSelectorError,
  fieldSelectorMatches,
  labelSelectorAsSelector,
  parseFieldSelector as parseSelectorOfFields,
  parseSelector,
  type FieldRequirement,
  type LabelSelectorObject,
} from '@gardener-ts/api';
import { errors } from './errors.js';

export type Matcher = (get: (key: string) => string | undefined) => boolean;

/** A `?labelSelector=` (kube's labels.Parse); a malformed one is a 400 with kube's message. */
export function parseLabelSelector(text: string): Matcher {
  try {
    const selector = parseSelector(text);
    return (get) => selector.matches(get);
  } catch (err) {
    if (err instanceof LabelSelectorError) throw errors.badRequest(err.message);
    throw err;
  }
}

/**
 * A `?fieldSelector=` (kube's fields.ParseSelector, the one in @gardener-ts/api) with the fields it names; a malformed
 * one is a 400 with kube's message.
 */
export function parseFieldSelector(text: string): Matcher & { fields: string[] } {
  let requirements: FieldRequirement[];
  try {
    requirements = parseSelectorOfFields(text);
  } catch (err) {
    if (err instanceof FieldSelectorError) throw errors.badRequest(err.message);
    throw err;
  }
  const matcher: Matcher = (get) => fieldSelectorMatches(requirements, get);
  return Object.assign(matcher, { fields: requirements.map((r) => r.field) });
}

/** Label selector matching against an object's labels. */
export function matchLabels(matcher: Matcher, labels: Record<string, string> | undefined): boolean {
  return matcher((k) => (labels && Object.hasOwn(labels, k) ? labels[k] : undefined));
}

/** Reads a dotted field path such as `spec.nodeName` from an object, as a string (kube compares text). */
export function fieldValue(object: Record<string, any>, path: string): string | undefined {
  let v: any = object;
  for (const part of path.split('.')) {
    if (v === null || typeof v !== 'object') return undefined;
    v = v[part];
  }
  if (v === undefined || v === null) return '';
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/**
 * Whether labels match a metav1.LabelSelector object (matchLabels and matchExpressions); an empty one matches all.
 * A selector kube cannot convert (unknown operator, invalid key or value) matches nothing.
 */
export function matchesLabelSelector(selector: LabelSelectorObject, labels: Record<string, string>): boolean {
  try {
    return labelSelectorAsSelector(selector).matches(labels);
  } catch (err) {
    if (err instanceof LabelSelectorError) return false;
    throw err;
  }
}
