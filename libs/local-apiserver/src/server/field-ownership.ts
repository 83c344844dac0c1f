// Field ownership (metadata.managedFields) as kube-apiserver keeps it: structured-merge-diff's Update and Apply
// over FieldsV1 field sets. The field-set logic lives in ./ownership/; this is the facade the object service uses.
import { ApiError, errors } from '../api/errors.js';
import { now } from '../api/meta.js';
import type { ResourceDefinition } from '../registry/types.js';
import type { SchemaView } from '../schema/navigate.js';
import { isPlainObject } from '../schema/navigate.js';
import type { KubeObject } from '../storage/types.js';
import type { RequestContext } from './context.js';
import { apiVersionOf } from './keys.js';
import { getScale, setScale } from './scale.js';
import { compareObjects, deepEqual, fieldsOf, type Shape } from './ownership/fields-of.js';
import { fieldElement, FieldSet, pathString, type FieldPath } from './ownership/fieldset.js';
import { mergeApplied, pruneUnowned } from './ownership/merge-apply.js';
import {
  decodeManagedFields,
  describeManager,
  encodeManagedFields,
  isResetRequest,
  managerKey,
  type ManagerEntry,
  type Managers,
} from './ownership/managers.js';

export interface FieldOwnership {
  /** Non-apply writes (create/update/patch): updates next.metadata.managedFields in place — the manager ctx.fieldManager with operation 'Update' gets the fields it changed (create: all fields it set); other managers lose ownership of fields whose value this write changed. subresource '' or 'status' or 'scale' ('scale' maps to the main resource's spec.replicas); entries carry `subresource` when not ''. */
  recordWrite(
    def: ResourceDefinition,
    old: KubeObject | undefined,
    next: KubeObject,
    ctx: RequestContext,
    subresource: string,
  ): void;
  /** Server-side apply (PATCH application/apply-patch+yaml): returns the new object = live merged with `applied`, with managedFields updated (manager ctx.fieldManager, operation 'Apply'). Fields this manager applied before but no longer applies are removed unless another manager owns them. Conflicts (another manager owns a field that `applied` sets to a different value) throw a 409 ApiError with reason 'Conflict' and kube's message (`Apply failed with N conflict(s): conflict with "bob" using v1: .data.key`) and details.causes [{reason:'FieldManagerConflict', message:'conflict with "bob" using v1', field:'.data.key'}] — unless `force`, then ownership moves to the applier. `live` undefined = create. subresource 'status': only status is applied and owned (entry with `subresource: status`), the returned object is `live` with the new status; 'scale': `applied` is an autoscaling/v1 Scale, the returned object is `live` with the new replicas, ownership recorded on the replicas path under the `scale` entry (kube's ScaleHandler); '' (main resource): status is ignored for resources with a status subresource. */
  apply(
    def: ResourceDefinition,
    live: KubeObject | undefined,
    applied: KubeObject,
    ctx: RequestContext,
    force: boolean,
    subresource?: string,
  ): KubeObject;
}

/** What field ownership needs of the server's schemas (structurally satisfied by `Schemas`). */
export interface OwnershipSchemas {
  patchSchema(def: ResourceDefinition): SchemaView | undefined;
}

// kube's stripMeta manager: these exact paths are never owned (their children, e.g. labels, are).
const STRIPPED = new FieldSet(
  [
    ['apiVersion'],
    ['kind'],
    ['metadata'],
    ['metadata', 'name'],
    ['metadata', 'namespace'],
    ['metadata', 'creationTimestamp'],
    ['metadata', 'selfLink'],
    ['metadata', 'uid'],
    ['metadata', 'clusterName'],
    ['metadata', 'generation'],
    ['metadata', 'managedFields'],
    ['metadata', 'resourceVersion'],
  ].map((p) => p.map(fieldElement)),
);

const STATUS: FieldPath = [fieldElement('status')];

