// The parts of Kubernetes' CEL libraries that CRD rules and admission match conditions commonly use, on top of the
// standard functions of @marcbachmann/cel-js:
// - regex: `find`, `findAll`;
// - lists: `isSorted`, `sum`, `min`, `max`, `indexOf`, `lastIndexOf`;
// - URLs: `isURL`, `url(...)` with `getScheme`, `getHost`, `getHostname`, `getPort`, `getEscapedPath`, `getQuery`;
// - quantity: `isQuantity`, `quantity(...)` with `isInteger`, `asInteger`, `asApproximateFloat`, `sign`, `compareTo`,
//   `isGreaterThan`, `isLessThan`, `add`, `sub` (exact, over the Quantity of @gardener-ts/api).
import { Quantity, isQuantity } from '@gardener-ts/api';
import type { Environment } from '@marcbachmann/cel-js';

export type Handler = (...args: any[]) => unknown;

export function fn(
  env: Environment,
  receiverType: string | undefined,
  name: string,
  params: string[],
  returnType: string,
  handler: Handler,
): void {
  env.registerFunction({
    name,
    ...(receiverType ? { receiverType } : {}),
    returnType,
    params: params.map((type, i) => ({ name: `p${i}`, type })),
    handler,
  });
}

// ---- lists ----

const compare = (a: any, b: any): number => (a < b ? -1 : a > b ? 1 : 0);
const sameValue = (a: unknown, b: unknown) => JSON.stringify(a, bigintJson) === JSON.stringify(b, bigintJson);
const bigintJson = (_k: string, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v);

function listLibrary(env: Environment): void {
  fn(env, 'list', 'isSorted', [], 'bool', (l: any[]) => l.every((v, i) => i === 0 || compare(l[i - 1], v) <= 0));
  fn(env, 'list', 'sum', [], 'dyn', (l: any[]) => (l.length === 0 ? 0n : l.reduce((a, b) => a + b)));
  const extreme = (sign: number) => (l: any[]) => {
    if (l.length === 0) throw new Error(`${sign < 0 ? 'min' : 'max'}(list) argument must not be empty`);
    return l.reduce((a, b) => (compare(b, a) * sign > 0 ? b : a));
  };
  fn(env, 'list', 'min', [], 'dyn', extreme(-1));
  fn(env, 'list', 'max', [], 'dyn', extreme(1));
  fn(env, 'list', 'indexOf', ['dyn'], 'int', (l: any[], x: unknown) => BigInt(l.findIndex((v) => sameValue(v, x))));
  fn(env, 'list', 'lastIndexOf', ['dyn'], 'int', (l: any[], x: unknown) => {
    for (let i = l.length - 1; i >= 0; i--) if (sameValue(l[i], x)) return BigInt(i);
    return -1n;
  });
}

// ---- regex ----

function regexLibrary(env: Environment): void {
  fn(env, 'string', 'find', ['string'], 'string', (s: string, re: string) => new RegExp(re, 'u').exec(s)?.[0] ?? '');
  fn(env, 'string', 'findAll', ['string'], 'list<string>', (s: string, re: string) =>
    [...s.matchAll(new RegExp(re, 'gu'))].map((m) => m[0]),
  );
  fn(env, 'string', 'findAll', ['string', 'int'], 'list<string>', (s: string, re: string, n: bigint) => {
    const all = [...s.matchAll(new RegExp(re, 'gu'))].map((m) => m[0]);
    return n < 0n ? all : all.slice(0, Number(n));
  });
}

// ---- URLs (Go's url.Parse for absolute URIs with a scheme) ----

export class KubeURL {
  constructor(readonly url: URL) {}
}

function parseURL(s: string): URL | undefined {
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(s)) return undefined;
  try {
    return new URL(s);
  } catch {
    return undefined;
  }
}

