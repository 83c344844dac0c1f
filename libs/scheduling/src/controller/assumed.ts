// Bindings written but not yet seen in the cache. A decision counts them as shoots on their seed (capacity, least
// used), and a reconcile of a shoot bound a moment ago waits for the cache instead of deciding again. Entries end when
// the cache shows the shoot's seed, or after `ttlMs` in case it never does (the next reconcile then sees the truth).
import type { Shoot } from '@gardener-ts/api';

function keyOf(shoot: Shoot): string {
  return shoot.metadata?.uid || `${shoot.metadata?.namespace}/${shoot.metadata?.name}`;
}

export class AssumedBindings {
  private readonly entries = new Map<string, { seed: string; at: number }>();

  constructor(
    private readonly ttlMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  assume(shoot: Shoot, seed: string): void {
    this.entries.set(keyOf(shoot), { seed, at: this.now() });
  }

  forget(shoot: Shoot): void {
    this.entries.delete(keyOf(shoot));
  }

  /** The seed this scheduler bound the shoot to, while the cached shoot does not show it yet. */
  seedOf(shoot: Shoot): string | undefined {
    const key = keyOf(shoot);
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (shoot.spec?.seedName || this.now() - entry.at > this.ttlMs) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.seed;
  }

  get size(): number {
    return this.entries.size;
  }
}
