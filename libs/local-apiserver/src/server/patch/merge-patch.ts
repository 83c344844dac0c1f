// RFC 7386 JSON merge patch, with the details of evanphx/json-patch (which kube-apiserver uses): values added
// where the target had nothing (or a non-object) are stripped of nulls; arrays replace.
import { errors } from '../../api/errors.js';
import type { KubeObject } from '../../storage/types.js';
import { isPlainObject } from '../../schema/navigate.js';
import { hasOwn, parseJson, put, type JsonMap } from './common.js';

export function applyMergePatch(live: KubeObject, body: string): KubeObject {
  const parsed = parseJson(body);
  if (!parsed.ok || !isPlainObject(parsed.value)) throw errors.badRequest('Invalid JSON Patch');
  return mergeObject(structuredClone(live), parsed.value);
}

/** Merges `patch` into `target` (mutating `target`) and returns it. */
export function mergeObject(target: JsonMap, patch: JsonMap): JsonMap {
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) {
      delete target[key];
      continue;
    }
    const current = hasOwn(target, key) ? target[key] : undefined;
    if (isPlainObject(value) && isPlainObject(current)) mergeObject(current, value);
    else if (isPlainObject(value) || current === undefined || current === null) put(target, key, pruneNulls(value));
    else put(target, key, value);
  }
  return target;
}

/** Drops null members of objects, recursing through objects and arrays (null array items stay). */
export function pruneNulls<T>(value: T): T {
  if (Array.isArray(value)) {
    value.forEach(pruneNulls);
  } else if (isPlainObject(value)) {
    for (const [key, member] of Object.entries(value)) {
      if (member === null) delete value[key];
      else pruneNulls(member);
    }
  }
  return value;
}
