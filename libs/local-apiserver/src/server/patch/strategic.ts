// Strategic merge patch as kube-apiserver applies it to built-in types (k8s.io/apimachinery strategicpatch with
// MergeParallelList and IgnoreUnmatchedNulls). The schema says how each list merges: by merge key, as a set of
// primitives, or atomically; maps merge unless their patch strategy is `replace`. Without a schema, maps merge and
// lists are replaced. Directives: `$patch` (replace/delete in maps and list items, replace for a whole list),
// `$retainKeys`, `$setElementOrder/<field>` and `$deleteFromPrimitiveList/<field>`.
//
// Where kube copies a patch value verbatim (a new field, a replaced list) and relies on the conversion to the typed
// object to drop leftover directives and nulls, we clean the value ourselves, as we keep objects untyped.
import { ApiError, errors } from '../../api/errors.js';
import type { OpenAPISchema } from '../../schema/types.js';
import type { KubeObject } from '../../storage/types.js';
import { childSchema, isPlainObject, itemSchema, listSemantics, type SchemaView } from '../../schema/navigate.js';
import { deepEqual, goKind, hasOwn, parseJson, put, unprocessable, type JsonMap } from './common.js';

const PATCH = '$patch';
const RETAIN_KEYS = '$retainKeys';
const SET_ORDER = '$setElementOrder/';
const DELETE_FROM_PRIMITIVE_LIST = '$deleteFromPrimitiveList/';

type Schema = OpenAPISchema | undefined;
type ItemKind = 'map' | 'scalar';

export function applyStrategicMergePatch(live: KubeObject, body: string, view: SchemaView | undefined): KubeObject {
  const parsed = parseJson(body);
  if (!parsed.ok) throw errors.badRequest(parsed.message);
  const original = structuredClone(live);
  if (parsed.value === null) return original; // Go decodes `null` into an empty patch
  if (!isPlainObject(parsed.value)) {
    throw errors.badRequest(
      `json: cannot unmarshal ${goKind(parsed.value)} into Go value of type map[string]interface {}`,
    );
  }
  return new StrategicMerge(view).mergeMap(original, parsed.value, view?.root);
}

function isDirectiveKey(key: string): boolean {
  return (
    key === PATCH || key === RETAIN_KEYS || key.startsWith(SET_ORDER) || key.startsWith(DELETE_FROM_PRIMITIVE_LIST)
  );
}

/** A patch value taken as is: directives and null members dropped, as the typed round trip in kube would. */
export function stripDirectives(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripDirectives);
  if (!isPlainObject(value)) return value;
  const out: JsonMap = {};
  for (const [key, member] of Object.entries(value)) {
    if (member !== null && !isDirectiveKey(key)) put(out, key, stripDirectives(member));
  }
  return out;
}

function internal(message: string): ApiError {
  return errors.internal(message);
}

function noMergeKey(item: JsonMap, mergeKey: string): ApiError {
  return internal(`map: ${JSON.stringify(item)} does not contain declared merge key: ${mergeKey}`);
}

class StrategicMerge {
  constructor(private readonly view: SchemaView | undefined) {}

  // --- maps -------------------------------------------------------------------------------------------------------

  /** Merges `patch` into `original` (both owned by us; both are changed) and returns the result. */
  mergeMap(original: JsonMap, patch: JsonMap, schema: Schema): JsonMap {
    if (hasOwn(patch, PATCH)) {
      const directive = patch[PATCH];
      delete patch[PATCH];
      if (directive === 'replace') return stripDirectives(patch) as JsonMap;
      if (directive === 'delete') return {};
      // kube rejects `$patch: merge` in a map; merging is what it means, so we accept it.
      if (directive !== 'merge')
        throw internal(`unknown patch type: ${String(directive)} in map: ${JSON.stringify(patch)}`);
    }
    this.applyRetainKeys(original, patch);
    this.applySetElementOrder(original, patch, schema);

    for (const [patchKey, value] of Object.entries(patch)) {
      const deleteList = patchKey.startsWith(DELETE_FROM_PRIMITIVE_LIST);
      const key = deleteList ? patchKey.slice(DELETE_FROM_PRIMITIVE_LIST.length) : patchKey;
      if (value === null) {
        delete original[key];
        continue;
      }
      const field = this.child(schema, key);
      if (!hasOwn(original, key)) {
        if (!deleteList) put(original, key, this.fresh(value, field));
        continue;
      }
      const current = original[key];
      if (Array.isArray(current) && Array.isArray(value)) {
        put(original, key, this.mergeListField(current, value, field, deleteList));
      } else if (isPlainObject(current) && isPlainObject(value)) {
        put(
          original,
          key,
          this.mapStrategy(field) === 'replace' ? stripDirectives(value) : this.mergeMap(current, value, field),
        );
      } else if (!deleteList) {
        put(original, key, this.fresh(value, field));
      }
    }
    return original;
  }

