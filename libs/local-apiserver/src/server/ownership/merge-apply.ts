// Server-side apply's object merge: the applied configuration merged into the live object by the schema (granular
// maps per key, map lists per item key, sets per value, everything else replaced), and the pruning of fields a
// manager applied before but applies no longer.
import { isPlainObject } from '../../schema/navigate.js';
import { fieldElement, type FieldSet, type PathElement } from './fieldset.js';
import {
  fieldInfo,
  indexItems,
  isAtomicObject,
  itemNode,
  listInfo,
  rootNode,
  type SchemaNode,
  type Shape,
} from './fields-of.js';

/** `live` merged with `applied`; neither is changed. `null` in the applied configuration removes a field. */
export function mergeApplied(
  live: Record<string, unknown>,
  applied: Record<string, unknown>,
  shape: Shape,
): Record<string, unknown> {
  const merged = mergeValue(live, applied, rootNode(shape), '', { schema: undefined }, shape);
  return isPlainObject(merged) ? merged : {};
}

function mergeValue(
  live: unknown,
  applied: unknown,
  node: SchemaNode,
  key: string,
  parent: SchemaNode,
  shape: Shape,
): unknown {
  if (applied === undefined) return clone(live);
  if (live === undefined || live === null || applied === null) return withoutNulls(applied);
  if (isPlainObject(live) && isPlainObject(applied)) {
    if (isAtomicObject(shape, node)) return withoutNulls(applied);
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(live)) if (v !== undefined) out[k] = clone(v);
    for (const [k, v] of Object.entries(applied)) {
      if (v === undefined) continue;
      if (v === null) {
        delete out[k];
        continue;
      }
      const child = fieldInfo(shape, node, k);
      out[k] = mergeValue(live[k], v, child.node, k, node, shape);
    }
    return out;
  }
  if (Array.isArray(live) && Array.isArray(applied)) {
    const info = listInfo(shape, node, key, parent, [live, applied]);
    if (info.type === 'atomic') return withoutNulls(applied);
    const item = itemNode(shape, node);
    const l = indexItems(info, item, live);
    const r = indexItems(info, item, applied);
    return mergeOrder(l.order, r.order, r.byElement).map((e) =>
      mergeValue(l.byElement.get(e), r.byElement.get(e), item, '', node, shape),
    );
  }
  return withoutNulls(applied);
}

/**
 * The order of a merged keyed list, as structured-merge-diff orders it: applied items in applied order, live-only
 * items kept where they were relative to the shared items.
 */
function mergeOrder(lhsOrder: PathElement[], rhsOrder: PathElement[], rhs: Map<PathElement, unknown>): PathElement[] {
  const lhs = new Set(lhsOrder);
  const shared = rhsOrder.filter((e) => lhs.has(e));
  let nextShared = shared.shift();
  const out: PathElement[] = [];
  let lI = 0;
  let rI = 0;
  while (lI < lhsOrder.length || rI < rhsOrder.length) {
    if (lI < lhsOrder.length && rI < rhsOrder.length) {
      const pe = lhsOrder[lI];
      if (pe === rhsOrder[rI]) {
        out.push(pe);
        lI++;
        rI++;
        nextShared = shared.shift();
        continue;
      }
      if (rhs.has(pe) && nextShared !== undefined && nextShared !== pe) {
        lI++;
        continue;
      }
    }
    if (lI < lhsOrder.length) {
      const pe = lhsOrder[lI];
      if (!rhs.has(pe)) {
        out.push(pe);
        lI++;
        continue;
      }
    }
    if (rI < rhsOrder.length) {
      const pe = rhsOrder[rI];
      out.push(pe);
      rI++;
      if (nextShared !== undefined && nextShared === pe) nextShared = shared.shift();
    }
  }
  return out;
}

/**
 * Removes from `object` (in place) the fields of `previous` (what the manager applied last time) that nobody owns
 * now (`owned`: every manager's fields, the new applied set included). A map or item that still has owned fields
 * below it stays; one that pruning leaves empty goes unless it is owned itself.
 */
export function pruneUnowned(object: Record<string, unknown>, previous: FieldSet, owned: FieldSet, shape: Shape): void {
  const visit = (value: unknown, path: PathElement[], node: SchemaNode, key: string, parent: SchemaNode): void => {
    if (Array.isArray(value)) {
      const info = listInfo(shape, node, key, parent, [value]);
      if (info.type === 'atomic') return;
      const item = itemNode(shape, node);
      const { order, byElement } = indexItems(info, item, value);
      const drop = new Set<unknown>();
      for (const element of order) {
        const child = byElement.get(element);
        const childPath = [...path, element];
        if (!previous.hasAtOrBelow(childPath)) continue;
        if (previous.has(childPath) && !owned.hasAtOrBelow(childPath)) {
          drop.add(child);
          continue;
        }
        if (emptiedBy(child, () => visit(child, childPath, item, '', node)) && !owned.has(childPath)) drop.add(child);
      }
      if (drop.size > 0) {
        const kept = value.filter((v) => !drop.has(v));
        value.splice(0, value.length, ...kept);
      }
      return;
    }
    if (!isPlainObject(value)) return;
    if (path.length > 0 && isAtomicObject(shape, node)) return;
    for (const k of Object.keys(value)) {
      const childPath = [...path, fieldElement(k)];
      if (!previous.hasAtOrBelow(childPath)) continue;
      if (previous.has(childPath) && !owned.hasAtOrBelow(childPath)) {
        delete value[k];
        continue;
      }
      const info = fieldInfo(shape, node, k);
      const child = value[k];
      if (emptiedBy(child, () => visit(child, childPath, info.node, k, node)) && !owned.has(childPath)) delete value[k];
    }
  };
  visit(object, [], rootNode(shape), '', { schema: undefined });
}

/** Runs `prune` on a map or list and tells whether it turned a non-empty container into an empty one. */
function emptiedBy(value: unknown, prune: () => void): boolean {
  const size = (v: unknown) => (Array.isArray(v) ? v.length : isPlainObject(v) ? Object.keys(v).length : -1);
  const before = size(value);
  if (before <= 0) return false;
  prune();
  return size(value) === 0;
}

function clone<T>(value: T): T {
  return value === undefined ? value : structuredClone(value);
}

function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== null && v !== undefined) out[k] = withoutNulls(v);
    return out;
  }
  return value;
}
