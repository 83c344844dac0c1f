// Label selectors, in both forms: the string of list requests (`app=web,tier in (a,b),!canary`) and the
// LabelSelector object of API types (matchLabels / matchExpressions). Both compile to a predicate on labels.

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

type Requirement = (labels: Record<string, string>) => boolean;

export class SelectorError extends Error {
  override readonly name = 'SelectorError';
}

/** Compiles a selector string; an empty string matches everything. Throws SelectorError on bad syntax. */
export function parseLabelSelector(selector: string): LabelMatcher {
  const requirements = splitTerms(selector).map(parseTerm);
  return (labels) => requirements.every((r) => r(labels ?? {}));
}

/** Compiles a LabelSelector object; an empty selector matches everything (as in the API). */
export function labelSelectorMatcher(selector: LabelSelector): LabelMatcher {
  const requirements: Requirement[] = Object.entries(selector.matchLabels ?? {}).map(([k, v]) => (l) => l[k] === v);
  for (const e of selector.matchExpressions ?? []) {
    const values = new Set(e.values ?? []);
    switch (e.operator) {
      case 'In':
        requirements.push((l) => e.key in l && values.has(l[e.key]));
        break;
      case 'NotIn':
        requirements.push((l) => !(e.key in l) || !values.has(l[e.key]));
        break;
      case 'Exists':
        requirements.push((l) => e.key in l);
        break;
      case 'DoesNotExist':
        requirements.push((l) => !(e.key in l));
        break;
      default:
        throw new SelectorError(`unknown label selector operator ${JSON.stringify((e as { operator: string }).operator)}`);
    }
  }
  return (labels) => requirements.every((r) => r(labels ?? {}));
}

/** Splits on commas that are not inside a `(...)` value set. */
function splitTerms(selector: string): string[] {
  const terms: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of selector) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      terms.push(current);
      current = '';
    } else {
      current += ch;
    }
  }
  terms.push(current);
  return terms.map((t) => t.trim()).filter((t) => t !== '');
}

const KEY = String.raw`[A-Za-z0-9][-A-Za-z0-9_./]*`;
const SET_TERM = new RegExp(String.raw`^(${KEY})\s+(in|notin)\s*\(([^)]*)\)$`);
const EQUALITY_TERM = new RegExp(String.raw`^(${KEY})\s*(==|!=|=)\s*([-A-Za-z0-9_.]*)$`);
const EXISTS_TERM = new RegExp(String.raw`^(!?)\s*(${KEY})$`);

function parseTerm(term: string): Requirement {
  let m = SET_TERM.exec(term);
  if (m) {
    const [, key, op, list] = m;
    const values = new Set(list.split(',').map((v) => v.trim()).filter(Boolean));
    return op === 'in' ? (l) => key in l && values.has(l[key]) : (l) => !(key in l) || !values.has(l[key]);
  }
  m = EQUALITY_TERM.exec(term);
  if (m) {
    const [, key, op, value] = m;
    return op === '!=' ? (l) => l[key] !== value : (l) => l[key] === value;
  }
  m = EXISTS_TERM.exec(term);
  if (m) {
    const [, not, key] = m;
    return not ? (l) => !(key in l) : (l) => key in l;
  }
  throw new SelectorError(`invalid label selector term ${JSON.stringify(term)}`);
}
