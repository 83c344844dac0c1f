// Which fields an object sets, and which fields a write added, changed or removed, as structured-merge-diff
// computes them from the schema: granular maps descend per key, map lists per item key (`k:{...}`), sets per
// value (`v:...`); atomic maps and lists, lists without list-type information, and scalars are leaves.
import { isAtomicMap, isPlainObject, type SchemaView } from '../../schema/navigate.js';
import type { OpenAPISchema } from '../../schema/types.js';
import { fieldElement, FieldSet, keyElement, valueElement, type FieldPath, type PathElement } from './fieldset.js';
import { jsonEqual as deepEqual } from '../../api/meta.js';

export { deepEqual };

/** How to read an object's structure: its schema (undefined = deduced: all maps granular, all lists atomic). */
export interface Shape {
  view: SchemaView | undefined;
  /** Custom resources are unstructured in kube: every map or list a write adds is marked (`.`) as owned. */
  custom: boolean;
}

/** A position in the schema: the resolved schema (undefined when unknown) and the `$ref` it came from. */
export interface SchemaNode {
  schema: OpenAPISchema | undefined;
  ref?: string;
}

// Built-in structs marked `+structType=atomic` in kube's Go types; the published schemas the server uses here do
// not always carry `x-kubernetes-map-type: atomic` for them.
const ATOMIC_STRUCTS = [
  '.LabelSelector',
  '.OwnerReference',
  '.LocalObjectReference',
  '.ConfigMapKeySelector',
  '.SecretKeySelector',
  '.ObjectFieldSelector',
  '.ResourceFieldSelector',
  '.NodeSelector',
  '.TypedLocalObjectReference',
];

// Built-in struct fields that are Go values (not pointers): an empty object of the kind already has them, so
// writing them never adds the struct itself, only its fields.
const VALUE_STRUCT_FIELDS = new Set([
  'metadata',
  'spec',
  'status',
  'template',
  'strategy',
  'updateStrategy',
  'resources',
]);

export function rootNode(shape: Shape): SchemaNode {
  return shape.view ? resolveNode(shape.view, shape.view.root) : { schema: undefined };
}

function resolveNode(view: SchemaView, raw: OpenAPISchema | undefined): SchemaNode {
  if (!raw) return { schema: undefined };
  let ref = raw.$ref;
  if (!ref && raw.allOf?.length === 1) ref = raw.allOf[0].$ref;
  return { schema: view.resolve(raw), ref };
}

export interface FieldInfo {
  node: SchemaNode;
  /** A declared property (struct field) rather than a key of a map (additionalProperties) or an unknown field. */
  declared: boolean;
  required: boolean;
}

export function fieldInfo(shape: Shape, parent: SchemaNode, key: string): FieldInfo {
  const s = parent.schema;
  if (!shape.view || !s) return { node: { schema: undefined }, declared: false, required: false };
  const property = s.properties?.[key];
  if (property)
    return { node: resolveNode(shape.view, property), declared: true, required: !!s.required?.includes(key) };
  if (typeof s.additionalProperties === 'object') {
    return { node: resolveNode(shape.view, s.additionalProperties), declared: false, required: false };
  }
  return { node: { schema: undefined }, declared: false, required: false };
}

export function itemNode(shape: Shape, list: SchemaNode): SchemaNode {
  if (!shape.view || !list.schema?.items) return { schema: undefined };
  return resolveNode(shape.view, list.schema.items);
}

export function isAtomicObject(shape: Shape, node: SchemaNode): boolean {
  if (!shape.view || !node.schema) return false;
  if (isAtomicMap(shape.view, node.schema)) return true;
  return !!node.ref && ATOMIC_STRUCTS.some((suffix) => node.ref!.endsWith(suffix));
}

export type ListInfo = { type: 'atomic' } | { type: 'set' } | { type: 'map'; keys: string[] };

/**
 * How a list is tracked. `lists` are the list values involved (live, applied): when an item of any of them cannot
 * be keyed (a missing key without default, a duplicate, a non-scalar set item) the list is treated as atomic.
 */
