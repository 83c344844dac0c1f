// A JSON merge patch (RFC 7386) that turns one JSON value into another: keys that disappear become `null`, objects
// are diffed key by key, everything else is replaced. Used to write `status.state` exactly, not merged into the old one.

import { applyMergePatch } from '@gardener-ts/controller-runtime';

export { applyMergePatch };

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The merge patch that makes `from` equal to `to` (for JSON without `null` values in `to`, which a merge patch
 * cannot express). Undefined when nothing changes.
 */
export function mergePatchFor(from: unknown, to: unknown): unknown {
  if (!isObject(from) || !isObject(to)) return deepEqual(from, to) ? undefined : to;
  const patch: Record<string, unknown> = {};
  for (const key of Object.keys(from)) if (!(key in to)) patch[key] = null;
  for (const [key, value] of Object.entries(to)) {
    if (!(key in from)) {
      patch[key] = value;
      continue;
    }
    const inner = mergePatchFor(from[key], value);
    if (inner !== undefined) patch[key] = inner;
  }
  return Object.keys(patch).length === 0 ? undefined : patch;
}

/** Structural equality of JSON values (key order does not matter). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => deepEqual(v, b[i]));
  }
  if (!isObject(a) || !isObject(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => k in b && deepEqual(a[k], b[k]));
}

export type { Json };
