// kube's JSONPath (k8s.io/client-go/util/jsonpath), hand-written for fidelity rather than taken from a generic
// JSONPath library: kube's dialect differs from Goessner's (`\.` escapes dots in field names, `$`/`@` are no-ops,
// `['key']` and unions of them, Go slices with kube's bounds errors, `[?(@.a=="b")]` filters compared with Go
// template rules, `..` recursive descent, `*` wildcards, missing keys allowed) and so do its printing rules (maps and
// lists as compact Go JSON, floats as Go's %v). Used for CRD additionalPrinterColumns, which kube evaluates with
// AllowMissingKeys and of whose results it takes the first.

/** One step of a parsed template. */
export type JsonPathNode =
  | { kind: 'list'; nodes: JsonPathNode[] }
  | { kind: 'text'; text: string }
  | { kind: 'field'; name: string }
  | { kind: 'wildcard' }
  | { kind: 'recursive' }
  | { kind: 'array'; params: SliceParam[] }
  | { kind: 'filter'; left: ListNode; right: ListNode; operator: string }
  | { kind: 'union'; lists: ListNode[] }
  | { kind: 'int'; value: number }
  | { kind: 'float'; value: number }
  | { kind: 'bool'; value: boolean }
  | { kind: 'identifier'; name: string };

type ListNode = { kind: 'list'; nodes: JsonPathNode[] };

interface SliceParam {
  value: number;
  known: boolean;
  derived: boolean;
}

/** A float literal of a filter (`1.0` is a float in Go, not an int). */
class GoFloat {
  constructor(readonly value: number) {}
}

/** A byte of a string that `..` walked into (Go indexes strings by byte). */
class GoByte {
  constructor(readonly value: number) {}
}

/** A template kube's parser refuses, or an evaluation kube's jsonpath fails (bounds, types, comparisons). */
export class JsonPathError extends Error {}

const EOF = '';

function isTerminator(r: string): boolean {
  return r === EOF || r === ' ' || r === '\t' || r === '\r' || r === '\n' || '.,[]$@{}'.includes(r);
}

function isAlphaNumeric(r: string): boolean {
  return r === '_' || /^[\p{L}\p{Nd}]$/u.test(r);
}

/** kube's jsonpath parser: text outside `{}`, actions inside. */
class Parser {
  private pos = 0;
  private start = 0;
  private readonly chars: string[];

  constructor(input: string) {
    this.chars = [...input];
  }

  static parse(text: string): ListNode {
    const parser = new Parser(text);
    const root: ListNode = { kind: 'list', nodes: [] };
    parser.parseText(root);
    return root;
  }

  private get rest(): string {
    return this.chars.slice(this.pos).join('');
  }

  private next(): string {
    if (this.pos >= this.chars.length) {
      this.pos = this.chars.length + 1;
      return EOF;
    }
    return this.chars[this.pos++];
  }

  private peek(): string {
    return this.pos < this.chars.length ? this.chars[this.pos] : EOF;
  }

  private backup(): void {
    this.pos--;
  }

  private consumeText(): string {
    const end = Math.min(this.pos, this.chars.length);
    const value = this.chars.slice(this.start, end).join('');
    this.start = end;
    return value;
  }

  private parseText(cur: ListNode): void {
    for (;;) {
      if (this.rest.startsWith('{')) {
        if (this.pos > this.start) cur.nodes.push({ kind: 'text', text: this.consumeText() });
        this.pos += 1;
        this.consumeText();
        const action: ListNode = { kind: 'list', nodes: [] };
        cur.nodes.push(action);
        this.parseInsideAction(action);
        continue;
      }
      if (this.next() === EOF) break;
    }
    this.pos = Math.min(this.pos, this.chars.length);
    if (this.pos > this.start) cur.nodes.push({ kind: 'text', text: this.consumeText() });
  }

  private parseInsideAction(cur: ListNode): void {
    for (;;) {
      const rest = this.rest;
      if (rest.startsWith('}')) {
        this.pos += 1;
        this.consumeText();
        return;
      }
      if (rest.startsWith('[?(')) {
        this.parseFilter(cur);
        continue;
      }
      if (rest.startsWith('..')) {
        this.parseRecursive(cur);
        continue;
      }
      const r = this.next();
      if (r === EOF || r === '\n') throw new JsonPathError('unclosed action');
      if (r === ' ' || r === '@' || r === '$') this.consumeText();
      else if (r === '[') this.parseArray(cur);
      else if (r === '"' || r === "'") this.parseQuote(cur, r);
      else if (r === '.') this.parseField(cur);
      else if (r === '+' || r === '-' || /^[0-9]$/.test(r)) {
        this.backup();
        this.parseNumber(cur);
      } else if (isAlphaNumeric(r)) {
        this.backup();
        this.parseIdentifier(cur);
      } else throw new JsonPathError(`unrecognized character in action: ${JSON.stringify(r)}`);
    }
  }

