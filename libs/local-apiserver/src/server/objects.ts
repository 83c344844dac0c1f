// The object service: kube-apiserver's generic registry semantics for every resource, independent of HTTP.
// create / get / list / update / patch / delete with uid, generateName, resourceVersion, generation, status and
// scale subresources, finalizers and deletion, dry-run, and no-op writes that do not bump the resourceVersion.
import { parse as parseYaml } from 'yaml';
import { ApiError, errors } from '../api/errors.js';
import { generateName, jsonEqual, newUid, now, specPart, validateName } from '../api/meta.js';
import type { ResourceDefinition } from '../registry/types.js';
import {
  StorageError,
  type GetOptions,
  type KubeObject,
  type ListOptions as StorageListOptions,
  type ListResult,
  type Storage,
  type StoredObject,
} from '../storage/types.js';
import type { RequestContext } from './context.js';
import { apiVersionOf, collectionPrefix, decodeContinue, encodeContinue, storageKey } from './keys.js';
import { runPipeline, type Operation, type Pipeline } from './pipeline.js';
import { applyPatch, type PatchType } from './patching.js';
import type { FieldOwnership } from './field-ownership.js';
import type { Schemas } from './schemas.js';
import { compileListFilter, type ListFilter } from './filters.js';
import { getScale, setScale } from './scale.js';
import { itemsToRequestedVersion, toRequestedVersion, toStorageVersion } from './conversion/converter.js';

export interface ListOptions {
  labelSelector?: string;
  fieldSelector?: string;
  limit?: number;
  continue?: string;
  /** "0": any state, may come from the watch cache; N: at least N, or exactly N (see `listRead`). */
  resourceVersion?: string;
  /** Exact or NotOlderThan (the HTTP layer rejects other values and invalid combinations, as kube does). */
  resourceVersionMatch?: string;
}

export interface DeleteOptions {
  propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
  orphanDependents?: boolean;
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
}

export interface ObjectServiceDeps {
  storage: Storage;
  pipeline: Pipeline;
  ownership: FieldOwnership;
  schemas: Schemas;
}

const MAX_RETRIES = 8;

export class ObjectService {
  constructor(private readonly deps: ObjectServiceDeps) {}

  get storage(): Storage {
    return this.deps.storage;
  }

  /**
   * kube's GET semantics for `resourceVersion`: unset the latest (a consistent read); "0" any state (may come from
   * the watch cache); N a state not older than N (a cache waits up to 3 s for it, then kube's 504).
   */
  async get(
    def: ResourceDefinition,
    namespace: string,
    name: string,
    subresource = '',
    resourceVersion?: string,
  ): Promise<KubeObject> {
    const stored = await this.read(def, namespace, name, getFreshness(resourceVersion));
    if (subresource === 'scale') return getScale(def, await toRequestedVersion(def, stored.object));
    return toRequestedVersion(def, stored.object);
  }

  /**
   * kube's LIST semantics: see `listRead` for what resourceVersion, resourceVersionMatch, limit and continue ask of
   * the store. The pages after the first are read at the first page's revision (the continue token carries it).
   */
  async list(def: ResourceDefinition, namespace: string, options: ListOptions = {}): Promise<KubeObject> {
    const filter = compileListFilter(def, options);
    const limit = options.limit && options.limit > 0 ? options.limit : 0;
    const { read, after } = listRead(options, limit);
    const prefix = collectionPrefix(def, namespace || undefined);
    const items: KubeObject[] = [];
    let freshness: ListFreshness = read;
    let start = after;
    let revision = 0;
    let more = false;
    let lastKey = after ?? '';
    let remaining: number | undefined;
    // Selectors filter after reading, so keep reading pages until the limit is filled or the keys run out.
    for (;;) {
      let page: ListResult;
      try {
        page = await this.deps.storage.list({
          prefix,
          limit: limit ? limit - items.length : 0,
          after: start,
          ...freshness,
        });
      } catch (err) {
        throw listReadError(err, options, after);
      }
      if (read.minRevision && page.revision < read.minRevision)
        throw tooLargeResourceVersion(read.minRevision, page.revision);
      revision = revision || page.revision;
      for (const item of page.items) {
        lastKey = item.key;
        if (filter(item.object)) items.push(item.object);
      }
      more = page.more;
      remaining = page.remaining;
      if (!limit || !more || items.length >= limit) break;
      start = lastKey;
      // Later pages of one response show the same state as the first.
      freshness = { atRevision: revision };
    }
    const metadata: KubeObject = { resourceVersion: String(revision) };
    if (limit && more) {
      metadata.continue = encodeContinue(revision, lastKey);
      if (remaining !== undefined && !options.labelSelector && !options.fieldSelector)
        metadata.remainingItemCount = remaining;
    }
    return {
      kind: def.listKind,
      apiVersion: apiVersionOf(def),
      metadata,
      items: await itemsToRequestedVersion(def, items),
    };
  }