export function createFieldOwnership(schemas: OwnershipSchemas): FieldOwnership {
  const shapeOf = (def: ResourceDefinition): Shape => ({ view: schemas.patchSchema(def), custom: !!def.custom });

  /** Limits a set to what a write through `subresource` may own (kube's reset fields). */
  const scope = (def: ResourceDefinition, subresource: string, set: FieldSet): FieldSet => {
    if (subresource === 'status') return set.restrictTo([STATUS]);
    if (subresource === 'scale') return set.restrictTo([replicasPath(def)]);
    if (subresource === '' && def.subresources.status) return set.recursiveDifference(new FieldSet([STATUS]));
    return set;
  };

  return {
    recordWrite(def, old, next, ctx, subresource) {
      const meta = (next.metadata ??= {});
      const provided = meta.managedFields;
      // An object created by server-side apply already carries its applier's entry (kube does not run Update then).
      if (
        !old &&
        Array.isArray(provided) &&
        provided.some((e) => e?.manager === ctx.fieldManager && e?.operation === 'Apply' && !e?.subresource)
      ) {
        return;
      }
      const managers = baseManagers(old, provided, subresource);
      const comparison = compareObjects(withoutManagedFields(old ?? {}), withoutManagedFields(next), shapeOf(def));
      const changed = scope(def, subresource, comparison.added.union(comparison.modified));
      const removed = scope(def, subresource, comparison.removed);
      for (const entry of managers.values()) entry.set = entry.set.difference(changed).difference(removed);
      const taken = changed.difference(STRIPPED);
      if (!taken.empty()) {
        const apiVersion = apiVersionOf(def);
        const key = managerKey(ctx.fieldManager, 'Update', apiVersion, subresource);
        const previous = managers.get(key);
        managers.set(key, {
          manager: ctx.fieldManager,
          operation: 'Update',
          apiVersion,
          subresource,
          time: now(),
          set: previous ? previous.set.union(taken) : taken,
        });
      }
      setManagedFields(next, managers);
    },

    apply(def, live, applied, ctx, force, subresource = '') {
      if (typeof applied !== 'object' || applied === null || Array.isArray(applied))
        throw errors.badRequest('error decoding YAML: the apply patch must be an object');
      if (applied.metadata?.managedFields != null) throw errors.badRequest('metadata.managedFields must be nil');
      const scale = subresource === 'scale' && !!live;
      const expected = scale ? 'autoscaling/v1' : apiVersionOf(def);
      if (applied.apiVersion !== expected) {
        throw errors.badRequest(
          `Incorrect version specified in apply patch. Specified patch version: ${applied.apiVersion ?? ''}, expected: ${expected}`,
        );
      }
      const kind = scale ? 'Scale' : def.kind;
      if (applied.kind !== undefined && applied.kind !== kind) {
        throw errors.badRequest(
          `the kind in the apply patch (${applied.kind}) does not match the expected kind (${kind})`,
        );
      }
      let managers: Managers;
      try {
        managers = decodeManagedFields(live?.metadata?.managedFields);
      } catch {
        managers = new Map();
      }
      const config = withoutManagedFields(applied);
      if (scale) return withPrecondition(applyScale(def, live, config, managers, ctx.fieldManager, force), config);
      const before = withoutManagedFields(live ?? {});
      const merged = applyFields(
        before,
        config,
        managers,
        ctx.fieldManager,
        subresource,
        apiVersionOf(def),
        shapeOf(def),
        force,
        (set) => scope(def, subresource, set),
      );
      let result = merged;
      if (live && subresource === 'status') {
        // A status write changes nothing but status (kube's status strategies reset the rest).
        result = withoutManagedFields(live);
        if (merged.status === undefined) delete result.status;
        else result.status = merged.status;
      } else if (live && subresource === '' && def.subresources.status) {
        // The main resource ignores status for resources with a status subresource.
        if (before.status === undefined) delete result.status;
        else result.status = before.status;
      }
      setManagedFields(result as KubeObject, managers);
      return subresource === 'status' ? withPrecondition(result as KubeObject, config) : (result as KubeObject);
    },
  };
}

/**
 * Server-side apply of `config` onto `before` (both without managedFields) as `manager` through `subresource`:
 * returns the merged object and updates `managers` in place. `limit` restricts a field set to what the write may own.
 */
function applyFields(
  before: Record<string, unknown>,
  config: Record<string, unknown>,
  managers: Managers,
  manager: string,
  subresource: string,
  apiVersion: string,
  shape: Shape,
  force: boolean,
  limit: (set: FieldSet) => FieldSet,
): Record<string, unknown> {
  const key = managerKey(manager, 'Apply', apiVersion, subresource);
  const last = managers.get(key);
  const merged = mergeApplied(before, config, shape);
  const self: ManagerEntry = {
    manager,
    operation: 'Apply',
    apiVersion,
    subresource,
    set: limit(fieldsOf(config, shape)).difference(STRIPPED),
    ...(last?.time ? { time: last.time } : {}),
  };
  managers.set(key, self);
  if (last && !last.set.empty()) {
    let owned = new FieldSet();
    for (const entry of managers.values()) owned = owned.union(entry.set);
    pruneUnowned(merged, last.set, owned, shape);
  }
  const comparison = compareObjects(before, merged, shape);
  const changed = limit(comparison.added.union(comparison.modified));
  const removed = limit(comparison.removed);
  const conflicts: { entry: ManagerEntry; path: FieldPath }[] = [];
  for (const [k, entry] of managers) {
    if (k === key) continue;
    for (const path of entry.set.intersection(changed).list()) conflicts.push({ entry, path });
  }
  if (conflicts.length > 0 && !force) throw conflictError(conflicts);
  for (const [k, entry] of managers) {
    if (k === key) continue;
    entry.set = entry.set.difference(changed).difference(removed);
  }
  if (!changed.empty() || !removed.empty()) self.time = now();
  return merged;
}

const SCALE_REPLICAS: FieldPath = [fieldElement('spec'), fieldElement('replicas')];

