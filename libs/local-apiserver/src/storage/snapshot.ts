// An in-memory copy of everything under a storage prefix, kept current by a watch (re-listed when the watch
// ends): for decisions made on every request (RBAC, admission webhooks) without a storage round trip.
import type { Logger } from '@gardener-ts/logging';
import type { KubeObject, Storage, Watch } from './types.js';

export class StorageSnapshot {
  readonly objects = new Map<string, KubeObject>();
  private watch?: Watch;
  private stopped = false;

  constructor(
    private readonly storage: Storage,
    readonly prefix: string,
    private readonly log?: Logger,
  ) {}

  async start(): Promise<void> {
    let after: string | undefined;
    let revision = 0;
    this.objects.clear();
    for (;;) {
      const page = await this.storage.list({ prefix: this.prefix, limit: 500, after });
      revision ||= page.revision;
      for (const item of page.items) this.objects.set(item.key, item.object);
      if (!page.more || page.items.length === 0) break;
      after = page.items[page.items.length - 1].key;
    }
    if (this.stopped) return;
    this.watch = this.storage.watch(
      { prefix: this.prefix, afterRevision: revision },
      (e) => (e.type === 'DELETED' ? this.objects.delete(e.key) : this.objects.set(e.key, e.object)),
      (err) => {
        if (this.stopped) return;
        this.log?.info({ prefix: this.prefix, reason: err.message }, 'Snapshot watch ended, re-listing');
        void this.start().catch((e) => this.log?.error({ err: e }, 'Snapshot re-list failed'));
      },
    );
  }

  stop(): void {
    this.stopped = true;
    this.watch?.stop();
  }

  /** The objects whose keys start with `prefix` (a sub-prefix of this snapshot's). */
  under(prefix: string): KubeObject[] {
    const out: KubeObject[] = [];
    for (const [key, object] of this.objects) if (key.startsWith(prefix)) out.push(object);
    return out;
  }
}