  async create(def: ResourceDefinition, namespace: string, body: KubeObject, ctx: RequestContext): Promise<KubeObject> {
    const object = structuredClone(body);
    checkTypeMeta(def, object);
    const meta = (object.metadata ??= {});
    if (def.namespaced) {
      if (meta.namespace && meta.namespace !== namespace) {
        throw errors.badRequest(
          'the namespace of the provided object does not match the namespace sent on the request',
        );
      }
      meta.namespace = namespace;
    } else delete meta.namespace;
    if (!meta.name) {
      if (!meta.generateName) {
        throw errors.invalid(def.kind, def.group, '', [
          {
            field: 'metadata.name',
            reason: 'FieldValueRequired',
            message: 'Required value: name or generateName is required',
          },
        ]);
      }
      meta.name = generateName(meta.generateName);
    }
    const nameProblems = validateName(def.resource, meta.name);
    if (nameProblems.length > 0) throw errors.invalid(def.kind, def.group, meta.name, nameProblems);
    meta.uid = newUid();
    meta.creationTimestamp = now();
    if (def.tracksGeneration) meta.generation = 1;
    else delete meta.generation;
    delete meta.resourceVersion;
    delete meta.deletionTimestamp;
    delete meta.deletionGracePeriodSeconds;
    delete meta.selfLink;
    if (def.subresources.status && def.resource !== 'nodes') delete object.status;
    object.apiVersion = apiVersionOf(def);

    await runPipeline(
      this.deps.pipeline,
      this.writeRequest('CREATE', def, namespace, meta.name, '', object, undefined, ctx),
    );
    if (def.namespaced) await this.checkNamespaceAccepts(namespace);
    this.deps.ownership.recordWrite(def, undefined, object, ctx, '');
    if (ctx.dryRun) {
      // kube's dry-run storage answers a create as the real one would: 409 when the key exists.
      if (await this.deps.storage.get(storageKey(def, namespace, meta.name)))
        throw errors.alreadyExists(def.resource, def.group, meta.name);
      return object;
    }
    try {
      const stored = await this.deps.storage.create(
        storageKey(def, namespace, meta.name),
        await toStorageVersion(def, object),
      );
      return await toRequestedVersion(def, stored.object);
    } catch (err) {
      if (err instanceof StorageError && err.code === 'AlreadyExists')
        throw errors.alreadyExists(def.resource, def.group, meta.name);
      throw mapStorageError(err, def, meta.name);
    }
  }

  /** PUT: replace the object (or its status or scale) subject to resourceVersion preconditions. */
  async update(
    def: ResourceDefinition,
    namespace: string,
    name: string,
    body: KubeObject,
    ctx: RequestContext,
    subresource = '',
  ): Promise<KubeObject> {
    const incoming = structuredClone(body);
    if (subresource !== 'scale') checkTypeMeta(def, incoming);
    if (incoming.metadata?.name && incoming.metadata.name !== name) {
      throw errors.badRequest(
        `the name of the object (${incoming.metadata.name}) does not match the name on the URL (${name})`,
      );
    }
    const precondition: string | undefined = incoming.metadata?.resourceVersion || undefined;
    return this.retryOnConflict(def, storageKey(def, namespace, name), name, precondition, async () => {
      const current = await this.read(def, namespace, name);
      if (precondition && precondition !== String(current.revision))
        throw errors.modified(def.resource, def.group, name);
      const live = await toRequestedVersion(def, current.object);
      const next =
        subresource === 'scale' ? setScale(def, live, incoming) : mergeForUpdate(def, live, incoming, subresource);
      return this.store(def, namespace, name, current, next, ctx, subresource);
    });
  }