  /** A patch value for a field the original lacks (or holds with another type): merged into an empty value. */
  private fresh(value: unknown, schema: Schema): unknown {
    if (isPlainObject(value)) return this.mergeMap({}, value, schema);
    if (Array.isArray(value)) return this.mergeListField([], value, schema, false);
    return value;
  }

  /** `$retainKeys`: the map keeps only the listed keys; every key the patch sets must be listed. */
  private applyRetainKeys(original: JsonMap, patch: JsonMap): void {
    if (!hasOwn(patch, RETAIN_KEYS)) return;
    const keys = patch[RETAIN_KEYS];
    delete patch[RETAIN_KEYS];
    if (!Array.isArray(keys)) throw errors.badRequest('invalid patch format of retainKeys');
    const retained = new Set(keys.map(String));
    for (const [key, value] of Object.entries(patch)) {
      if (value === null || key.startsWith(DELETE_FROM_PRIMITIVE_LIST) || key.startsWith(SET_ORDER)) continue;
      if (!retained.has(key)) throw errors.badRequest('invalid patch format of retainKeys');
    }
    for (const key of Object.keys(original)) if (!retained.has(key)) delete original[key];
  }

  /**
   * `$setElementOrder/<field>`: merges the field's patch list now and orders the result like the directive (items
   * only on the server keep their place relative to the others). Consumes the directive and the field's patch list.
   */
  private applySetElementOrder(original: JsonMap, patch: JsonMap, schema: Schema): void {
    for (const [directiveKey, order] of Object.entries(patch)) {
      if (!directiveKey.startsWith(SET_ORDER)) continue;
      delete patch[directiveKey];
      const key = directiveKey.slice(SET_ORDER.length);
      if (!Array.isArray(order)) throw errors.badRequest('invalid patch format of setElementOrder list');
      const patchList = hasOwn(patch, key) ? patch[key] : [];
      if (patchList === null) continue; // the field is deleted below
      if (!Array.isArray(patchList)) throw errors.badRequest('invalid patch format of setElementOrder list');
      const current = hasOwn(original, key) ? original[key] : undefined;
      const originalList = Array.isArray(current) ? current : [];
      if (originalList.length === 0 && patchList.length === 0) {
        delete patch[key];
        continue;
      }
      const field = this.child(schema, key);
      const { mergeKey } = this.listSemanticsOf(field);
      const kind = elementKind(originalList, patchList);
      validateOrder(patchList, order, mergeKey ?? '', kind);
      const merged = this.mergeListField([...originalList], patchList, field, false);
      const [inOrder, serverOnly] = partition(merged, order, mergeKey ?? '', kind);
      put(original, key, normalizeElementOrder(inOrder, serverOnly, order, originalList, mergeKey ?? '', kind));
      delete patch[key];
    }
  }

  // --- lists ------------------------------------------------------------------------------------------------------

  private mergeListField(original: unknown[], patch: unknown[], schema: Schema, deleteList: boolean): unknown[] {
    const semantics = this.listSemanticsOf(schema);
    if (semantics.strategy !== 'merge' && !deleteList) {
      return stripDirectives(patch) as unknown[];
    }
    return this.mergeList(original, patch, this.item(schema), semantics.mergeKey ?? '', deleteList);
  }

