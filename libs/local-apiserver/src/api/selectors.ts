// Label and field selectors in kube's text syntax: `app=web,tier!=db,env in (a,b),!legacy`, `metadata.name=x`.
import { errors } from './errors.js';

type Requirement =
  | { key: string; op: '=' | '!='; values: [string] }
  | { key: string; op: 'in' | 'notin'; values: string[] }
  | { key: string; op: 'exists' | '!exists'; values: [] };

export type Matcher = (get: (key: string) => string | undefined) => boolean;

const KEY = /^([a-z0-9A-Z]([-a-z0-9A-Z_.]*[a-z0-9A-Z])?\/)?[a-zA-Z0-9]([-a-zA-Z0-9_.]*[a-zA-Z0-9])?$/;

export function parseLabelSelector(text: string): Matcher {
  return compile(splitTerms(text).map((term) => parseLabelTerm(term, text)));
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
      switch (r.op) {
        case '=':
          return v === r.values[0];
        case '!=':
          return v !== r.values[0];
        case 'in':
          return v !== undefined && r.values.includes(v);
        case 'notin':
          return v === undefined || !r.values.includes(v);
        case 'exists':
          return v !== undefined;
        case '!exists':
          return v === undefined;
      }
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

function parseLabelTerm(term: string, whole: string): Requirement {
  const bad = (why: string) => errors.badRequest(`unable to parse requirement: ${why}`);
  let m = /^!\s*(\S+)$/.exec(term);
  if (m) return { key: checkKey(m[1], bad), op: '!exists', values: [] };
  m = /^(\S+?)\s*(==|=|!=)\s*(\S*)$/.exec(term);
  if (m) return { key: checkKey(m[1], bad), op: m[2] === '!=' ? '!=' : '=', values: [m[3]] };
  m = /^(\S+)\s+(in|notin)\s*\(([^)]*)\)$/.exec(term);
  if (m) {
    const values = m[3].split(',').map((v) => v.trim()).filter(Boolean);
    return { key: checkKey(m[1], bad), op: m[2] as 'in' | 'notin', values };
  }
  if (/^\S+$/.test(term)) return { key: checkKey(term, bad), op: 'exists', values: [] };
  throw errors.badRequest(`unable to parse requirement: found '${term}' in "${whole}"`);
}

function checkKey(key: string, bad: (why: string) => Error): string {
  if (!KEY.test(key)) throw bad(`invalid label key "${key}": name part must consist of alphanumeric characters, '-', '_' or '.'`);
  return key;
}

/** Label selector matching against an object's labels. */
export function matchLabels(matcher: Matcher, labels: Record<string, string> | undefined): boolean {
  return matcher((k) => labels?.[k]);
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

/** Whether labels match a metav1.LabelSelector object (matchLabels and matchExpressions); an empty one matches all. */
export function matchesLabelSelector(selector: { matchLabels?: Record<string, string>; matchExpressions?: { key: string; operator: string; values?: string[] }[] }, labels: Record<string, string>): boolean {
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (labels[k] !== v) return false;
  for (const e of selector.matchExpressions ?? []) {
    const has = Object.prototype.hasOwnProperty.call(labels, e.key);
    const value = labels[e.key];
    if (e.operator === 'In' && !(has && (e.values ?? []).includes(value))) return false;
    if (e.operator === 'NotIn' && has && (e.values ?? []).includes(value)) return false;
    if (e.operator === 'Exists' && !has) return false;
    if (e.operator === 'DoesNotExist' && has) return false;
  }
  return true;
}