  /** PATCH in any of kube's four patch types; server-side apply creates the object when it does not exist. */
  async patch(
    def: ResourceDefinition,
    namespace: string,
    name: string,
    type: PatchType,
    body: string,
    ctx: RequestContext,
    options: { subresource?: string; force?: boolean } = {},
  ): Promise<KubeObject> {
    const subresource = options.subresource ?? '';
    return this.retryOnConflict(def, storageKey(def, namespace, name), name, undefined, async () => {
      const current = await this.deps.storage.get(storageKey(def, namespace, name));
      if (!current) {
        if (type !== 'apply' || subresource !== '') throw errors.notFound(def.resource, def.group, name);
        const applied = this.deps.ownership.apply(def, undefined, parseApplyBody(body), ctx, options.force ?? false);
        applied.metadata = { ...applied.metadata, name, ...(def.namespaced ? { namespace } : {}) };
        return this.create(def, namespace, applied, { ...ctx });
      }
      const converted = await toRequestedVersion(def, current.object);
      // Server-side apply through status or scale returns the whole new object (see FieldOwnership.apply).
      const appliedWhole = type === 'apply' && (subresource === 'status' || subresource === 'scale');
      const patched =
        type === 'apply'
          ? this.deps.ownership.apply(def, converted, parseApplyBody(body), ctx, options.force ?? false, subresource)
          : applyPatch(
              type,
              subresource === 'scale' ? getScale(def, converted) : converted,
              body,
              this.deps.schemas.patchSchema(def),
            );
      const precondition: string | undefined = patched.metadata?.resourceVersion;
      if (precondition && precondition !== String(current.revision))
        throw errors.modified(def.resource, def.group, name);
      if (patched.metadata?.name && patched.metadata.name !== name) {
        throw errors.badRequest(
          `the name of the object (${patched.metadata.name}) does not match the name on the URL (${name})`,
        );
      }
      const next = appliedWhole
        ? patched
        : subresource === 'scale'
          ? setScale(def, converted, patched)
          : mergeForUpdate(def, converted, patched, subresource);
      return this.store(def, namespace, name, current, next, ctx, subresource, type === 'apply');
    });
  }

