// Walking an object's schema alongside the object: the child schema of a field or list item, and how a list
// merges (patch strategy, merge key, list type). Shared by patching, field ownership, pruning and validation.
import type { OpenAPISchema, SchemaResolver } from './types.js';

/** A schema with the resolver for its `$ref`s; `root` is the schema of the whole object. */
export interface SchemaView {
  root: OpenAPISchema;
  resolve: SchemaResolver;
}

/** A resolver over named definitions (`#/components/schemas/<name>` or `#/definitions/<name>`). */
export function definitionResolver(definitions: Record<string, OpenAPISchema>): SchemaResolver {
  const resolve: SchemaResolver = (schema) => {
    let s = schema;
    for (let depth = 0; depth < 32; depth++) {
      if (s.$ref) {
        const name = s.$ref.slice(s.$ref.lastIndexOf('/') + 1);
        const target = definitions[name];
        if (!target) return {};
        const { $ref: _ref, ...rest } = s;
        s = Object.keys(rest).length > 0 ? { ...target, ...rest } : target;
        continue;
      }
      if (s.allOf?.length === 1 && !s.type && !s.properties) {
        const { allOf, ...rest } = s;
        s = { ...allOf[0], ...rest };
        continue;
      }
      return s;
    }
    return s;
  };
  return resolve;
}

/** Inline schemas (CRDs) have nothing to resolve. */
export const inlineResolver: SchemaResolver = (schema) => schema;

/** The schema of `key` inside an object schema: a declared property or the additionalProperties schema. */
export function childSchema(
  view: SchemaView,
  schema: OpenAPISchema | undefined,
  key: string,
): OpenAPISchema | undefined {
  if (!schema) return undefined;
  const s = view.resolve(schema);
  const property = s.properties?.[key];
  if (property) return view.resolve(property);
  if (typeof s.additionalProperties === 'object') return view.resolve(s.additionalProperties);
  return undefined;
}

export function itemSchema(view: SchemaView, schema: OpenAPISchema | undefined): OpenAPISchema | undefined {
  if (!schema) return undefined;
  const s = view.resolve(schema);
  return s.items ? view.resolve(s.items) : undefined;
}

/** Whether a schema keeps fields it does not declare (no pruning, no unknown-field errors below it). */
export function preservesUnknown(view: SchemaView, schema: OpenAPISchema | undefined): boolean {
  if (!schema) return true;
  const s = view.resolve(schema);
  return s['x-kubernetes-preserve-unknown-fields'] === true || s.additionalProperties === true;
}

export interface ListSemantics {
  /** `merge`: items merge by key (or as a set for primitives); `replace`: the list is atomic. */
  strategy: 'merge' | 'replace';
  /** The strategic merge patch key (`name`, `containerPort`). */
  mergeKey?: string;
  /** Server-side apply's list type and keys. */
  listType: 'atomic' | 'set' | 'map';
  mapKeys: string[];
  retainKeys: boolean;
}

export function listSemantics(view: SchemaView, schema: OpenAPISchema | undefined): ListSemantics {
  const s = schema ? view.resolve(schema) : {};
  const strategy = String(s['x-kubernetes-patch-strategy'] ?? '');
  const mergeKey = s['x-kubernetes-patch-merge-key'];
  const listType = s['x-kubernetes-list-type'] ?? (mergeKey ? 'map' : 'atomic');
  const mapKeys = s['x-kubernetes-list-map-keys'] ?? (mergeKey ? [mergeKey] : []);
  const merges = strategy.split(',').includes('merge') || listType === 'map' || listType === 'set';
  return {
    strategy: merges ? 'merge' : 'replace',
    mergeKey: mergeKey ?? (listType === 'map' ? mapKeys[0] : undefined),
    listType,
    mapKeys,
    retainKeys: strategy.split(',').includes('retainKeys'),
  };
}

/** Whether a map (object) is atomic for apply and merge: `x-kubernetes-map-type: atomic`. */
export function isAtomicMap(view: SchemaView, schema: OpenAPISchema | undefined): boolean {
  return !!schema && view.resolve(schema)['x-kubernetes-map-type'] === 'atomic';
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
