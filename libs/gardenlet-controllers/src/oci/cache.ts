// The in-memory cache of pulled chart archives, keyed by `registry/repository@sha256:<manifest digest>` (what Gardener's
// HelmRegistry keys by) and bounded, least recently used first out, by entry count and total bytes — Gardener's cache
// never evicts.

/** A byte- and count-bounded LRU of archives. */
export class ChartCache {
  private readonly items = new Map<string, Buffer>();
  private bytes = 0;

  constructor(
    private readonly maxEntries = 64,
    private readonly maxBytes = 256 * 1024 * 1024,
  ) {}

  /** The archive under `key`, marking it recently used. */
  get(key: string): Buffer | undefined {
    const blob = this.items.get(key);
    if (blob === undefined) return undefined;
    this.items.delete(key);
    this.items.set(key, blob);
    return blob;
  }

  /** Stores `blob`, evicting the least recently used entries beyond the bounds; a blob over maxBytes is not kept. */
  set(key: string, blob: Buffer): void {
    const old = this.items.get(key);
    if (old) {
      this.items.delete(key);
      this.bytes -= old.length;
    }
    if (blob.length > this.maxBytes) return;
    this.items.set(key, blob);
    this.bytes += blob.length;
    for (const [k, v] of this.items) {
      if (this.items.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      this.items.delete(k);
      this.bytes -= v.length;
    }
  }

  /** Entry count and total bytes. */
  get size(): { entries: number; bytes: number } {
    return { entries: this.items.size, bytes: this.bytes };
  }
}