  /**
   * DELETE: objects with finalizers (or a foreground/orphan propagation, or a graceful pod) get a
   * deletionTimestamp and stay; others are removed at once. Returns the object and whether it is gone.
   */
  async delete(
    def: ResourceDefinition,
    namespace: string,
    name: string,
    options: DeleteOptions,
    ctx: RequestContext,
  ): Promise<{ object: KubeObject; deleted: boolean }> {
    return this.retryOnConflict(def, storageKey(def, namespace, name), name, undefined, async () => {
      const current = await this.read(def, namespace, name);
      const live = await toRequestedVersion(def, current.object);
      const object = structuredClone(live) as KubeObject;
      const meta = object.metadata;
      const pre = options.preconditions;
      if (pre?.uid && pre.uid !== meta.uid) {
        throw errors.conflict(
          def.resource,
          def.group,
          name,
          `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${meta.uid}`,
        );
      }
      if (pre?.resourceVersion && pre.resourceVersion !== meta.resourceVersion) {
        throw errors.conflict(
          def.resource,
          def.group,
          name,
          `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${meta.resourceVersion}`,
        );
      }
      await runPipeline(this.deps.pipeline, this.writeRequest('DELETE', def, namespace, name, '', object, live, ctx));
      const propagation = options.propagationPolicy ?? (options.orphanDependents ? 'Orphan' : undefined);
      const finalizers: string[] = [...(meta.finalizers ?? [])];
      if (!meta.deletionTimestamp) {
        if (propagation === 'Orphan' && !finalizers.includes('orphan')) finalizers.push('orphan');
        if (propagation === 'Foreground' && !finalizers.includes('foregroundDeletion'))
          finalizers.push('foregroundDeletion');
      }
      const grace = gracePeriod(def, object, options);
      if (finalizers.length > 0 || grace > 0 || specFinalizers(def, object).length > 0) {
        if (
          meta.deletionTimestamp &&
          grace >= (meta.deletionGracePeriodSeconds ?? 0) &&
          jsonEqual(finalizers, meta.finalizers ?? [])
        ) {
          return { object: await toRequestedVersion(def, current.object), deleted: false };
        }
        meta.finalizers = finalizers.length > 0 ? finalizers : undefined;
        if (!meta.finalizers) delete meta.finalizers;
        meta.deletionTimestamp =
          meta.deletionTimestamp ?? new Date(Date.now() + grace * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
        meta.deletionGracePeriodSeconds = grace;
        if (meta.generation) meta.generation++;
        if (specFinalizers(def, object).length > 0) object.status = { ...(object.status ?? {}), phase: 'Terminating' };
        if (ctx.dryRun) return { object, deleted: false };
        const stored = await this.deps.storage.update(
          current.key,
          await toStorageVersion(def, object),
          current.revision,
        );
        return { object: await toRequestedVersion(def, stored.object), deleted: false };
      }
      if (ctx.dryRun) return { object: await toRequestedVersion(def, current.object), deleted: true };
      const deleted = await this.deps.storage.delete(current.key, current.revision);
      return { object: await toRequestedVersion(def, deleted.object), deleted: true };
    });
  }

  async deleteCollection(
    def: ResourceDefinition,
    namespace: string,
    listOptions: ListOptions,
    options: DeleteOptions,
    ctx: RequestContext,
  ): Promise<KubeObject> {
    const list = await this.list(def, namespace, {
      labelSelector: listOptions.labelSelector,
      fieldSelector: listOptions.fieldSelector,
    });
    const items: KubeObject[] = [];
    for (const item of list.items as KubeObject[]) {
      try {
        items.push((await this.delete(def, item.metadata.namespace ?? '', item.metadata.name, options, ctx)).object);
      } catch (err) {
        if (!(err instanceof ApiError && err.code === 404)) throw err;
      }
    }
    return { ...list, items };
  }

  /** Filters for watch events; exposed for the watch handler. */
  listFilter(def: ResourceDefinition, options: ListOptions): ListFilter {
    return compileListFilter(def, options);
  }

  private async read(
    def: ResourceDefinition,
    namespace: string,
    name: string,
    options?: GetOptions,
  ): Promise<StoredObject> {
    let stored: StoredObject | undefined;
    try {
      stored = await this.deps.storage.get(storageKey(def, namespace, name), options);
    } catch (err) {
      if (err instanceof StorageError && err.code === 'TooLarge' && options?.minRevision !== undefined) {
        throw tooLargeResourceVersion(options.minRevision, err.currentRevision ?? 0);
      }
      throw err;
    }
    if (!stored) throw errors.notFound(def.resource, def.group, name);
    return stored;
  }

  /** Runs admission, skips no-op writes, finishes deletion when the last finalizer goes, and stores. */
  private async store(
    def: ResourceDefinition,
    namespace: string,
    name: string,
    current: StoredObject,
    next: KubeObject,
    ctx: RequestContext,
    subresource: string,
    applied = false,
  ): Promise<KubeObject> {
    const old = await toRequestedVersion(def, current.object);
    await runPipeline(
      this.deps.pipeline,
      this.writeRequest('UPDATE', def, namespace, name, subresource, next, old, ctx),
      (mutated) => {
        if (def.tracksGeneration && subresource === '' && !jsonEqual(specPart(old), specPart(mutated)))
          mutated.metadata.generation = (old.metadata.generation ?? 0) + 1;
      },
    );
    if (!applied) this.deps.ownership.recordWrite(def, old, next, ctx, subresource);
    // An apply that only adds its manager to fields it shares with others is still written (as kube does).
    if (
      sameExceptManagedFields(old, next) &&
      !(applied && !jsonEqual(old.metadata.managedFields, next.metadata.managedFields))
    )
      return old;
    const finishing =
      next.metadata.deletionTimestamp &&
      !(next.metadata.finalizers?.length > 0) &&
      specFinalizers(def, next).length === 0;
    next.metadata.resourceVersion = String(current.revision);
    if (ctx.dryRun) return next;
    if (finishing) {
      const deleted = await this.deps.storage.delete(current.key, current.revision);
      return toRequestedVersion(def, {
        ...deleted.object,
        metadata: { ...deleted.object.metadata, finalizers: undefined },
      });
    }
    const stored = await this.deps.storage.update(current.key, await toStorageVersion(def, next), current.revision);
    const result = await toRequestedVersion(def, stored.object);
    return subresource === 'scale' ? getScale(def, result) : result;
  }

  private async checkNamespaceAccepts(namespace: string): Promise<void> {
    const ns = await this.deps.storage.get(`/registry/core/namespaces/${namespace}`);
    if (!ns)
      throw new ApiError(404, 'NotFound', `namespaces "${namespace}" not found`, {
        name: namespace,
        kind: 'namespaces',
      });
    if (ns.object.metadata.deletionTimestamp || ns.object.status?.phase === 'Terminating') {
      throw new ApiError(
        403,
        'Forbidden',
        `unable to create new content in namespace ${namespace} because it is being terminated`,
        {
          name: namespace,
          kind: 'namespaces',
          causes: [
            {
              reason: 'NamespaceTerminating',
              message: `namespace ${namespace} is being terminated`,
              field: 'metadata.namespace',
            },
          ],
        },
      );
    }
  }

  /** Storage conflicts without a client precondition are retried with a fresh read, as kube's GuaranteedUpdate does. */
  private async retryOnConflict<T>(
    def: ResourceDefinition,
    key: string,
    name: string,
    precondition: string | undefined,
    fn: () => Promise<T>,
  ): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await fn();
      } catch (err) {
        if (err instanceof StorageError && err.code === 'Conflict') {
          if (precondition || attempt >= MAX_RETRIES) throw errors.modified(def.resource, def.group, name);
          // The write this one lost to may not be readable yet (a group commit in flight): wait for it, then re-read.
          await this.deps.storage.settled?.(key);
          continue;
        }
        if (err instanceof StorageError && err.code === 'NotFound')
          throw errors.notFound(def.resource, def.group, name);
        throw mapStorageError(err, def, name);
      }
    }
  }

  private writeRequest(
    operation: Operation,
    definition: ResourceDefinition,
    namespace: string,
    name: string,
    subresource: string,
    object: KubeObject,
    oldObject: KubeObject | undefined,
    ctx: RequestContext,
  ) {
    return { operation, definition, namespace, name, subresource, object, oldObject, ctx };
  }
}