export function listInfo(
  shape: Shape,
  node: SchemaNode,
  key: string,
  parent: SchemaNode,
  lists: unknown[][],
): ListInfo {
  const info = declaredListInfo(shape, node, key, parent);
  if (info.type === 'atomic') return info;
  const item = itemNode(shape, node);
  for (const list of lists) {
    const seen = new Set<string>();
    for (const value of list) {
      const element = itemElement(info, item, value);
      if (element === undefined || seen.has(element)) return { type: 'atomic' };
      seen.add(element);
    }
  }
  return info;
}

function declaredListInfo(shape: Shape, node: SchemaNode, key: string, parent: SchemaNode): ListInfo {
  const s = node.schema;
  if (!shape.view || !s) return { type: 'atomic' };
  const explicit = s['x-kubernetes-list-type'];
  const mergeKey = s['x-kubernetes-patch-merge-key'];
  const strategy = String(s['x-kubernetes-patch-strategy'] ?? '').split(',');
  if (explicit === 'map' || (!explicit && mergeKey)) {
    const keys = s['x-kubernetes-list-map-keys'] ?? (mergeKey ? [mergeKey] : []);
    return keys.length > 0 ? { type: 'map', keys } : { type: 'atomic' };
  }
  if (explicit === 'set') return { type: 'set' };
  if (explicit === 'atomic') return { type: 'atomic' };
  if (strategy.includes('merge')) return { type: 'set' };
  // kube's ObjectMeta.finalizers is `+listType=set`.
  if (key === 'finalizers' && parent.schema?.properties?.ownerReferences) return { type: 'set' };
  return { type: 'atomic' };
}

/** The path element of a list item, or undefined when it cannot be keyed. */
export function itemElement(info: ListInfo, item: SchemaNode, value: unknown): PathElement | undefined {
  if (info.type === 'set') {
    if (value === null || typeof value === 'object') return undefined;
    return valueElement(value);
  }
  if (info.type === 'map') {
    if (!isPlainObject(value)) return undefined;
    const keys: Record<string, unknown> = {};
    for (const k of info.keys) {
      let v = value[k];
      if (v === undefined || v === null) v = item.schema?.properties?.[k]?.default;
      // kube's ContainerPort/ServicePort/EndpointPort protocol keys default to TCP (`+default="TCP"`).
      if ((v === undefined || v === null) && k === 'protocol') v = 'TCP';
      if (v === undefined || v === null) return undefined;
      if (typeof v === 'object') return undefined;
      keys[k] = v;
    }
    return keyElement(keys);
  }
  return undefined;
}

/** Items of a keyed list by element, first occurrence wins, in list order. */
export function indexItems(
  info: ListInfo,
  item: SchemaNode,
  list: unknown[],
): { order: PathElement[]; byElement: Map<PathElement, unknown> } {
  const order: PathElement[] = [];
  const byElement = new Map<PathElement, unknown>();
  for (const value of list) {
    const element = itemElement(info, item, value);
    if (element === undefined || byElement.has(element)) continue;
    byElement.set(element, value);
    order.push(element);
  }
  return { order, byElement };
}

