// Wakes pending shoots when something that could make them fit changes: a seed appears, disappears or changes in a
// way the scheduler reads (not its heartbeat timestamps); a shoot leaves a seed (capacity); a cloud profile, a
// namespaced cloud profile's status or a region config changes. Waking enqueues every pending shoot now, ending its
// back-off; bursts of changes are coalesced into one wake-up.
import type { Seed, Shoot } from '@gardener-ts/api';
import type { InformerEventHandler, KubernetesObject, SharedInformer } from '@gardener-ts/controller-runtime';
import type { SchedulingCache, SchedulingInformers } from './scheduling-cache.js';

/** What of a seed the scheduler reads; heartbeats change only timestamps, which are left out. */
export function seedSchedulingFingerprint(seed: Seed): string {
  return JSON.stringify([
    seed.metadata?.labels ?? {},
    seed.metadata?.deletionTimestamp ?? '',
    seed.spec,
    !!seed.status?.lastOperation,
    (seed.status?.conditions ?? []).map((c) => [c.type, c.status]),
    seed.status?.allocatable ?? {},
  ]);
}

function seedsOf(shoot: Shoot): string[] {
  return [shoot.spec?.seedName ?? '', shoot.status?.seedName ?? ''].filter(Boolean);
}

/** A shoot leaving a seed (deleted, or migrated away) frees capacity there. */
export function shootFreedCapacity(oldShoot: Shoot, newShoot: Shoot | undefined): boolean {
  const before = seedsOf(oldShoot);
  const after = new Set(newShoot ? seedsOf(newShoot) : []);
  return before.some((s) => !after.has(s));
}

export class PendingShootWaker {
  private timer?: NodeJS.Timeout;
  private readonly unregister: (() => void)[] = [];

  constructor(
    private readonly cache: SchedulingCache,
    private readonly enqueue: (shoot: Shoot) => void,
    private readonly delayMs = 100,
  ) {}

  /** Listens to the informers; initial lists do not wake anything (every shoot is reconciled once anyway). */
  watch(informers: SchedulingInformers): this {
    this.on(informers.seeds, (a, b) => !a || !b || seedSchedulingFingerprint(a) !== seedSchedulingFingerprint(b));
    this.on(informers.shoots, (a, b) => !!a && shootFreedCapacity(a, b), { onAdd: false });
    this.on(informers.cloudProfiles, (a, b) => !a || !b || JSON.stringify(a.spec) !== JSON.stringify(b.spec));
    this.on(
      informers.namespacedCloudProfiles,
      (a, b) => !a || !b || JSON.stringify(a.status) !== JSON.stringify(b.status),
    );
    this.on(
      informers.configMaps,
      (a, b) =>
        !a ||
        !b ||
        JSON.stringify([a.data, a.metadata?.annotations]) !== JSON.stringify([b.data, b.metadata?.annotations]),
    );
    return this;
  }

  /** Enqueues every pending shoot soon (coalescing calls within the delay). */
  wake(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      for (const shoot of this.cache.pendingShoots()) this.enqueue(shoot);
    }, this.delayMs);
    this.timer.unref?.();
  }

  stop(): void {
    for (const unregister of this.unregister.splice(0)) unregister();
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** `changed(old, new)`: old is undefined for adds, new is undefined for deletes. */
  private on<T extends KubernetesObject>(
    informer: SharedInformer<T>,
    changed: (oldObj: T | undefined, newObj: T | undefined) => boolean,
    { onAdd = true } = {},
  ): void {
    const handler: InformerEventHandler<T> = {
      onAdd: (obj, initialList) => {
        if (onAdd && !initialList && changed(undefined, obj)) this.wake();
      },
      onUpdate: (oldObj, newObj) => {
        if (changed(oldObj, newObj)) this.wake();
      },
      onDelete: (obj) => {
        if (changed(obj, undefined)) this.wake();
      },
    };
    this.unregister.push(informer.addEventHandler(handler));
  }
}
