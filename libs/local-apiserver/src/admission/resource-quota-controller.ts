// kube's resource quota controller (kube-controller-manager's `resourcequota`), run inside the API server: it keeps a
// ResourceQuota's `status.hard` equal to `spec.hard` and recalculates `status.used` from the namespace's objects when
// the quota is created or its `spec.hard` changes, when an object of the namespace is deleted or a pod, service or
// claim changes (kube's replenishment), and every 5 minutes (kube's --resource-quota-sync-period). Usage the admission
// step charged for a write that then failed is given back that way, as in kube.
//
// Why in the API server and not in libs/local-cluster's controller manager: the usage comes from storage (one prefix
// list per resource, no discovery of `count/<plural>.<group>` names needed), and every local API server — a bare one
// in tests, a shoot's — then keeps its quotas right, which the admission step's usage depends on.
import { isDeepStrictEqual } from 'node:util';
import { Quantity } from '@gardener-ts/api';
import type { Logger } from '@gardener-ts/logging';
import { KeyedQueue } from '../controllers/queue.js';
import { StorageError, type KubeObject, type Storage, type StorageEvent, type Watch } from '../storage/types.js';
import { objectUsage, quotaIgnores, resourceOfName, type GroupResource } from './quota-usage.js';

const QUOTAS = '/registry/core/resourcequotas/';
/** kube-controller-manager's --resource-quota-sync-period. */
export const QUOTA_RESYNC_MS = 5 * 60_000;
/** Changes of these (a pod turning terminal, a service's type, a claim's size) change usage without a delete. */
const REPLENISHED_ON_UPDATE = new Set([
  '/registry/core/pods/',
  '/registry/core/services/',
  '/registry/core/persistentvolumeclaims/',
]);

/** The status a quota gets: `hard` from its spec, `used` recalculated for every hard name an evaluator computes. */
export function quotaStatus(quota: KubeObject, objectsOf: (gr: GroupResource) => KubeObject[]): KubeObject {
  const hard: Record<string, unknown> = { ...(quota.spec?.hard ?? {}) };
  const previous: Record<string, unknown> = quota.status?.used ?? {};
  const spec = quota.spec ?? {};
  // Scoped quotas select pods by scope, which is not evaluated here: their usage is left as it is.
  const scoped = (spec.scopes ?? []).length > 0 || (spec.scopeSelector?.matchExpressions ?? []).length > 0;
  const used: Record<string, unknown> = {};
  for (const name of Object.keys(hard)) {
    const gr = resourceOfName(name);
    if (scoped || !gr || quotaIgnores(gr)) {
      if (name in previous) used[name] = previous[name];
      continue;
    }
    let sum = Quantity.of(0);
    for (const object of objectsOf(gr)) {
      const q = objectUsage(gr, object).get(name);
      if (q) sum = sum.add(q);
    }
    used[name] = sum.toString();
  }
  return { hard, used };
}

/** The namespace of a namespaced object's key `/registry/<group>/<resource>/<namespace>/<name>`. */
function namespaceOfKey(key: string): string | undefined {
  const parts = key.split('/');
  return parts.length === 6 ? parts[4] : undefined;
}

/** Syncs the status of every ResourceQuota (per namespace: all its quotas at once, from one list per resource). */
export class ResourceQuotaController {
  private readonly queue: KeyedQueue;
  private readonly watches: Watch[] = [];
  /** Namespaces that have (or had, until their next sync) a quota. */
  private readonly namespaces = new Set<string>();
  /** The next periodic sync of each namespace. */
  private readonly resyncs = new Map<string, NodeJS.Timeout>();
  private stopped = false;

  constructor(
    private readonly storage: Storage,
    private readonly log: Logger,
    private readonly resyncMs = QUOTA_RESYNC_MS,
  ) {
    this.queue = new KeyedQueue(
      (namespace) => this.sync(namespace),
      (namespace, err) => this.log.debug({ err, namespace }, 'Resource quota sync failed, retrying'),
    );
  }

  async start(): Promise<void> {
    await this.watchFrom(await this.storage.currentRevision());
  }