/** The main resource's path of the Scale's spec.replicas (the definition's specReplicasPath). */
function replicasPath(def: ResourceDefinition): FieldPath {
  return (def.subresources.scale?.specReplicasPath ?? '.spec.replicas').replace(/^\./, '').split('.').map(fieldElement);
}

/**
 * Apply of an autoscaling/v1 Scale through /scale, as kube's ScaleHandler: the parent's managers of the replicas
 * path become owners of the Scale's spec.replicas, the apply runs on the Scale, and the result is mapped back — the
 * applier (subresource `scale`) owns the replicas path of the parent, parent managers that lost spec.replicas lose it.
 * Returns the parent object with the new replicas and managedFields.
 */
function applyScale(
  def: ResourceDefinition,
  live: KubeObject,
  config: Record<string, unknown>,
  parent: Managers,
  manager: string,
  force: boolean,
): KubeObject {
  const path = replicasPath(def);
  const replicas = new FieldSet([SCALE_REPLICAS]);
  const scaleManagers: Managers = new Map();
  for (const [k, entry] of parent) {
    if (entry.set.has(path)) scaleManagers.set(k, { ...entry, set: replicas });
  }
  const before = withoutManagedFields(getScale(def, live));
  const shape: Shape = { view: undefined, custom: false };
  const merged = applyFields(before, config, scaleManagers, manager, 'scale', 'autoscaling/v1', shape, force, (set) =>
    set.restrictTo([SCALE_REPLICAS]),
  );
  const spec = (merged.spec ?? {}) as Record<string, unknown>;
  const next = setScale(def, withoutManagedFields(live) as KubeObject, { spec: { replicas: spec.replicas ?? 0 } });
  const own = new FieldSet([path]);
  for (const [k, entry] of parent) {
    if (entry.set.has(path) && !scaleManagers.get(k)?.set.has(SCALE_REPLICAS)) entry.set = entry.set.difference(own);
  }
  for (const [k, entry] of scaleManagers) {
    if (!entry.set.has(SCALE_REPLICAS)) continue;
    const existing = parent.get(k);
    if (existing) {
      if (entry.time) existing.time = entry.time;
    } else {
      parent.set(k, { ...entry, apiVersion: apiVersionOf(def), set: own });
    }
  }
  setManagedFields(next, parent);
  return next;
}

function baseManagers(old: KubeObject | undefined, provided: unknown, subresource: string): Managers {
  const live = () => {
    try {
      return decodeManagedFields(old?.metadata?.managedFields);
    } catch {
      return new Map() as Managers;
    }
  };
  // Like kube: managedFields sent with a write of the main resource replace the live ones ([{}] resets them);
  // an empty or missing list keeps the live ones.
  if (subresource !== '' || !Array.isArray(provided) || provided.length === 0) return live();
  if (isResetRequest(provided)) return new Map();
  if (deepEqual(provided, old?.metadata?.managedFields)) return live();
  try {
    return decodeManagedFields(provided);
  } catch {
    return live();
  }
}

/** A subresource apply's result carries the configuration's metadata.resourceVersion (the caller's precondition). */
function withPrecondition(object: KubeObject, config: Record<string, any>): KubeObject {
  const resourceVersion = config.metadata?.resourceVersion;
  if (resourceVersion) object.metadata.resourceVersion = resourceVersion;
  return object;
}

function withoutManagedFields(object: KubeObject): Record<string, unknown> {
  const copy = structuredClone(object) as Record<string, any>;
  if (isPlainObject(copy.metadata)) {
    delete copy.metadata.managedFields;
  }
  return copy;
}

function setManagedFields(object: KubeObject, managers: Managers): void {
  const encoded = encodeManagedFields(managers);
  object.metadata ??= {};
  if (encoded.length > 0) object.metadata.managedFields = encoded;
  else delete object.metadata.managedFields;
}

/** kube's apply conflict: 409 Conflict, one FieldManagerConflict cause per field. */
function conflictError(conflicts: { entry: ManagerEntry; path: FieldPath }[]): ApiError {
  conflicts.sort((a, b) => {
    const ma = describeManager(a.entry);
    const mb = describeManager(b.entry);
    return ma < mb ? -1 : ma > mb ? 1 : 0;
  });
  const causes = conflicts.map((c) => ({
    reason: 'FieldManagerConflict',
    message: `conflict with ${describeManager(c.entry)}`,
    field: pathString(c.path),
  }));
  let message: string;
  if (conflicts.length === 1) {
    message = `Apply failed with 1 conflict: conflict with ${describeManager(conflicts[0].entry)}: ${pathString(conflicts[0].path)}`;
  } else {
    const byManager = new Map<string, string[]>();
    for (const c of conflicts) {
      const name = describeManager(c.entry);
      byManager.set(name, [...(byManager.get(name) ?? []), pathString(c.path)]);
    }
    const lines: string[] = [];
    for (const name of [...byManager.keys()].sort()) {
      lines.push(`conflicts with ${name}:`);
      for (const p of byManager.get(name)!) lines.push(`- ${p}`);
    }
    message = `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
  }
  return new ApiError(409, 'Conflict', message, { causes });
}