function urlLibrary(env: Environment): void {
  env.registerType('kubernetes.URL', { ctor: KubeURL, fields: {} });
  fn(env, undefined, 'isURL', ['string'], 'bool', (s: string) => parseURL(s) !== undefined);
  fn(env, undefined, 'url', ['string'], 'kubernetes.URL', (s: string) => {
    const u = parseURL(s);
    if (!u) throw new Error(`URL parse error during conversion from string: ${s}`);
    return new KubeURL(u);
  });
  fn(env, 'kubernetes.URL', 'getScheme', [], 'string', (u: KubeURL) => u.url.protocol.replace(/:$/, ''));
  fn(env, 'kubernetes.URL', 'getHost', [], 'string', (u: KubeURL) => u.url.host);
  fn(env, 'kubernetes.URL', 'getHostname', [], 'string', (u: KubeURL) => u.url.hostname.replace(/^\[(.*)\]$/, '$1'));
  fn(env, 'kubernetes.URL', 'getPort', [], 'string', (u: KubeURL) => u.url.port);
  fn(env, 'kubernetes.URL', 'getEscapedPath', [], 'string', (u: KubeURL) => u.url.pathname);
  fn(env, 'kubernetes.URL', 'getQuery', [], 'map<string, list<string>>', (u: KubeURL) => {
    const out: Record<string, string[]> = {};
    for (const [k, v] of u.url.searchParams) (out[k] ??= []).push(v);
    return out;
  });
}

// ---- quantity ----

/** A CEL `kubernetes.Quantity` value. */
export class KubeQuantity {
  constructor(readonly quantity: Quantity) {}
}

function quantityLibrary(env: Environment): void {
  const Q = 'kubernetes.Quantity';
  env.registerType(Q, { ctor: KubeQuantity, fields: {} });
  fn(env, undefined, 'isQuantity', ['string'], 'bool', (s: string) => isQuantity(s));
  // A text that is not a quantity fails with kube's parse error.
  fn(env, undefined, 'quantity', ['string'], Q, (s: string) => new KubeQuantity(Quantity.parse(s)));
  fn(env, Q, 'isInteger', [], 'bool', (q: KubeQuantity) => q.quantity.isInt64());
  fn(env, Q, 'asInteger', [], 'int', (q: KubeQuantity) => {
    if (!q.quantity.isInt64()) throw new Error('cannot convert value to integer');
    return q.quantity.value();
  });
  fn(env, Q, 'asApproximateFloat', [], 'double', (q: KubeQuantity) => q.quantity.asApproximateFloat64());
  fn(env, Q, 'sign', [], 'int', (q: KubeQuantity) => BigInt(q.quantity.sign()));
  fn(env, Q, 'compareTo', [Q], 'int', (a: KubeQuantity, b: KubeQuantity) => BigInt(a.quantity.cmp(b.quantity)));
  fn(env, Q, 'isGreaterThan', [Q], 'bool', (a: KubeQuantity, b: KubeQuantity) => a.quantity.cmp(b.quantity) > 0);
  fn(env, Q, 'isLessThan', [Q], 'bool', (a: KubeQuantity, b: KubeQuantity) => a.quantity.cmp(b.quantity) < 0);
  fn(env, Q, 'add', [Q], Q, (a: KubeQuantity, b: KubeQuantity) => new KubeQuantity(a.quantity.add(b.quantity)));
  fn(env, Q, 'add', ['int'], Q, (a: KubeQuantity, b: bigint) => new KubeQuantity(a.quantity.add(Quantity.of(b))));
  fn(env, Q, 'sub', [Q], Q, (a: KubeQuantity, b: KubeQuantity) => new KubeQuantity(a.quantity.sub(b.quantity)));
  fn(env, Q, 'sub', ['int'], Q, (a: KubeQuantity, b: bigint) => new KubeQuantity(a.quantity.sub(Quantity.of(b))));
}

/** Registers the Kubernetes libraries above on an environment. */
export function registerKubernetesLibraries(env: Environment): Environment {
  listLibrary(env);
  regexLibrary(env);
  urlLibrary(env);
  quantityLibrary(env);
  return env;
}