  private parseField(cur: ListNode): void {
    this.consumeText();
    for (;;) {
      const r = this.next();
      if (r === '\\') {
        this.next();
        continue;
      }
      if (isTerminator(r)) {
        this.backup();
        break;
      }
    }
    const value = this.consumeText();
    cur.nodes.push(value === '*' ? { kind: 'wildcard' } : { kind: 'field', name: value.replace(/\\/g, '') });
  }

  private parseRecursive(cur: ListNode): void {
    if (cur.nodes.at(-1)?.kind === 'recursive') throw new JsonPathError('invalid multiple recursive descent');
    this.pos += 2;
    this.consumeText();
    cur.nodes.push({ kind: 'recursive' });
    if (isAlphaNumeric(this.peek())) this.parseField(cur);
  }

  private parseIdentifier(cur: ListNode): void {
    for (;;) {
      if (isTerminator(this.next())) {
        this.backup();
        break;
      }
    }
    const value = this.consumeText();
    if (value === 'true' || value === 'false') cur.nodes.push({ kind: 'bool', value: value === 'true' });
    else cur.nodes.push({ kind: 'identifier', name: value });
  }

  private parseNumber(cur: ListNode): void {
    const first = this.peek();
    if (first === '+' || first === '-') this.next();
    for (;;) {
      const r = this.next();
      if (r !== '.' && !/^[0-9]$/.test(r)) {
        this.backup();
        break;
      }
    }
    const value = this.consumeText();
    if (/^[+-]?[0-9]+$/.test(value)) cur.nodes.push({ kind: 'int', value: Number(value) });
    else if (/^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)$/.test(value)) cur.nodes.push({ kind: 'float', value: Number(value) });
    else throw new JsonPathError(`cannot parse number ${value}`);
  }

  private parseQuote(cur: ListNode, end: string): void {
    for (;;) {
      const r = this.next();
      if (r === EOF || r === '\n') throw new JsonPathError('unterminated quoted string');
      if (r === '\\') {
        const escaped = this.next();
        if (escaped === EOF || escaped === '\n') throw new JsonPathError('unterminated quoted string');
        continue;
      }
      if (r === end) break;
    }
    cur.nodes.push({ kind: 'text', text: unquote(this.consumeText()) });
  }

  private parseArray(cur: ListNode): void {
    for (;;) {
      const r = this.next();
      if (r === EOF || r === '\n') throw new JsonPathError('unterminated array');
      if (r === ']') break;
    }
    let text = this.consumeText();
    text = text.slice(1, -1);
    if (text === '*') text = ':';
    const parts = text.split(',');
    if (parts.length > 1) {
      cur.nodes.push({ kind: 'union', lists: parts.map((part) => parseAction(`[${part.trim()}]`)) });
      return;
    }
    const dictKey = /^'([^']*)'$/.exec(text);
    if (dictKey) {
      cur.nodes.push(...parseAction(`.${dictKey[1]}`).nodes);
      return;
    }
    const slice = /^(-?\d*)(:-?\d*)?(:-?\d*)?$/.exec(text);
    if (!slice) throw new JsonPathError(`invalid array index ${text}`);
    const groups = [slice[1] ?? '', slice[2] ?? '', slice[3] ?? ''];
    const params: SliceParam[] = [];
    for (let i = 0; i < 3; i++) {
      let raw = groups[i];
      if (raw !== '') {
        if (i > 0) raw = raw.slice(1);
        if (i > 0 && raw === '') params.push({ value: 0, known: false, derived: false });
        else {
          if (!/^-?\d+$/.test(raw)) throw new JsonPathError(`array index ${raw} is not a number`);
          params.push({ value: Number(raw), known: true, derived: false });
        }
      } else if (i === 1) params.push({ value: params[0].value + 1, known: true, derived: true });
      else params.push({ value: 0, known: false, derived: false });
    }
    cur.nodes.push({ kind: 'array', params });
  }

  private parseFilter(cur: ListNode): void {
    this.pos += 3;
    this.consumeText();
    let begin = false;
    let end = false;
    let pair = '';
    for (;;) {
      const r = this.next();
      if (r === EOF || r === '\n') throw new JsonPathError('unterminated filter');
      if (r === '"' || r === "'") {
        if (!begin) {
          begin = true;
          pair = r;
          continue;
        }
        if (this.chars[this.pos - 2] !== '\\' && r === pair) end = true;
      } else if (r === ')' && begin === end) break;
    }
    if (this.next() !== ']') throw new JsonPathError('unclosed array expect ]');
    let text = this.consumeText();
    text = text.slice(0, -2);
    const match = /^([^!<>=]+)([!<>=]+)(.+?)$/s.exec(text);
    if (!match)
      cur.nodes.push({
        kind: 'filter',
        left: parseAction(text),
        right: { kind: 'list', nodes: [] },
        operator: 'exists',
      });
    else
      cur.nodes.push({ kind: 'filter', left: parseAction(match[1]), right: parseAction(match[3]), operator: match[2] });
  }
}