  private mergeList(
    original: unknown[],
    patch: unknown[],
    schema: Schema,
    mergeKey: string,
    deleteList: boolean,
  ): unknown[] {
    if (original.length === 0 && patch.length === 0) return original;
    const kind = elementKind(original, patch);
    let merged: unknown[];
    if (kind === 'scalar') {
      if (deleteList) return original.filter((v) => !patch.some((d) => d === v));
      merged = [...new Set([...original, ...patch])];
    } else {
      if (!mergeKey) throw internal('cannot merge lists without merge key');
      const special = applySpecialElements(original as JsonMap[], patch as JsonMap[], mergeKey);
      if (special.replaced) return stripDirectives(special.patch) as unknown[];
      original = special.original;
      patch = special.patch;
      merged = this.mergeByKey(special.original, special.patch, mergeKey, schema);
    }
    const [patchItems, serverOnly] = partition(merged, patch, mergeKey, kind);
    return normalizeElementOrder(patchItems, serverOnly, patch, original, mergeKey, kind);
  }

  /** Patch items merge into the original item with the same merge key value, or are appended. */
  private mergeByKey(original: JsonMap[], patch: JsonMap[], mergeKey: string, schema: Schema): JsonMap[] {
    const merged = [...original];
    for (const item of patch) {
      if (!hasOwn(item, mergeKey)) throw noMergeKey(item, mergeKey);
      const index = merged.findIndex((o) => isPlainObject(o) && deepEqual(o[mergeKey], item[mergeKey]));
      if (index >= 0) merged[index] = this.mergeMap(merged[index]!, item, schema);
      else merged.push(this.mergeMap({}, item, schema));
    }
    return merged;
  }

  // --- schema -----------------------------------------------------------------------------------------------------

  private child(schema: Schema, key: string): Schema {
    return this.view ? childSchema(this.view, schema, key) : undefined;
  }

  private item(schema: Schema): Schema {
    return this.view ? itemSchema(this.view, schema) : undefined;
  }

  private listSemanticsOf(schema: Schema): { strategy: 'merge' | 'replace'; mergeKey?: string } {
    if (!this.view || !schema) return { strategy: 'replace' };
    return listSemantics(this.view, schema);
  }

  private mapStrategy(schema: Schema): 'merge' | 'replace' {
    if (!this.view || !schema) return 'merge';
    const strategy = String(this.view.resolve(schema)['x-kubernetes-patch-strategy'] ?? '');
    return strategy.split(',').includes('replace') ? 'replace' : 'merge';
  }
}

// --- list helpers (pure) --------------------------------------------------------------------------------------------

/** All items of both lists must be maps, or all scalars of one type; lists of lists are not supported. */
function elementKind(...lists: unknown[][]): ItemKind {
  let first: string | undefined;
  for (const list of lists) {
    for (const item of list) {
      const type = Array.isArray(item) ? 'list' : item === null ? 'null' : typeof item;
      if (first === undefined) {
        if (type === 'list') throw unprocessable('lists of lists are not supported');
        first = type;
      } else if (type !== first) {
        throw internal(`list element types are not identical: ${JSON.stringify(lists)}`);
      }
    }
  }
  return first === 'object' ? 'map' : 'scalar';
}

/** `$patch: delete` items remove their key from the original; a `$patch: replace` item replaces the whole list. */
function applySpecialElements(
  original: JsonMap[],
  patch: JsonMap[],
  mergeKey: string,
): { original: JsonMap[]; patch: JsonMap[]; replaced: boolean } {
  const plain: JsonMap[] = [];
  let replaced = false;
  for (const item of patch) {
    if (!hasOwn(item, PATCH)) {
      plain.push(item);
      continue;
    }
    switch (item[PATCH]) {
      case 'delete':
        if (!hasOwn(item, mergeKey)) throw noMergeKey(item, mergeKey);
        original = original.filter((o) => !(isPlainObject(o) && deepEqual(o[mergeKey], item[mergeKey])));
        break;
      case 'replace':
        replaced = true;
        break;
      case 'merge':
        throw internal('merging lists cannot yet be specified in the patch');
      default:
        throw internal(`unknown patch type: ${String(item[PATCH])} in map: ${JSON.stringify(item)}`);
    }
  }
  return { original, patch: plain, replaced };
}

