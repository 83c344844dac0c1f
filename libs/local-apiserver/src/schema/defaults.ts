// Structural defaulting of custom resources: `default` values fill missing fields (and nulls of non-nullable
// fields), deepest objects included, as kube-apiserver does when it decodes a request or reads from storage.
import type { OpenAPISchema } from './types.js';
import { isPlainObject, type SchemaView } from './navigate.js';

export function applyDefaults(view: SchemaView, schema: OpenAPISchema, value: unknown): void {
  const s = view.resolve(schema);
  if (Array.isArray(value)) {
    if (s.items) for (const item of value) applyDefaults(view, s.items, item);
    return;
  }
  if (!isPlainObject(value)) return;
  for (const [key, declared] of Object.entries(s.properties ?? {})) {
    const child = view.resolve(declared);
    if (value[key] === null && !child.nullable) {
      if (child.default !== undefined) value[key] = structuredClone(child.default);
      else delete value[key];
    }
    if (value[key] === undefined && child.default !== undefined) value[key] = structuredClone(child.default);
    if (value[key] !== undefined) applyDefaults(view, child, value[key]);
  }
  if (typeof s.additionalProperties === 'object') {
    for (const key of Object.keys(value))
      if (!s.properties?.[key]) applyDefaults(view, s.additionalProperties, value[key]);
  }
}
