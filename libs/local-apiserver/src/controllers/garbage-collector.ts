// The garbage collector: ownerReferences with background, foreground and orphan propagation, as kube's GC does.
// It indexes every object by uid and by owner uid from one watch over all of storage.
import type { Logger } from '@gardener-ts/logging';
import type { Registry } from '../registry/registry.js';
import type { ResourceDefinition } from '../registry/types.js';
import type { KubeObject, Storage, StorageEvent, Watch } from '../storage/types.js';
import { internalContext } from '../server/context.js';
import type { ObjectService } from '../server/objects.js';
import { KeyedQueue } from './queue.js';
import { watchPrefix } from './watch-prefix.js';

const ctx = internalContext('generic-garbage-collector');

interface Node {
  key: string;
  uid: string;
  namespace: string;
  name: string;
  owners: { uid: string; blockOwnerDeletion?: boolean }[];
  deleting: boolean;
  finalizers: string[];
}

export class GarbageCollector {
  private readonly byUid = new Map<string, Node>();
  private readonly byKey = new Map<string, Node>();
  private readonly dependents = new Map<string, Set<string>>();
  private readonly queue: KeyedQueue;
  private watch?: Watch;
  private ready = false;

  constructor(
    private readonly storage: Storage,
    private readonly registry: Registry,
    private readonly objects: ObjectService,
    private readonly log: Logger,
  ) {
    this.queue = new KeyedQueue(
      (uid) => this.process(uid),
      (uid, err) => this.log.debug({ err, uid }, 'GC attempt failed, retrying'),
    );
  }

  async start(): Promise<void> {
    this.watch = await watchPrefix(this.storage, '/registry/', (e) => this.observe(e), this.log);
    this.ready = true;
    // Objects whose owners vanished while the server was down.
    for (const node of this.byKey.values()) if (node.owners.length > 0) this.queue.add(node.uid);
  }

  stop(): void {
    this.watch?.stop();
    this.queue.stop();
  }

  idle(): Promise<void> {
    return this.queue.idle();
  }

  private observe(event: StorageEvent): void {
    const meta = event.object.metadata ?? {};
    const previous = this.byKey.get(event.key);
    if (previous) this.unindex(previous);
    if (event.type === 'DELETED') {
      // Dependents of a vanished owner may now be orphans to delete.
      for (const dep of this.dependents.get(meta.uid) ?? []) this.enqueueKey(dep);
      return;
    }
    const node: Node = {
      key: event.key,
      uid: meta.uid,
      namespace: meta.namespace ?? '',
      name: meta.name,
      owners: (meta.ownerReferences ?? []).map((o: KubeObject) => ({
        uid: o.uid,
        blockOwnerDeletion: o.blockOwnerDeletion,
      })),
      deleting: !!meta.deletionTimestamp,
      finalizers: meta.finalizers ?? [],
    };
    this.byKey.set(node.key, node);
    this.byUid.set(node.uid, node);
    for (const o of node.owners) {
      const set = this.dependents.get(o.uid) ?? new Set<string>();
      set.add(node.key);
      this.dependents.set(o.uid, set);
    }
    if (!this.ready) return;
    if (node.deleting && (node.finalizers.includes('orphan') || node.finalizers.includes('foregroundDeletion')))
      this.queue.add(node.uid);
    if (node.owners.length > 0) this.queue.add(node.uid);
    // A dependent that went away may unblock its foreground-deleting owner.
    for (const o of previous?.owners ?? []) if (this.byUid.get(o.uid)?.deleting) this.queue.add(o.uid);
  }

  private unindex(node: Node): void {
    this.byKey.delete(node.key);
    if (this.byUid.get(node.uid) === node) this.byUid.delete(node.uid);
    for (const o of node.owners) {
      const set = this.dependents.get(o.uid);
      set?.delete(node.key);
      if (set && set.size === 0) this.dependents.delete(o.uid);
    }
    for (const o of node.owners) if (this.byUid.get(o.uid)?.deleting) this.queue.add(o.uid);
  }