function present(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/** The fields an (applied) object sets: structured-merge-diff's ToFieldSet. */
export function fieldsOf(object: unknown, shape: Shape): FieldSet {
  const set = new FieldSet();
  const walk = (path: PathElement[], value: unknown, node: SchemaNode, key: string, parent: SchemaNode) => {
    if (!present(value) || typeof value !== 'object') {
      set.insert(path);
      return;
    }
    if (Array.isArray(value)) {
      const info = listInfo(shape, node, key, parent, [value]);
      if (info.type === 'atomic' || value.length === 0) {
        set.insert(path);
        return;
      }
      const item = itemNode(shape, node);
      for (const v of value) {
        const element = itemElement(info, item, v)!;
        const itemPath = [...path, element];
        walk(itemPath, v, item, '', node);
        set.insert(itemPath);
      }
      return;
    }
    const map = value as Record<string, unknown>;
    if (isAtomicObject(shape, node) || Object.keys(map).length === 0) {
      set.insert(path);
      return;
    }
    for (const [k, v] of Object.entries(map)) {
      if (v === undefined) continue;
      const child = fieldInfo(shape, node, k);
      const childPath = [...path, fieldElement(k)];
      walk(childPath, v, child.node, k, node);
      if (!child.declared) set.insert(childPath);
    }
  };
  walk([], object, rootNode(shape), '', { schema: undefined });
  return set;
}

export interface Comparison {
  added: FieldSet;
  modified: FieldSet;
  removed: FieldSet;
}

/** What changed from `lhs` to `rhs`: structured-merge-diff's Compare (leaves, and maps and items added or removed). */
export function compareObjects(lhs: unknown, rhs: unknown, shape: Shape): Comparison {
  const result: Comparison = { added: new FieldSet(), modified: new FieldSet(), removed: new FieldSet() };
  const leaf = (path: FieldPath, l: unknown, r: unknown) => {
    if (!present(l)) {
      if (present(r)) result.added.insert(path);
    } else if (!present(r)) result.removed.insert(path);
    else if (!deepEqual(l, r)) result.modified.insert(path);
  };
  const container = (path: FieldPath, l: unknown, r: unknown, marks: boolean) => {
    if (path.length === 0 || !marks) return;
    if (!present(l)) result.added.insert(path);
    else if (!present(r)) result.removed.insert(path);
  };
  interface Where {
    node: SchemaNode;
    key: string;
    parent: SchemaNode;
    item: boolean;
    declared: boolean;
    required: boolean;
  }
  const marks = (where: Where, isList: boolean): boolean => {
    if (shape.custom || where.item || !where.declared || !where.node.schema) return true;
    const s = where.node.schema;
    if (isList) return !where.required;
    if (!s.properties && s.additionalProperties) return true;
    return !where.required && !VALUE_STRUCT_FIELDS.has(where.key);
  };
  const walk = (path: PathElement[], l: unknown, r: unknown, where: Where) => {
    const lv = present(l) ? l : undefined;
    const rv = present(r) ? r : undefined;
    const sample = rv ?? lv;
    const sameKind = lv === undefined || rv === undefined || kindOf(lv) === kindOf(rv);
    if (!sameKind || typeof sample !== 'object' || sample === null) {
      leaf(path, lv, rv);
      return;
    }
    if (Array.isArray(sample)) {
      const ll = (lv as unknown[] | undefined) ?? [];
      const rl = (rv as unknown[] | undefined) ?? [];
      const info = listInfo(shape, where.node, where.key, where.parent, [ll, rl]);
      if (info.type === 'atomic' || (ll.length === 0 && rl.length === 0)) {
        leaf(path, lv, rv);
        return;
      }
      const item = itemNode(shape, where.node);
      const li = indexItems(info, item, ll);
      const ri = indexItems(info, item, rl);
      const elements = [...ri.order, ...li.order.filter((e) => !ri.byElement.has(e))];
      for (const e of elements) {
        walk([...path, e], li.byElement.get(e), ri.byElement.get(e), {
          node: item,
          key: '',
          parent: where.node,
          item: true,
          declared: true,
          required: false,
        });
      }
      container(path, lv, rv, marks(where, true));
      return;
    }
    const lm = (lv as Record<string, unknown> | undefined) ?? {};
    const rm = (rv as Record<string, unknown> | undefined) ?? {};
    if (isAtomicObject(shape, where.node) || (Object.keys(lm).length === 0 && Object.keys(rm).length === 0)) {
      leaf(path, lv, rv);
      return;
    }
    const keys = [...Object.keys(rm), ...Object.keys(lm).filter((k) => !(k in rm))];
    for (const k of keys) {
      if (!present(lm[k]) && !present(rm[k])) continue;
      const child = fieldInfo(shape, where.node, k);
      walk([...path, fieldElement(k)], lm[k], rm[k], {
        node: child.node,
        key: k,
        parent: where.node,
        item: false,
        declared: child.declared,
        required: child.required,
      });
    }
    container(path, lv, rv, where.item || marks(where, false));
  };
  walk([], lhs ?? {}, rhs ?? {}, {
    node: rootNode(shape),
    key: '',
    parent: { schema: undefined },
    item: false,
    declared: true,
    required: true,
  });
  return result;
}

function kindOf(value: unknown): string {
  if (Array.isArray(value)) return 'list';
  if (isPlainObject(value)) return 'map';
  return 'scalar';
}
