// Kubernetes field selectors (`fields.ParseSelector` of k8s.io/apimachinery): `metadata.name=x,spec.nodeName!=n`, terms
// separated by commas, `=`, `==` or `!=`, values escaped with a backslash (`\,`, `\=`, `\\`), kube's error messages.
// The one parser for list and watch requests, the Node authorizer and SubjectAccessReviews.

/** One requirement of a field selector, as kube's fields.Requirement (`==` is read as `=`). */
export interface FieldRequirement {
  readonly field: string;
  readonly operator: '=' | '!=';
  readonly value: string;
}

/** A field selector that does not parse; the message is kube's. */
export class FieldSelectorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FieldSelectorError';
  }
}

/** The operators in the order kube tries them at each position: `==` before `=`, so no `=` is left on the value. */
const OPERATORS = ['!=', '==', '='] as const;

/** kube's splitTerms: the comma-separated terms, a backslash-escaped comma kept (with its backslash) as data. */
function splitTerms(text: string): string[] {
  if (text === '') return [];
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inSlash) inSlash = false;
    else if (c === '\\') inSlash = true;
    else if (c === ',') {
      terms.push(text.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(text.slice(start));
  return terms;
}

/** kube's splitTerm: the field is not unescaped, so the first operator anywhere in the term splits it. */
function splitTerm(term: string): { field: string; operator: (typeof OPERATORS)[number]; rest: string } | undefined {
  for (let i = 0; i < term.length; i++) {
    const operator = OPERATORS.find((op) => term.startsWith(op, i));
    if (operator) return { field: term.slice(0, i), operator, rest: term.slice(i + operator.length) };
  }
  return undefined;
}

/** kube's fields.EscapeValue: a literal value as it may be written in a field selector. */
export function escapeFieldSelectorValue(value: string): string {
  return value.replace(/[\\,=]/g, (c) => `\\${c}`);
}

/** kube's fields.UnescapeValue: `\\`, `\,` and `\=` are the only escapes; an unescaped `,` or `=` is an error. */
export function unescapeFieldSelectorValue(text: string): string {
  let value = '';
  let inSlash = false;
  for (const c of text) {
    if (inSlash) {
      if (c !== '\\' && c !== ',' && c !== '=')
        throw new FieldSelectorError(`invalid field selector: invalid escape sequence: \\${c}`);
      value += c;
      inSlash = false;
    } else if (c === '\\') inSlash = true;
    else if (c === ',' || c === '=')
      // Go prints the rune with %v: its code point.
      throw new FieldSelectorError(`invalid field selector: unescaped character in value: ${c.codePointAt(0)}`);
    else value += c;
  }
  if (inSlash) throw new FieldSelectorError('invalid field selector: invalid escape sequence: \\');
  return value;
}

/**
 * kube's fields.ParseSelector: the requirements of a field selector, in the order of their terms sorted as text (as
 * kube sorts them); none for the empty selector. Throws {@link FieldSelectorError} with kube's message.
 */
export function parseFieldSelector(text: string): FieldRequirement[] {
  const terms = splitTerms(text).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const requirements: FieldRequirement[] = [];
  for (const term of terms) {
    if (term === '') continue;
    const split = splitTerm(term);
    if (!split) throw new FieldSelectorError(`invalid selector: '${text}'; can't understand '${term}'`);
    const value = unescapeFieldSelectorValue(split.rest);
    requirements.push({ field: split.field, operator: split.operator === '!=' ? '!=' : '=', value });
  }
  return requirements;
}

/**
 * Whether an object's fields satisfy all requirements (kube's Selector.Matches on a fields.Set): `get` returns a
 * field's value, and a field the object does not have is the empty string.
 */
export function fieldSelectorMatches(
  requirements: readonly FieldRequirement[],
  get: (field: string) => string | undefined,
): boolean {
  return requirements.every((r) => ((get(r.field) ?? '') === r.value) === (r.operator === '='));
}

/** kube's Selector.RequiresExactMatch: the value the selector requires `field` to have (`field=value`), if any. */
export function fieldSelectorRequiresExactMatch(
  requirements: readonly FieldRequirement[],
  field: string,
): string | undefined {
  return requirements.find((r) => r.field === field && r.operator === '=')?.value;
}