  /** Resolves when no namespace is being synced (tests). */
  idle(): Promise<void> {
    return this.queue.idle();
  }

  stop(): void {
    this.stopped = true;
    for (const w of this.watches.splice(0)) w.stop();
    for (const timer of this.resyncs.values()) clearTimeout(timer);
    this.resyncs.clear();
    this.queue.stop();
  }

  private add(namespace: string): void {
    this.namespaces.add(namespace);
    this.queue.add(namespace);
  }

  /** Lists the quotas (a sync of each namespace that has one), then watches the whole store from that revision. */
  private async watchFrom(revision: number): Promise<void> {
    const quotas = await this.storage.list({ prefix: QUOTAS });
    for (const item of quotas.items) this.add(item.object.metadata.namespace);
    const after = Math.max(revision, quotas.revision);
    if (this.stopped) return;
    const restart = (err: StorageError) => {
      if (this.stopped) return;
      this.log.info({ reason: err.message }, 'Resource quota watch ended, re-listing');
      for (const w of this.watches.splice(0)) w.stop();
      setTimeout(() => {
        void this.storage
          .currentRevision()
          .then((r) => this.watchFrom(r))
          .catch((e) => this.log.error({ err: e }, 'Resource quota re-list failed'));
      }, 100).unref();
    };
    this.watches.push(
      this.storage.watch({ prefix: '/registry/', afterRevision: after }, (e) => this.onEvent(e), restart),
    );
  }

  private onEvent(e: StorageEvent): void {
    if (e.key.startsWith(QUOTAS)) {
      // kube's controller syncs a quota when it appears or its limits change, not on its own status writes (nor the
      // admission step's charges, which a sync racing the charged write could undo).
      if (
        e.type === 'ADDED' ||
        (e.type === 'MODIFIED' && !isDeepStrictEqual(e.previous?.spec?.hard, e.object.spec?.hard))
      )
        this.add(e.object.metadata.namespace);
      return;
    }
    const namespace = namespaceOfKey(e.key);
    if (!namespace || !this.namespaces.has(namespace)) return;
    const collection = e.key.slice(0, e.key.lastIndexOf('/', e.key.lastIndexOf('/') - 1) + 1);
    if (e.type === 'DELETED' || (e.type === 'MODIFIED' && REPLENISHED_ON_UPDATE.has(collection)))
      this.queue.add(namespace);
  }

  private async sync(namespace: string): Promise<void> {
    const quotas = (await this.storage.list({ prefix: `${QUOTAS}${namespace}/` })).items;
    clearTimeout(this.resyncs.get(namespace));
    this.resyncs.delete(namespace);
    if (quotas.length === 0) {
      this.namespaces.delete(namespace);
      return;
    }
    const lists = new Map<string, KubeObject[]>();
    for (const { object } of quotas) {
      for (const name of Object.keys(object.spec?.hard ?? {})) {
        const gr = resourceOfName(name);
        const prefix = gr && `/registry/${gr.group || 'core'}/${gr.resource}/${namespace}/`;
        if (prefix && !lists.has(prefix))
          lists.set(
            prefix,
            (await this.storage.list({ prefix })).items.map((i) => i.object),
          );
      }
    }
    for (const { key, revision, object } of quotas) {
      const status = quotaStatus(
        object,
        (gr) => lists.get(`/registry/${gr.group || 'core'}/${gr.resource}/${namespace}/`) ?? [],
      );
      if (isDeepStrictEqual(object.status, status)) continue;
      try {
        await this.storage.update(key, { ...object, status }, revision);
      } catch (err) {
        if (err instanceof StorageError && err.code === 'NotFound') continue;
        // Conflict: written meanwhile (an admission charge); the queue retries with fresh data.
        throw err;
      }
    }
    if (this.stopped) return;
    const timer = setTimeout(() => {
      this.resyncs.delete(namespace);
      this.queue.add(namespace);
    }, this.resyncMs);
    timer.unref();
    this.resyncs.set(namespace, timer);
  }
}