/** Parses `{action}` and returns the action's list. */
function parseAction(action: string): ListNode {
  const root = Parser.parse(`{${action}}`);
  const list = root.nodes.find((n) => n.kind === 'list');
  return (list as ListNode | undefined) ?? { kind: 'list', nodes: [] };
}

/** kube's UnquoteExtend: a Go-quoted string in single or double quotes. */
function unquote(quoted: string): string {
  const body = quoted.slice(1, -1);
  const escapes: Record<string, string> = {
    n: '\n',
    t: '\t',
    r: '\r',
    b: '\b',
    f: '\f',
    v: '\v',
    a: '\x07',
    '\\': '\\',
    '"': '"',
    "'": "'",
  };
  return body.replace(/\\(u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)/g, (_, e: string) => {
    if (e.length > 1) return String.fromCharCode(parseInt(e.slice(1), 16));
    if (e in escapes) return escapes[e];
    throw new JsonPathError(`invalid escape \\${e}`);
  });
}

/** A parsed template: `{.a.b}`, `{.items[*].metadata.name}`, text with actions. */
export class JsonPath {
  private constructor(private readonly root: ListNode) {}

  /** Parses a template; throws JsonPathError like kube's parser. */
  static parse(template: string): JsonPath {
    return new JsonPath(Parser.parse(template));
  }

  /** kube's FindResults with AllowMissingKeys: one result list per top-level node. Throws on evaluation errors. */
  findResults(data: unknown): unknown[][] {
    const results: unknown[][] = [];
    for (const node of this.root.nodes) {
      if (node.kind === 'text') results.push([node.text]);
      else results.push(walk([data], node));
    }
    return results;
  }
}

function walk(values: unknown[], node: JsonPathNode): unknown[] {
  switch (node.kind) {
    case 'list':
      return node.nodes.reduce<unknown[]>((current, child) => walk(current, child), values);
    case 'text':
      return [node.text];
    case 'int':
      return [node.value];
    case 'float':
      return [new GoFloat(node.value)];
    case 'bool':
      return [node.value];
    case 'field':
      return evalField(values, node.name);
    case 'array':
      return evalArray(values, node.params);
    case 'wildcard':
      return values.flatMap((v) => (Array.isArray(v) ? v : isMap(v) ? Object.values(v) : []));
    case 'recursive':
      return evalRecursive(values);
    case 'filter':
      return evalFilter(values, node);
    case 'union':
      return node.lists.flatMap((list) => walk(values, list));
    case 'identifier':
      throw new JsonPathError(`unrecognized identifier ${node.name}`);
  }
}

const isNil = (v: unknown) => v === null || v === undefined;
const isMap = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof GoFloat) && !(v instanceof GoByte);

function evalField(values: unknown[], name: string): unknown[] {
  const results: unknown[] = [];
  for (const value of values) {
    if (isMap(value) && Object.prototype.hasOwnProperty.call(value, name) && value[name] !== undefined)
      results.push(value[name]);
  }
  return results;
}

function evalArray(values: unknown[], template: SliceParam[]): unknown[] {
  const results: unknown[] = [];
  for (const value of values) {
    if (isNil(value)) continue;
    if (!Array.isArray(value)) throw new JsonPathError(`${goTypeName(value)} is not array or slice`);
    const params = template.map((p) => ({ ...p }));
    const length = value.length;
    if (!params[0].known) params[0].value = 0;
    if (params[0].value < 0) params[0].value += length;
    if (!params[1].known) params[1].value = length;
    if (params[1].value < 0 || (params[1].value === 0 && params[1].derived)) params[1].value += length;
    if (params[1].value === params[0].value) return results;
    if (params[0].value >= length || params[0].value < 0)
      throw new JsonPathError(`array index out of bounds: index ${params[0].value}, length ${length}`);
    if (params[1].value > length || params[1].value < 0)
      throw new JsonPathError(`array index out of bounds: index ${params[1].value - 1}, length ${length}`);
    if (params[0].value > params[1].value)
      throw new JsonPathError(`starting index ${params[0].value} is greater than ending index ${params[1].value}`);
    let step = 1;
    if (params[2].known) {
      if (params[2].value <= 0) throw new JsonPathError('step must be > 0');
      step = params[2].value;
    }
    const slice = value.slice(params[0].value, params[1].value);
    for (let i = 0; i < slice.length; i += step) results.push(slice[i]);
  }
  return results;
}

