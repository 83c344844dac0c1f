// Label and field selectors in kube's text syntax: `app=web,tier!=db,env in (a,b),!legacy`, `metadata.name=x`.
// Label selectors are the one implementation in @gardener-ts/api; field selectors are parsed here.
import { LabelSelectorError, labelSelectorAsSelector, parseSelector, type LabelSelectorObject } from '@gardener-ts/api';
import { errors } from './errors.js';

/** A field selector requirement: `field=value` or `field!=value`. */
type Requirement = { key: string; op: '=' | '!='; values: [string] };

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

export function parseFieldSelector(text: string): Matcher & { fields: string[] } {
  const reqs = splitTerms(text).map((term) => {
    const m = /^([^!=\s]+)\s*(==|=|!=)\s*(.*)$/.exec(term);
    if (!m) throw errors.badRequest(`invalid field selector: '${text}': unable to parse requirement: '${term}'`);
    return { key: m[1], op: m[2] === '!=' ? '!=' : '=', values: [m[3]] } as Requirement;
  });
  return Object.assign(compile(reqs), { fields: reqs.map((r) => r.key) });
}

function compile(reqs: Requirement[]): Matcher {
  return (get) =>
    reqs.every((r) => {
      const v = get(r.key);
      return r.op === '=' ? v === r.values[0] : v !== r.values[0];
    });
}

/** Splits at commas outside parentheses. */
function splitTerms(text: string): string[] {
  const terms: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      terms.push(current.trim());
      current = '';
    } else current += ch;
  }
  if (current.trim()) terms.push(current.trim());
  return terms.filter(Boolean);
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