function checkTypeMeta(def: ResourceDefinition, object: KubeObject): void {
  if (typeof object !== 'object' || object === null || Array.isArray(object)) {
    throw errors.badRequest('the body of the request was not a JSON object');
  }
  const want = apiVersionOf(def);
  if (object.kind !== undefined && object.kind !== def.kind) {
    throw errors.badRequest(`the kind in the data (${object.kind}) does not match the expected kind (${def.kind})`);
  }
  if (object.apiVersion !== undefined && object.apiVersion !== want) {
    throw errors.badRequest(
      `the API version in the data (${object.apiVersion}) does not match the expected API version (${want})`,
    );
  }
  object.kind = def.kind;
  object.apiVersion = want;
  if (object.metadata !== undefined && (typeof object.metadata !== 'object' || Array.isArray(object.metadata))) {
    throw errors.badRequest('metadata must be an object');
  }
}

/** What a PUT/PATCH may change: the main resource leaves status alone, the status subresource only changes status. */
function mergeForUpdate(
  def: ResourceDefinition,
  old: KubeObject,
  incoming: KubeObject,
  subresource: string,
): KubeObject {
  // A uid in the body is a precondition (kube's PatchPodStatus sends one): it names the object the write was meant for.
  const uid = incoming.metadata?.uid;
  if (uid && old.metadata.uid && uid !== old.metadata.uid) {
    throw errors.conflict(
      def.resource,
      def.group,
      old.metadata.name,
      `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${old.metadata.uid}`,
    );
  }
  if (subresource === 'status') {
    const next = structuredClone(old) as KubeObject;
    next.status = incoming.status;
    if (next.status === undefined) delete next.status;
    return next;
  }
  if (subresource === 'approval') {
    // CSR approval: only the conditions (Approved/Denied) change.
    const next = structuredClone(old) as KubeObject;
    next.status = { ...(old.status ?? {}), conditions: incoming.status?.conditions ?? [] };
    return next;
  }
  if (subresource === 'finalize') {
    // Namespace finalize: only spec.finalizers change.
    const next = structuredClone(old) as KubeObject;
    next.spec = { ...(old.spec ?? {}), finalizers: incoming.spec?.finalizers ?? [] };
    return next;
  }
  const next = incoming;
  next.metadata = { ...(next.metadata ?? {}) };
  const meta = next.metadata;
  for (const field of [
    'uid',
    'creationTimestamp',
    'deletionTimestamp',
    'deletionGracePeriodSeconds',
    'generation',
    'name',
    'namespace',
  ]) {
    if (old.metadata[field] === undefined) delete meta[field];
    else meta[field] = old.metadata[field];
  }
  if (meta.managedFields === undefined && old.metadata.managedFields) meta.managedFields = old.metadata.managedFields;
  if (def.subresources.status) {
    if (old.status === undefined) delete next.status;
    else next.status = old.status;
  }
  if (
    old.metadata.deletionTimestamp &&
    (meta.finalizers ?? []).some((f: string) => !(old.metadata.finalizers ?? []).includes(f))
  ) {
    throw new ApiError(
      422,
      'Invalid',
      `${def.kind} "${meta.name}" is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted`,
    );
  }
  return next;
}