  private enqueueKey(key: string): void {
    const node = this.byKey.get(key);
    if (node) this.queue.add(node.uid);
  }

  private async process(uid: string): Promise<void> {
    const node = this.byUid.get(uid);
    if (!node) return;
    const def = this.definitionOf(node.key);
    if (!def) return;
    if (node.deleting && node.finalizers.includes('orphan')) return this.orphanDependents(node, def);
    if (node.deleting && node.finalizers.includes('foregroundDeletion')) return this.deleteForeground(node, def);
    if (node.owners.length > 0 && !node.deleting) {
      const live = node.owners.filter((o) => this.byUid.has(o.uid));
      if (live.length === 0) {
        await this.objects
          .delete(def, node.namespace, node.name, { propagationPolicy: 'Background', preconditions: { uid } }, ctx)
          .catch(ignoreGone);
      } else if (
        live.every(
          (o) => this.byUid.get(o.uid)!.deleting && this.byUid.get(o.uid)!.finalizers.includes('foregroundDeletion'),
        )
      ) {
        await this.objects
          .delete(def, node.namespace, node.name, { propagationPolicy: 'Foreground', preconditions: { uid } }, ctx)
          .catch(ignoreGone);
      }
    }
  }

  /** Orphan: remove the owner's reference from every dependent, then the `orphan` finalizer. */
  private async orphanDependents(node: Node, def: ResourceDefinition): Promise<void> {
    for (const key of [...(this.dependents.get(node.uid) ?? [])]) {
      const dep = this.byKey.get(key);
      const depDef = this.definitionOf(key);
      if (!dep || !depDef) continue;
      const current = await this.objects.get(depDef, dep.namespace, dep.name).catch(() => undefined);
      if (!current) continue;
      const refs = (current.metadata.ownerReferences ?? []).filter((r: KubeObject) => r.uid !== node.uid);
      await this.objects.update(
        depDef,
        dep.namespace,
        dep.name,
        { ...current, metadata: { ...current.metadata, ownerReferences: refs.length ? refs : undefined } },
        ctx,
      );
    }
    await this.removeFinalizer(node, def, 'orphan');
  }

  /** Foreground: delete dependents first; the owner goes once none that blocks it is left. */
  private async deleteForeground(node: Node, def: ResourceDefinition): Promise<void> {
    const deps = [...(this.dependents.get(node.uid) ?? [])].map((k) => this.byKey.get(k)).filter((d): d is Node => !!d);
    for (const dep of deps) {
      const depDef = this.definitionOf(dep.key);
      if (depDef && !dep.deleting) {
        await this.objects
          .delete(
            depDef,
            dep.namespace,
            dep.name,
            { propagationPolicy: 'Foreground', preconditions: { uid: dep.uid } },
            ctx,
          )
          .catch(ignoreGone);
      }
    }
    const blocking = deps.filter((d) => d.owners.some((o) => o.uid === node.uid && o.blockOwnerDeletion));
    if (blocking.length === 0) await this.removeFinalizer(node, def, 'foregroundDeletion');
  }

  private async removeFinalizer(node: Node, def: ResourceDefinition, finalizer: string): Promise<void> {
    const current = await this.objects.get(def, node.namespace, node.name).catch(() => undefined);
    if (!current || current.metadata.uid !== node.uid) return;
    const finalizers = (current.metadata.finalizers ?? []).filter((f: string) => f !== finalizer);
    await this.objects.update(
      def,
      node.namespace,
      node.name,
      { ...current, metadata: { ...current.metadata, finalizers } },
      ctx,
    );
  }

  /** `/registry/<group|core>/<resource>/...` → the storage-version definition. */
  private definitionOf(key: string): ResourceDefinition | undefined {
    const [, , groupSegment, resource] = key.split('/');
    const group = groupSegment === 'core' ? '' : groupSegment;
    const defs = this.registry.versionsOf(group, resource);
    return defs.find((d) => d.version === d.storageVersion) ?? defs[0];
  }
}

function ignoreGone(err: unknown): void {
  const code = (err as { code?: number }).code;
  if (code === 404 || code === 409) return;
  throw err;
}
