// PATCH bodies: JSON patch (RFC 6902), JSON merge patch (RFC 7386) and strategic merge patch, each applied to a copy
// of the live object the way kube-apiserver does. Server-side apply ('apply') is handled by field management.
import { errors } from '../api/errors.js';
import type { SchemaView } from '../schema/navigate.js';
import type { KubeObject } from '../storage/types.js';
import { applyJsonPatch } from './patch/json-patch.js';
import { applyMergePatch } from './patch/merge-patch.js';
import { applyStrategicMergePatch } from './patch/strategic.js';

export type PatchType = 'json' | 'merge' | 'strategic' | 'apply';

/** Applies a PATCH body of the given type ('apply' is handled elsewhere — throw if passed) to a copy of `live`. */
export function applyPatch(
  type: PatchType,
  live: KubeObject,
  body: string,
  schema: SchemaView | undefined,
): KubeObject {
  switch (type) {
    case 'json':
      return applyJsonPatch(live, body);
    case 'merge':
      return applyMergePatch(live, body);
    case 'strategic':
      return applyStrategicMergePatch(live, body, schema);
    case 'apply':
      throw errors.internal('apply patches are applied by server-side apply, not applyPatch');
    default:
      throw errors.internal(`unknown patch type: ${String(type)}`);
  }
}
