// Kubernetes label selectors (`labels.Selector` of k8s.io/apimachinery): the string syntax of list requests and
// `kubectl -l` (`app=web,tier!=db,env in (a,b),!legacy,replicas>2`) parsed by kube's lexer and parser with its
// error messages, metav1.LabelSelector objects (matchLabels/matchExpressions) converted as
// `LabelSelectorAsSelector` does with `NewRequirement`'s validation, matching, and the canonical String().
import type { FieldError } from './validation/field.js';
import { labelValueErrors, qualifiedNameErrors } from './validation/names.js';

export { labelValueErrors };

/** kube's `selection.Operator` values. */
export type SelectorOperator = 'in' | 'notin' | '=' | '==' | '!=' | 'exists' | '!' | 'gt' | 'lt';

/** One requirement of a selector: `key operator values`. Values are sorted and unique when parsed from text. */
export interface Requirement {
  readonly key: string;
  readonly operator: SelectorOperator;
  readonly values: readonly string[];
}

/** A metav1.LabelSelector as written in manifests. */
export interface LabelSelectorObject {
  matchLabels?: Record<string, string> | null;
  matchExpressions?: readonly { key: string; operator: string; values?: readonly string[] | null }[] | null;
}

/** Labels of an object; undefined has no labels. */
export type LabelSet = Readonly<Record<string, string>> | undefined | null;

/** A selector that does not parse or a requirement that is not valid; the message is kube's. */
export class LabelSelectorError extends Error {
  constructor(
    message: string,
    /** The field errors behind the message, when it comes from requirement validation. */
    readonly fieldErrors: readonly FieldError[] = [],
  ) {
    super(message);
    this.name = 'LabelSelectorError';
  }
}

const BINARY_OPERATORS = ['in', 'notin', '=', '==', '!=', 'gt', 'lt'];
const ALL_OPERATORS = [...BINARY_OPERATORS, 'exists', '!'];
const INT64 = /^[+-]?\d+$/;
const MIN_INT64 = -(1n << 63n);
const MAX_INT64 = (1n << 63n) - 1n;

/** Go's `%#v` of a []string, as kube prints a bad value set. */
function goStrings(values: readonly string[] | null): string {
  if (values === null) return '[]string(nil)';
  return `[]string{${values.map((v) => JSON.stringify(v)).join(', ')}}`;
}

function fieldError(field: string, badValue: unknown, shown: string, detail: string): FieldError {
  return {
    type: 'FieldValueInvalid',
    field,
    badValue,
    detail,
    message: `${field}: Invalid value: ${shown}: ${detail}`,
  };
}

function notSupported(field: string, value: string): FieldError {
  const detail = `supported values: ${ALL_OPERATORS.map((o) => JSON.stringify(o)).join(', ')}`;
  return {
    type: 'FieldValueNotSupported',
    field,
    badValue: value,
    detail,
    message: `${field}: Unsupported value: ${JSON.stringify(value)}: ${detail}`,
  };
}

function keyError(key: string, field: string): FieldError | undefined {
  const errors = qualifiedNameErrors(key);
  return errors.length === 0 ? undefined : fieldError(field, key, JSON.stringify(key), errors.join('; '));
}

const isInt64 = (text: string) => INT64.test(text) && BigInt(text) >= MIN_INT64 && BigInt(text) <= MAX_INT64;

/** kube's aggregate message: one error alone, several deduplicated in brackets. */
function aggregate(errors: readonly FieldError[]): string {
  const unique = [...new Set(errors.map((e) => e.message))];
  return unique.length === 1 ? unique[0] : `[${unique.join(', ')}]`;
}

/** How many values each operator takes, and kube's message when the count is wrong. */
const VALUE_COUNTS: Record<string, { valid: (n: number) => boolean; detail: string } | undefined> = {};
for (const [operators, valid, detail] of [
  [['in', 'notin'], (n: number) => n > 0, "for 'in', 'notin' operators, values set can't be empty"],
  [['=', '==', '!='], (n: number) => n === 1, 'exact-match compatibility requires one single value'],
  [['exists', '!'], (n: number) => n === 0, 'values set must be empty for exists and does not exist'],
  [['gt', 'lt'], (n: number) => n === 1, "for 'Gt', 'Lt' operators, exactly one value is required"],
] as const) {
  for (const operator of operators) VALUE_COUNTS[operator] = { valid, detail };
}

/**
 * kube's `NewRequirement`: validates the key (a qualified name), the number of values for the operator, integer
 * values for `gt`/`lt`, and every value as a label value. `path` prefixes the field names (`spec.selector`);
 * `values` null stands for a nil slice in messages. Throws {@link LabelSelectorError}.
 */
