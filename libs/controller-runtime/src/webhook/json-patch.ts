// RFC 6902 JSON patch between two JSON documents: what a mutating webhook returns for "here is the changed object".
import type { JsonPatchOperation } from '../client/options.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Operations that turn `from` into `to`; empty when they are equal. */
export function createJsonPatch(from: unknown, to: unknown): JsonPatchOperation[] {
  const ops: JsonPatchOperation[] = [];
  // Through JSON first: `undefined` properties and class instances (Dates) become what the API server will see.
  diff(toJson(from), toJson(to), '', ops);
  return ops;
}

function diff(a: Json, b: Json, path: string, ops: JsonPatchOperation[]): void {
  if (deepEqual(a, b)) return;
  if (isObject(a) && isObject(b)) {
    for (const key of Object.keys(a)) if (!(key in b)) ops.push({ op: 'remove', path: `${path}/${escape(key)}` });
    for (const key of Object.keys(b)) {
      const child = `${path}/${escape(key)}`;
      if (!(key in a)) ops.push({ op: 'add', path: child, value: b[key] });
      else diff(a[key], b[key], child, ops);
    }
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    const common = Math.min(a.length, b.length);
    for (let i = 0; i < common; i++) diff(a[i], b[i], `${path}/${i}`, ops);
    // Remove from the end first so earlier indexes stay valid.
    for (let i = a.length - 1; i >= b.length; i--) ops.push({ op: 'remove', path: `${path}/${i}` });
    for (let i = a.length; i < b.length; i++) ops.push({ op: 'add', path: `${path}/${i}`, value: b[i] });
    return;
  }
  // The root of an admission object is always an object; replacing it wholesale is still a valid patch.
  ops.push({ op: 'replace', path, value: b });
}

const toJson = (v: unknown): Json => (v === undefined ? null : (JSON.parse(JSON.stringify(v)) as Json));

const isObject = (v: Json): v is { [key: string]: Json } => typeof v === 'object' && v !== null && !Array.isArray(v);

/** RFC 6901: `~` → `~0`, `/` → `~1`. */
const escape = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

function deepEqual(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => k in b && deepEqual(a[k], b[k]));
  }
  return false;
}
