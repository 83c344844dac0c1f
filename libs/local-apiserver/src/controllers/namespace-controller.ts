// Namespace lifecycle: a deleted namespace is Terminating, everything in it is deleted, then the `kubernetes`
// finalizer is removed and the namespace goes.
import type { Logger } from '@gardener-ts/logging';
import type { Registry } from '../registry/registry.js';
import type { KubeObject, Storage, StorageEvent, Watch } from '../storage/types.js';
import { internalContext } from '../server/context.js';
import type { ObjectService } from '../server/objects.js';
import { collectionPrefix } from '../server/keys.js';
import { KeyedQueue } from './queue.js';
import { watchPrefix } from './watch-prefix.js';

const ctx = internalContext('namespace-controller');
const PREFIX = '/registry/core/namespaces/';

export class NamespaceController {
  private watch?: Watch;
  private readonly queue: KeyedQueue;

  constructor(
    private readonly storage: Storage,
    private readonly registry: Registry,
    private readonly objects: ObjectService,
    private readonly log: Logger,
  ) {
    this.queue = new KeyedQueue(
      (name) => this.reconcile(name),
      (name, err) => this.log.debug({ err, namespace: name }, 'Namespace cleanup pending'),
    );
  }

  async start(): Promise<void> {
    this.watch = await watchPrefix(this.storage, PREFIX, (e) => this.observe(e), this.log);
  }

  stop(): void {
    this.watch?.stop();
    this.queue.stop();
  }

  private observe(event: StorageEvent): void {
    if (event.type !== 'DELETED' && event.object.metadata.deletionTimestamp) this.queue.add(event.object.metadata.name);
  }

  private async reconcile(name: string): Promise<void> {
    const nsDef = this.registry.get('', 'v1', 'namespaces')!;
    const ns = await this.objects.get(nsDef, '', name).catch(() => undefined);
    if (!ns?.metadata.deletionTimestamp) return;
    let remaining = 0;
    const seen = new Set<string>();
    for (const def of this.registry.all()) {
      // One definition per stored resource: its storage version, and not a resource stored as another (events.k8s.io).
      if (!def.namespaced || def.version !== def.storageVersion || def.storage) continue;
      const prefix = collectionPrefix(def, name);
      if (seen.has(prefix)) continue;
      seen.add(prefix);
      const { items } = await this.storage.list({ prefix });
      remaining += items.length;
      for (const item of items) {
        if (item.object.metadata.deletionTimestamp) continue;
        await this.objects
          .delete(def, name, item.object.metadata.name, { propagationPolicy: 'Background' }, ctx)
          .catch(() => undefined);
      }
    }
    if (remaining > 0) {
      await this.setCondition(ns, remaining);
      this.queue.addAfter(name, 250);
      return;
    }
    const latest = await this.objects.get(nsDef, '', name);
    const finalizers = (latest.spec?.finalizers ?? []).filter((f: string) => f !== 'kubernetes');
    await this.objects.update(nsDef, '', name, { ...latest, spec: { ...latest.spec, finalizers } }, ctx, 'finalize');
  }

  private async setCondition(ns: KubeObject, remaining: number): Promise<void> {
    const nsDef = this.registry.get('', 'v1', 'namespaces')!;
    const conditions = [
      {
        type: 'NamespaceContentRemaining',
        status: 'True',
        lastTransitionTime:
          ns.status?.conditions?.find((c: KubeObject) => c.type === 'NamespaceContentRemaining')?.lastTransitionTime ??
          new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
        reason: 'SomeResourcesRemain',
        message: `Some resources are remaining: ${remaining} objects`,
      },
    ];
    await this.objects
      .update(
        nsDef,
        '',
        ns.metadata.name,
        { ...ns, status: { ...ns.status, phase: 'Terminating', conditions } },
        ctx,
        'status',
      )
      .catch(() => undefined);
  }
}