export function newRequirement(
  key: string,
  operator: string,
  values: readonly string[] | null,
  path?: string,
): Requirement {
  const at = (name: string) => (path ? `${path}.${name}` : name);
  const vals = values ?? [];
  const errors: FieldError[] = [];
  const bad = keyError(key, at('key'));
  if (bad) errors.push(bad);
  const valuesField = at('values');
  const count = VALUE_COUNTS[operator];
  if (!count) errors.push(notSupported(at('operator'), operator));
  else if (!count.valid(vals.length)) errors.push(fieldError(valuesField, vals, goStrings(values), count.detail));
  if (operator === 'gt' || operator === 'lt') {
    vals.forEach((v, i) => {
      if (isInt64(v)) return;
      const detail = "for 'Gt', 'Lt' operators, the value must be an integer";
      errors.push(fieldError(`${valuesField}[${i}]`, v, JSON.stringify(v), detail));
    });
  }
  vals.forEach((v, i) => {
    const problems = labelValueErrors(v);
    if (problems.length > 0) {
      errors.push(fieldError(`${valuesField}[${i}][${key}]`, v, JSON.stringify(v), problems.join('; ')));
    }
  });
  if (errors.length > 0) throw new LabelSelectorError(aggregate(errors), errors);
  return { key, operator: operator as SelectorOperator, values: [...vals] };
}

/** A label lookup: the value of a label, undefined when the object does not have it. */
export type LabelLookup = (key: string) => string | undefined;

const lookupIn =
  (labels: LabelSet): LabelLookup =>
  (key) =>
    labels != null && Object.hasOwn(labels, key) ? labels[key] : undefined;

/** Whether labels satisfy one requirement (kube's `Requirement.Matches`). */
export function requirementMatches(requirement: Requirement, labels: LabelSet | LabelLookup): boolean {
  const value = typeof labels === 'function' ? labels(requirement.key) : lookupIn(labels)(requirement.key);
  const has = value !== undefined;
  switch (requirement.operator) {
    case 'in':
    case '=':
    case '==':
      return has && requirement.values.includes(value!);
    case 'notin':
    case '!=':
      return !has || !requirement.values.includes(value!);
    case 'exists':
      return has;
    case '!':
      return !has;
    case 'gt':
    case 'lt': {
      if (!has || !isInt64(value!) || requirement.values.length !== 1 || !isInt64(requirement.values[0])) return false;
      const left = BigInt(value!);
      const right = BigInt(requirement.values[0]);
      return requirement.operator === 'gt' ? left > right : left < right;
    }
  }
}

/** kube's `Requirement.String()`: `a=b`, `a in (x,y)`, `!a`, `a>3`; several values are printed sorted. */
export function requirementString(requirement: Requirement): string {
  const { key, operator, values } = requirement;
  if (operator === 'exists') return key;
  if (operator === '!') return `!${key}`;
  const joined = values.length === 1 ? values[0] : [...values].sort(compareStrings).join(',');
  switch (operator) {
    case 'in':
      return `${key} in (${joined})`;
    case 'notin':
      return `${key} notin (${joined})`;
    case 'gt':
      return `${key}>${joined}`;
    case 'lt':
      return `${key}<${joined}`;
    default:
      return `${key}${operator}${joined}`;
  }
}

/** Go's sort.Strings order (byte-wise; the same as code-unit order for the ASCII of label keys and values). */
function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A label selector: requirements sorted by key, all of which must match. Immutable. */
export class Selector {
  private constructor(
    /** The requirements, sorted by key (undefined for the selector that matches nothing). */
    private readonly reqs: readonly Requirement[] | undefined,
  ) {}

  /** Matches every set of labels (kube's `labels.Everything()`). */
  static everything(): Selector {
    return new Selector([]);
  }

  /** Matches nothing (kube's `labels.Nothing()`, what a nil LabelSelector converts to). */
  static nothing(): Selector {
    return new Selector(undefined);
  }

  /** A selector of these requirements (sorted by key, as kube's `Selector.Add`). */
  static of(requirements: readonly Requirement[]): Selector {
    return new Selector(sortByKey(requirements));
  }

  /** The requirements sorted by key; empty for `everything()` and for `nothing()`. */
  get requirements(): readonly Requirement[] {
    return this.reqs ?? [];
  }

  /** True for the selector that selects nothing (from a nil LabelSelector). */
  isNothing(): boolean {
    return this.reqs === undefined;
  }

  /** True when the selector does not restrict the selection (no requirements). */
  empty(): boolean {
    return this.reqs !== undefined && this.reqs.length === 0;
  }

