// "Compare before writing": decides whether an object merged for writing differs from the live object in a way the
// write would change. Fields the API server adds (defaults, status, server-set metadata) are not differences; a
// desired field with another value, or a label/annotation that is added, changed or removed, is.

import { parseQuantity, tryParseQuantity } from '@gardener-ts/api';

type Obj = Record<string, any>;

/** The value of a Kubernetes quantity (`100m`, `1Gi`, `0.5`, `1e3`), or undefined. */
export function quantityValue(q: string | number): number | undefined {
  return parseQuantity(typeof q === 'string' ? q.trim() : q);
}

const QUANTITY_PARENTS = new Set(['requests', 'limits', 'capacity', 'hard', 'overhead', 'allocatable']);

const isPlainObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** True when everything `desired` specifies is present in `current` with an equal value. */
export function isSubset(desired: unknown, current: unknown, key = '', parentKey = ''): boolean {
  if (desired === undefined || desired === null) return true;
  if (Array.isArray(desired)) {
    if (desired.length === 0)
      return current === undefined || current === null || (Array.isArray(current) && current.length === 0);
    if (!Array.isArray(current) || current.length !== desired.length) return false;
    return desired.every((d, i) => isSubset(d, current[i], key, parentKey));
  }
  if (isPlainObject(desired)) {
    if (Object.keys(desired).length === 0) return current === undefined || current === null || isPlainObject(current);
    if (!isPlainObject(current)) return false;
    return Object.entries(desired).every(([k, v]) => isSubset(v, current[k], k, key));
  }
  if (desired === current) return true;
  if (
    (typeof desired === 'string' || typeof desired === 'number') &&
    (typeof current === 'string' || typeof current === 'number')
  ) {
    if (String(desired) === String(current)) return true;
    if (QUANTITY_PARENTS.has(parentKey)) {
      // `1Gi` and `1024Mi` are the same quantity: compared exactly, as kube's Quantity.Cmp.
      const a = tryParseQuantity(desired);
      const b = tryParseQuantity(current);
      return a !== undefined && b !== undefined && a.cmp(b) === 0;
    }
  }
  return false;
}

function sameMap(a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean {
  const ka = Object.keys(a ?? {});
  const kb = Object.keys(b ?? {});
  return ka.length === kb.length && ka.every((k) => (b ?? {})[k] === (a ?? {})[k]);
}

/** Top-level fields the API server fills in on built-in kinds when the writer leaves them out. */
const SERVER_DEFAULTED_TOP_LEVEL: Record<string, string[]> = { Secret: ['type'] };
const OWN_TOP_LEVEL = new Set(['metadata', 'status', 'apiVersion', 'kind']);

function isBuiltInGroup(apiVersion: string | undefined): boolean {
  const group = apiVersion?.includes('/') ? apiVersion.split('/')[0] : '';
  return !group.includes('.') || group.endsWith('.k8s.io');
}

/**
 * Whether writing `merged` (the result of `merge`) would change `current`: a label or annotation differs, a desired
 * field has another value, or (for built-in kinds) a top-level field was added that is not desired, e.g. `data`
 * added to a ConfigMap by hand. Fields added deeper inside (e.g. in `spec`) cannot be told apart from server
 * defaults here; the memory of the last write (last-write.ts) finds those.
 */
export function needsUpdate(merged: Obj, current: Obj): boolean {
  if (!sameMap(merged.metadata?.labels, current.metadata?.labels)) return true;
  if (!sameMap(merged.metadata?.annotations, current.metadata?.annotations)) return true;
  if (isBuiltInGroup(merged.apiVersion)) {
    const defaulted = SERVER_DEFAULTED_TOP_LEVEL[merged.kind] ?? [];
    for (const key of Object.keys(current)) {
      if (OWN_TOP_LEVEL.has(key) || defaulted.includes(key) || key in merged) continue;
      const v = current[key];
      if (v === null || v === undefined || (typeof v === 'object' && Object.keys(v).length === 0)) continue;
      return true;
    }
  }
  for (const [key, value] of Object.entries(merged)) {
    if (key === 'metadata' || key === 'status' || key === 'apiVersion' || key === 'kind') continue;
    if (!isSubset(value, current[key], key, '')) return true;
  }
  return false;
}
