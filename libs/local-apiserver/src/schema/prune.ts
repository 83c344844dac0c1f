// Pruning of fields a schema does not declare, as kube does for structural CRDs and when decoding built-in
// types; the removed paths feed server-side field validation (`fieldValidation=Strict|Warn`).
import type { OpenAPISchema } from './types.js';
import { isPlainObject, preservesUnknown, type SchemaView } from './navigate.js';

/** Removes undeclared fields from `value` in place and returns their paths (`spec.foo`, `spec.list[0].bar`). */
export function pruneUnknown(view: SchemaView, schema: OpenAPISchema, value: unknown, path = ''): string[] {
  const removed: string[] = [];
  walk(view, schema, value, path, removed);
  return removed;
}

/** Embedded resources (`x-kubernetes-embedded-resource`) always keep their type and object metadata. */
const EMBEDDED = new Set(['apiVersion', 'kind', 'metadata']);

function walk(view: SchemaView, schema: OpenAPISchema, value: unknown, path: string, removed: string[]): void {
  const s = view.resolve(schema);
  if (Array.isArray(value)) {
    if (!s.items) return;
    value.forEach((item, i) => walk(view, s.items!, item, `${path}[${i}]`, removed));
    return;
  }
  if (!isPlainObject(value)) return;
  const keepAll =
    preservesUnknown(view, s) || (!s.properties && s.additionalProperties === undefined && s.type !== 'object');
  for (const key of Object.keys(value)) {
    const declared = s.properties?.[key];
    if (!declared && s['x-kubernetes-embedded-resource'] && EMBEDDED.has(key)) continue;
    const childPath = path ? `${path}.${key}` : key;
    if (declared) walk(view, declared, value[key], childPath, removed);
    else if (typeof s.additionalProperties === 'object')
      walk(view, s.additionalProperties, value[key], `${path}[${key}]`, removed);
    else if (!keepAll) {
      delete value[key];
      removed.push(childPath);
    }
  }
}