  /** Whether all requirements match the labels (an object's `metadata.labels`, or a lookup function). */
  matches(labels: LabelSet | LabelLookup): boolean {
    if (this.reqs === undefined) return false;
    const lookup = typeof labels === 'function' ? labels : lookupIn(labels);
    return this.reqs.every((r) => requirementMatches(r, lookup));
  }

  /** A new selector with more requirements. */
  add(...requirements: Requirement[]): Selector {
    return new Selector(sortByKey([...(this.reqs ?? []), ...requirements]));
  }

  /** The single value the selector requires for `key` (`key=v`, `key==v`, `key in (v)`), if any. */
  requiresExactMatch(key: string): string | undefined {
    const r = this.reqs?.find((req) => req.key === key);
    if (!r || !['=', '==', 'in'].includes(r.operator) || r.values.length !== 1) return undefined;
    return r.values[0];
  }

  /** kube's `String()`: requirements joined by `,` (`a=b,c in (x,y),!d`); empty for everything and nothing. */
  toString(): string {
    return (this.reqs ?? []).map(requirementString).join(',');
  }
}

function sortByKey(requirements: readonly Requirement[]): Requirement[] {
  return [...requirements].sort((a, b) => compareStrings(a.key, b.key));
}

// ---- the string syntax: kube's lexer and recursive-descent parser ----

type Token = 'error' | 'end' | ')' | ',' | '!' | '==' | '=' | '>' | 'identifier' | 'in' | '<' | '!=' | 'notin' | '(';

const LITERALS: Record<string, Token> = {
  ')': ')',
  ',': ',',
  '!': '!',
  '==': '==',
  '=': '=',
  '>': '>',
  in: 'in',
  '<': '<',
  '!=': '!=',
  notin: 'notin',
  '(': '(',
};

const isWhitespace = (c: string) => c === ' ' || c === '\t' || c === '\r' || c === '\n';
const isSpecial = (c: string) => '=!(),><'.includes(c) && c !== '';

interface Item {
  token: Token;
  literal: string;
}

function lex(text: string): Item[] {
  let pos = 0;
  // NUL ends the input, as the byte 0 kube's lexer uses for "no more input".
  const read = () => (pos < text.length ? text[pos++] : '\0');
  const items: Item[] = [];
  for (;;) {
    let ch = read();
    while (isWhitespace(ch)) ch = read();
    if (ch === '\0') {
      items.push({ token: 'end', literal: '' });
      return items;
    }
    pos--;
    if (isSpecial(ch)) {
      let buffer = '';
      let last: Item | undefined;
      for (;;) {
        const c = read();
        if (c === '\0') break;
        if (!isSpecial(c)) {
          pos--;
          break;
        }
        buffer += c;
        const token = Object.hasOwn(LITERALS, buffer) ? LITERALS[buffer] : undefined;
        if (token) last = { token, literal: buffer };
        else if (last) {
          pos--;
          break;
        }
      }
      items.push(last ?? { token: 'error', literal: `error expected: keyword found '${buffer}'` });
    } else {
      let buffer = '';
      for (;;) {
        const c = read();
        if (c === '\0') break;
        if (isSpecial(c) || isWhitespace(c)) {
          pos--;
          break;
        }
        buffer += c;
      }
      const token = buffer === 'in' || buffer === 'notin' ? buffer : 'identifier';
      items.push({ token, literal: buffer });
    }
  }
}

class Parser {
  private position = 0;

  constructor(
    private readonly items: Item[],
    private readonly path: string | undefined,
  ) {}

  /** The current token; in value context the keywords `in`/`notin` are identifiers. */
  private lookahead(values: boolean): Item {
    const item = this.items[this.position];
    return values && (item.token === 'in' || item.token === 'notin') ? { ...item, token: 'identifier' } : item;
  }

  private consume(values: boolean): Item {
    const item = this.lookahead(values);
    this.position++;
    return item;
  }

  parse(): Requirement[] {
    const requirements: Requirement[] = [];
    for (;;) {
      const { token, literal } = this.lookahead(true);
      if (token === 'end') return requirements;
      if (token !== 'identifier' && token !== '!') {
        throw new LabelSelectorError(`found '${literal}', expected: !, identifier, or 'end of string'`);
      }
      try {
        requirements.push(this.parseRequirement());
      } catch (err) {
        if (!(err instanceof LabelSelectorError)) throw err;
        throw new LabelSelectorError(`unable to parse requirement: ${err.message}`, err.fieldErrors);
      }
      const next = this.consume(true);
      if (next.token === 'end') return requirements;
      if (next.token !== ',') throw new LabelSelectorError(`found '${next.literal}', expected: ',' or 'end of string'`);
      const after = this.lookahead(true);
      if (after.token !== 'identifier' && after.token !== '!') {
        throw new LabelSelectorError(`found '${after.literal}', expected: identifier after ','`);
      }
    }
  }