/** The value an item is identified by in ordering: its merge key value for maps, itself for scalars. */
function identity(item: unknown, mergeKey: string, kind: ItemKind): unknown {
  if (kind === 'map') return isPlainObject(item) ? item[mergeKey] : undefined;
  return item;
}

function indexIn(list: unknown[], item: unknown, mergeKey: string, kind: ItemKind): number {
  const id = identity(item, mergeKey, kind);
  return list.findIndex((candidate) => deepEqual(identity(candidate, mergeKey, kind), id));
}

/** Splits `merged` into the items that appear in `list` and the others, keeping their order. */
function partition(merged: unknown[], list: unknown[], mergeKey: string, kind: ItemKind): [unknown[], unknown[]] {
  const inList: unknown[] = [];
  const others: unknown[] = [];
  for (const item of merged) (indexIn(list, item, mergeKey, kind) >= 0 ? inList : others).push(item);
  return [inList, others];
}

/**
 * Sorts the patch items by `patchOrder` and the server-only items by `serverOrder`, then interleaves them: a
 * server-only item goes before the next patch item when the live list had it first.
 */
function normalizeElementOrder(
  patchItems: unknown[],
  serverOnly: unknown[],
  patchOrder: unknown[],
  serverOrder: unknown[],
  mergeKey: string,
  kind: ItemKind,
): unknown[] {
  const right = sortByOrder(patchItems, patchOrder, mergeKey, kind);
  const left = sortByOrder(serverOnly, serverOrder, mergeKey, kind);
  const result: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (j >= right.length) result.push(left[i++]);
    else if (i >= left.length) result.push(right[j++]);
    else {
      const li = indexIn(serverOrder, left[i], mergeKey, kind);
      const ri = indexIn(serverOrder, right[j], mergeKey, kind);
      if (li >= 0 && ri >= 0 && li < ri) result.push(left[i++]);
      else result.push(right[j++]);
    }
  }
  return result;
}

/** Stable sort of the items found in `order` by their position there; items not in `order` keep their slots. */
function sortByOrder(items: unknown[], order: unknown[], mergeKey: string, kind: ItemKind): unknown[] {
  if (kind === 'map') {
    for (const item of [...items, ...order]) {
      if (isPlainObject(item) && !hasOwn(item, mergeKey)) throw noMergeKey(item, mergeKey);
    }
  }
  const positions = items.map((item) => indexIn(order, item, mergeKey, kind));
  const slots = positions.flatMap((p, i) => (p >= 0 ? [i] : []));
  const sorted = slots
    .map((i) => items[i])
    .sort((a, b) => indexIn(order, a, mergeKey, kind) - indexIn(order, b, mergeKey, kind));
  const out = [...items];
  slots.forEach((slot, n) => (out[slot] = sorted[n]));
  const deleted = kind === 'map' ? order.filter((o) => isPlainObject(o) && o[PATCH] === 'delete') : [];
  return out.filter((item) => indexIn(deleted, item, mergeKey, kind) < 0);
}

/** The non-directive patch items must appear in `$setElementOrder` in the same relative order. */
function validateOrder(patchList: unknown[], order: unknown[], mergeKey: string, kind: ItemKind): void {
  if (order.length === 0 || patchList.length === 0) return;
  const items = patchList.filter((item) => !(isPlainObject(item) && hasOwn(item, PATCH)));
  let p = 0;
  let o = 0;
  while (p < items.length && o < order.length) {
    if (deepEqual(identity(items[p], mergeKey, kind), identity(order[o], mergeKey, kind))) p++;
    o++;
  }
  if (p < items.length) {
    throw internal(
      `The order in patch list:\n${JSON.stringify(patchList)}\n doesn't match ${SET_ORDER} list:\n${JSON.stringify(order)}\n`,
    );
  }
}