function evalRecursive(values: unknown[]): unknown[] {
  const result: unknown[] = [];
  for (const value of values) {
    if (isNil(value)) continue;
    let children: unknown[] = [];
    if (isMap(value)) children = Object.values(value);
    else if (Array.isArray(value)) children = value;
    else if (typeof value === 'string') children = [...Buffer.from(value, 'utf8')].map((b) => new GoByte(b));
    if (children.length > 0) {
      result.push(value);
      result.push(...evalRecursive(children));
    }
  }
  return result;
}

function evalFilter(values: unknown[], node: Extract<JsonPathNode, { kind: 'filter' }>): unknown[] {
  const results: unknown[] = [];
  for (const value of values) {
    if (!Array.isArray(value))
      throw new JsonPathError(`${goTypeName(value)} is not array or slice and cannot be filtered`);
    for (const item of value) {
      const lefts = walk([item], node.left);
      if (node.operator === 'exists') {
        if (lefts.length > 0) results.push(item);
        continue;
      }
      if (lefts.length === 0) continue;
      if (lefts.length > 1) throw new JsonPathError('can only compare one element at a time');
      const rights = walk([item], node.right);
      if (rights.length === 0) continue;
      if (rights.length > 1) throw new JsonPathError('can only compare one element at a time');
      if (compare(lefts[0], rights[0], node.operator)) results.push(item);
    }
  }
  return results;
}

type BasicKind = 'bool' | 'int' | 'float' | 'string';

/** text/template's basicKind: what Go's template comparisons accept. */
function basicKind(v: unknown): BasicKind {
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'string') return 'string';
  if (v instanceof GoFloat) return 'float';
  if (v instanceof GoByte) return 'int';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  throw new JsonPathError('invalid type for comparison');
}

function numeric(v: unknown): number | string | boolean {
  if (v instanceof GoFloat || v instanceof GoByte) return v.value;
  return v as number | string | boolean;
}

/** text/template's eq/ne/lt/le/gt/ge: same basic kinds only (else an error), bools only for equality. */
function compare(left: unknown, right: unknown, operator: string): boolean {
  const lk = basicKind(left);
  const rk = basicKind(right);
  if (lk !== rk) throw new JsonPathError('incompatible types for comparison');
  const a = numeric(left);
  const b = numeric(right);
  switch (operator) {
    case '==':
      return a === b;
    case '!=':
      return a !== b;
  }
  if (lk === 'bool') throw new JsonPathError('invalid type for comparison');
  switch (operator) {
    case '<':
      return a < b;
    case '>':
      return a > b;
    case '<=':
      return a <= b;
    case '>=':
      return a >= b;
    default:
      throw new JsonPathError(`unrecognized filter operator ${operator}`);
  }
}

function goTypeName(v: unknown): string {
  if (isMap(v)) return 'map[string]interface {}';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  return 'interface {}';
}

/** A result as kube's jsonpath prints it: maps and lists as compact Go JSON, scalars with Go's %v, nil as `<no value>`. */
export function printJsonPathValue(value: unknown): string {
  if (value instanceof GoFloat) return formatGoFloat(value.value);
  if (value instanceof GoByte) return String(value.value);
  if (value === null || value === undefined) return '<no value>';
  if (typeof value === 'object') return goJson(value);
  if (typeof value === 'number')
    return Number.isInteger(value) && Math.abs(value) < 2 ** 63 ? String(BigInt(value)) : formatGoFloat(value);
  return String(value);
}

/** Go's json.Marshal of a decoded JSON value: sorted map keys, `<`, `>`, `&`, U+2028 and U+2029 escaped. */
export function goJson(value: unknown): string {
  const sorted = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sorted);
    if (isMap(v))
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .filter((k) => v[k] !== undefined)
          .map((k) => [k, sorted(v[k])]),
      );
    return v;
  };
  return JSON.stringify(sorted(value))
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** Go's `%v` of a float64 (strconv 'g', shortest digits): exponent form when the exponent is < -4 or ≥ 6. */
export function formatGoFloat(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? '+Inf' : '-Inf';
  if (value === 0) return Object.is(value, -0) ? '-0' : '0';
  const [mantissa, exponentText] = value.toExponential().split('e');
  const exponent = Number(exponentText);
  if (exponent < -4 || exponent >= 6) {
    const sign = exponent < 0 ? '-' : '+';
    const abs = Math.abs(exponent);
    return `${mantissa}e${sign}${abs < 10 ? '0' : ''}${abs}`;
  }
  return String(value);
}