  private parseRequirement(): Requirement {
    let { token, literal } = this.consume(true);
    let operator: SelectorOperator | undefined;
    if (token === '!') {
      operator = '!';
      ({ token, literal } = this.consume(true));
    }
    if (token !== 'identifier') throw new LabelSelectorError(`found '${literal}', expected: identifier`);
    const key = literal;
    // A bad key is reported on its own, at the parser's path (kube prints a nil path as <nil>).
    const bad = keyError(key, this.path ?? '<nil>');
    if (bad) throw new LabelSelectorError(bad.message, [bad]);
    const next = this.lookahead(true).token;
    if (next === 'end' || next === ',') operator = operator ?? 'exists';
    if (operator === 'exists' || operator === '!') return newRequirement(key, operator, [], this.path);

    const op = this.consume(false);
    const operators: Partial<Record<Token, SelectorOperator>> = {
      in: 'in',
      '=': '=',
      '==': '==',
      '>': 'gt',
      '<': 'lt',
      notin: 'notin',
      '!=': '!=',
    };
    const parsed = operators[op.token];
    if (!parsed) throw new LabelSelectorError(`found '${op.literal}', expected: ${BINARY_OPERATORS.join(', ')}`);
    const values = parsed === 'in' || parsed === 'notin' ? this.parseValues() : this.parseExactValue();
    return newRequirement(key, parsed, [...values].sort(compareStrings), this.path);
  }

  private parseValues(): Set<string> {
    const open = this.consume(true);
    if (open.token !== '(') throw new LabelSelectorError(`found '${open.literal}' expected: '('`);
    const { token, literal } = this.lookahead(true);
    if (token === 'identifier' || token === ',') {
      const values = this.parseIdentifiers();
      if (this.consume(true).token !== ')') throw new LabelSelectorError(`found '${literal}', expected: ')'`);
      return values;
    }
    if (token === ')') {
      this.consume(true);
      return new Set(['']);
    }
    throw new LabelSelectorError(`found '${literal}', expected: ',', ')' or identifier`);
  }

  private parseIdentifiers(): Set<string> {
    const values = new Set<string>();
    for (;;) {
      const { token, literal } = this.consume(true);
      if (token === 'identifier') {
        values.add(literal);
        const next = this.lookahead(true);
        if (next.token === ',') continue;
        if (next.token === ')') return values;
        throw new LabelSelectorError(`found '${next.literal}', expected: ',' or ')'`);
      }
      if (token === ',') {
        // Empty values: "(,x)", "(x,)", "(x,,y)".
        if (values.size === 0) values.add('');
        const next = this.lookahead(true).token;
        if (next === ')') {
          values.add('');
          return values;
        }
        if (next === ',') values.add('');
        continue;
      }
      throw new LabelSelectorError(`found '${literal}', expected: ',', or identifier`);
    }
  }

  private parseExactValue(): Set<string> {
    const next = this.lookahead(true).token;
    if (next === 'end' || next === ',') return new Set(['']);
    const { token, literal } = this.consume(true);
    if (token === 'identifier') return new Set([literal]);
    throw new LabelSelectorError(`found '${literal}', expected: identifier`);
  }
}

/**
 * kube's `labels.Parse`: the selector of `?labelSelector=` and `kubectl -l`. An empty string selects everything.
 * `path` names the field in validation messages. Throws {@link LabelSelectorError} with kube's message.
 */
export function parseSelector(text: string, path?: string): Selector {
  return Selector.of(new Parser(lex(text), path).parse());
}

/**
 * kube's `metav1.LabelSelectorAsSelector`: null/undefined selects nothing, an empty selector everything; each
 * matchLabels entry and matchExpressions item becomes a validated requirement. Throws {@link LabelSelectorError}.
 */
export function labelSelectorAsSelector(selector: LabelSelectorObject | null | undefined): Selector {
  if (selector == null) return Selector.nothing();
  const matchLabels = Object.entries(selector.matchLabels ?? {});
  const expressions = selector.matchExpressions ?? [];
  if (matchLabels.length + expressions.length === 0) return Selector.everything();
  const requirements = matchLabels.map(([k, v]) => newRequirement(k, '=', [v]));
  for (const expression of expressions) {
    const operator = OPERATORS_OF_API[expression.operator];
    if (!operator) throw new LabelSelectorError(`"${expression.operator}" is not a valid label selector operator`);
    const values = expression.values && expression.values.length > 0 ? [...expression.values] : null;
    requirements.push(newRequirement(expression.key, operator, values));
  }
  return Selector.of(requirements);
}