/** Namespaces also wait for `spec.finalizers` (the namespace controller's `kubernetes`) before they go. */
function specFinalizers(def: ResourceDefinition, object: KubeObject): string[] {
  return def.group === '' && def.resource === 'namespaces' ? (object.spec?.finalizers ?? []) : [];
}

function sameExceptManagedFields(a: KubeObject, b: KubeObject): boolean {
  const strip = (o: KubeObject) => ({
    ...o,
    metadata: { ...o.metadata, managedFields: undefined, resourceVersion: undefined },
  });
  return jsonEqual(strip(a), strip(b));
}

function gracePeriod(def: ResourceDefinition, object: KubeObject, options: DeleteOptions): number {
  if (def.group !== '' || def.resource !== 'pods') return 0;
  // Pods never bound to a node have no kubelet to stop them: they go at once, as in kube.
  if (!object.spec?.nodeName || object.status?.phase === 'Succeeded' || object.status?.phase === 'Failed') return 0;
  const requested = options.gracePeriodSeconds ?? object.spec?.terminationGracePeriodSeconds ?? 30;
  return Math.max(0, requested);
}

function parseApplyBody(body: string): KubeObject {
  return parseYamlOrJson(body);
}

/** Request bodies may be JSON or YAML (apply patches are YAML). */
export function parseYamlOrJson(text: string): KubeObject {
  let value: unknown;
  try {
    value = text.trimStart().startsWith('{') ? JSON.parse(text) : parseYaml(text);
  } catch (err) {
    throw errors.badRequest(`error decoding request body: ${(err as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw errors.badRequest('error decoding request body: expected a single object');
  }
  return value as KubeObject;
}

/** Which state of the store a list reads. */
type ListFreshness = Pick<StorageListOptions, 'consistent' | 'minRevision' | 'atRevision'>;

/** kube's messages for a list or continue token at a revision the store no longer keeps (etcd3 store). */
const LIST_EXPIRED = 'The resourceVersion for the provided list is too old.';
const CONTINUE_EXPIRED =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without ' +
  'the continue parameter, or use the continue token in this response to retrieve the remainder of the results. ' +
  'Continuing with the provided token results in an inconsistent list - objects that were created, modified, or ' +
  'deleted between the time the first chunk was returned and now may show up in the list.';

/** A 410 whose Status carries a continue token that resumes at the latest revision (kube's fresh-continue hint). */
class ContinueExpiredError extends ApiError {
  constructor(private readonly token: string) {
    super(410, 'Expired', CONTINUE_EXPIRED);
  }

  override toStatus(): Record<string, unknown> {
    return { ...super.toStatus(), metadata: { continue: this.token } };
  }
}

/**
 * What a list asks of the store (kube's ListReadConsistency): a continue token reads exactly at the revision it
 * carries (a token from a 410 hint, revision -1, at the latest); resourceVersionMatch=Exact exactly at N; NotOlderThan
 * "0", or "0" without a match, any state (the watch cache without asking etcd); NotOlderThan N at least N; without a
 * match, N with a limit exactly N (the legacy meaning of a paginated list), N without a limit at least N; nothing the
 * latest.
 */
function listRead(options: ListOptions, limit: number): { read: ListFreshness; after?: string } {
  const rv = options.resourceVersion ?? '';
  const match = options.resourceVersionMatch ?? '';
  if (options.continue) {
    if (rv !== '' && rv !== '0')
      throw errors.badRequest('specifying resource version is not allowed when using continue');
    const token = decodeContinue(options.continue);
    if (!token) throw errors.badRequest('continue key is not valid: illegal base64 data');
    return { read: token.rv > 0 ? { atRevision: token.rv } : {}, after: token.start };
  }
  if (match !== '' && match !== 'Exact' && match !== 'NotOlderThan')
    throw errors.badRequest(`unknown ResourceVersionMatch: ${JSON.stringify(match)}`);
  if (rv === '') return { read: {} };
  if (rv === '0' && match !== 'Exact') return { read: { consistent: false } };
  const revision = parseResourceVersion(rv);
  if (match === 'Exact' || (match === '' && limit > 0)) return { read: { atRevision: revision } };
  return { read: { minRevision: revision } };
}

/** What a GET's resourceVersion asks of the store. */
function getFreshness(rv: string | undefined): GetOptions | undefined {
  if (!rv) return undefined;
  if (rv === '0') return { consistent: false };
  return { minRevision: parseResourceVersion(rv) };
}

/** A resourceVersion as kube's APIObjectVersioner parses it (an unsigned decimal), or kube's 400. */
function parseResourceVersion(rv: string): number {
  const revision = /^[0-9]+$/.test(rv) ? Number(rv) : NaN;
  if (Number.isSafeInteger(revision)) return revision;
  const why = /^[0-9]+$/.test(rv) ? 'value out of range' : 'invalid syntax';
  throw errors.badRequest(
    `invalid resource version: resourceVersion: Invalid value: ${JSON.stringify(rv)}: strconv.ParseUint: parsing ${JSON.stringify(rv)}: ${why}`,
  );
}

/** A list's storage error as kube answers it. */
function listReadError(err: unknown, options: ListOptions, after: string | undefined): unknown {
  if (!(err instanceof StorageError)) return err;
  if (err.code === 'Gone') {
    // A continued list whose revision is gone may go on at the latest revision, inconsistently: kube hands out a
    // token for that in the 410 Status.
    if (options.continue) return new ContinueExpiredError(encodeContinue(-1, after ?? ''));
    return errors.gone(LIST_EXPIRED);
  }
  if (err.code === 'TooLarge') {
    const wanted = options.continue ? decodeContinue(options.continue)?.rv : Number(options.resourceVersion);
    return tooLargeResourceVersion(wanted ?? 0, err.currentRevision ?? 0);
  }
  return new ApiError(503, 'ServiceUnavailable', `storage is unavailable: ${err.message}`);
}

/** kube's answer to a NotOlderThan list the store has not reached (storage.NewTooLargeResourceVersionError). */
function tooLargeResourceVersion(wanted: number, current: number): ApiError {
  return new ApiError(504, 'Timeout', `Timeout: Too large resource version: ${wanted}, current: ${current}`, {
    causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
    retryAfterSeconds: 1,
  });
}

function mapStorageError(err: unknown, def: ResourceDefinition, name: string): unknown {
  if (!(err instanceof StorageError)) return err;
  switch (err.code) {
    case 'NotFound':
      return errors.notFound(def.resource, def.group, name);
    case 'AlreadyExists':
      return errors.alreadyExists(def.resource, def.group, name);
    case 'Conflict':
      return errors.modified(def.resource, def.group, name);
    case 'Gone':
      return errors.gone(err.message);
    default:
      return new ApiError(503, 'ServiceUnavailable', `storage is unavailable: ${err.message}`);
  }
}