const OPERATORS_OF_API: Record<string, SelectorOperator | undefined> = {
  In: 'in',
  NotIn: 'notin',
  Exists: 'exists',
  DoesNotExist: '!',
};

const NODE_SELECTOR_OPERATORS: Record<string, SelectorOperator | undefined> = {
  ...OPERATORS_OF_API,
  Gt: 'gt',
  Lt: 'lt',
};

/**
 * kube's `nodeSelectorRequirementsAsSelector` (node affinity, DaemonSet placement): In, NotIn, Exists,
 * DoesNotExist, Gt and Lt requirements on node labels, validated by {@link newRequirement}. An empty list selects
 * nothing. Throws {@link LabelSelectorError}; kube treats a term that does not convert as matching no node.
 */
export function nodeSelectorRequirementsAsSelector(
  requirements: readonly { key: string; operator: string; values?: readonly string[] | null }[],
): Selector {
  if (requirements.length === 0) return Selector.nothing();
  return Selector.of(
    requirements.map((r, i) => {
      const operator = NODE_SELECTOR_OPERATORS[r.operator];
      if (!operator) {
        throw new LabelSelectorError(`[${i}].operator: Unsupported value: ${JSON.stringify(r.operator)}`);
      }
      return newRequirement(r.key, operator, r.values ? [...r.values] : null, `[${i}]`);
    }),
  );
}

/**
 * kube's `nodeSelectorRequirementsAsFieldSelector` matched against a node's fields (`{ 'metadata.name': name }`):
 * only `In` and `NotIn` with exactly one value; anything else, or an empty list, matches no node.
 */
export function nodeSelectorFieldsMatch(
  requirements: readonly { key?: string; operator?: string; values?: readonly string[] | null }[],
  fields: Readonly<Record<string, string>>,
): boolean {
  if (requirements.length === 0) return false;
  return requirements.every((r) => {
    if ((r.operator !== 'In' && r.operator !== 'NotIn') || r.values?.length !== 1) return false;
    const value = r.key !== undefined && Object.hasOwn(fields, r.key) ? fields[r.key] : '';
    return r.operator === 'In' ? value === r.values[0] : value !== r.values[0];
  });
}

/** A NodeSelectorTerm (`matchExpressions` on node labels, `matchFields` on node fields). */
export interface NodeSelectorTermObject {
  matchExpressions?: readonly { key?: string; operator?: string; values?: readonly string[] | null }[] | null;
  matchFields?: readonly { key?: string; operator?: string; values?: readonly string[] | null }[] | null;
}

/**
 * Whether a node matches one NodeSelectorTerm, as kube's node affinity matches it: a term with neither expressions
 * nor fields, or one that does not convert, matches no node; otherwise its expressions must match the node's labels
 * and its fields the node's fields (`{ 'metadata.name': name }`).
 */
export function nodeSelectorTermMatches(
  term: NodeSelectorTermObject,
  labels: LabelSet,
  fields: Readonly<Record<string, string>>,
): boolean {
  const expressions = term.matchExpressions ?? [];
  const matchFields = term.matchFields ?? [];
  if (expressions.length === 0 && matchFields.length === 0) return false;
  if (expressions.length > 0) {
    let selector: Selector;
    try {
      selector = nodeSelectorRequirementsAsSelector(
        expressions.map((r) => ({ key: r.key ?? '', operator: r.operator ?? '', values: r.values })),
      );
    } catch (err) {
      if (err instanceof LabelSelectorError) return false;
      throw err;
    }
    if (!selector.matches(labels)) return false;
  }
  return matchFields.length === 0 || nodeSelectorFieldsMatch(matchFields, fields);
}

/** kube's `labels.SelectorFromSet`: `key=value` for every entry, not validated; empty selects everything. */
export function selectorFromSet(set: LabelSet): Selector {
  return Selector.of(
    Object.entries(set ?? {}).map(([key, value]) => ({ key, operator: '=' as const, values: [value] })),
  );
}

/**
 * Whether labels match a metav1.LabelSelector: null/undefined matches nothing, `{}` everything. Throws
 * {@link LabelSelectorError} for an invalid selector, as kube's conversion fails.
 */
export function labelSelectorMatches(selector: LabelSelectorObject | null | undefined, labels: LabelSet): boolean {
  return labelSelectorAsSelector(selector).matches(labels);
}
