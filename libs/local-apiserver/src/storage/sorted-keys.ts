// An ordered set of strings for the memory index: sorted chunks of at most 2 × CHUNK keys, so an insert or a
// delete moves at most a chunk's worth of entries, and a range is found by two binary searches.
const CHUNK = 512;

export class SortedKeys {
  private chunks: string[][] = [];
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** Adds the key; false when it was there already. */
  insert(key: string): boolean {
    if (this.chunks.length === 0) {
      this.chunks.push([key]);
      this.count = 1;
      return true;
    }
    const c = Math.min(this.chunkFor(key), this.chunks.length - 1);
    const chunk = this.chunks[c];
    const i = search(chunk, key, false);
    if (chunk[i] === key) return false;
    chunk.splice(i, 0, key);
    this.count++;
    if (chunk.length > 2 * CHUNK) this.chunks.splice(c, 1, chunk.slice(0, CHUNK), chunk.slice(CHUNK));
    return true;
  }

  /** Removes the key; false when it was not there. */
  delete(key: string): boolean {
    const c = this.chunkFor(key);
    const chunk = this.chunks[c];
    if (chunk === undefined) return false;
    const i = search(chunk, key, false);
    if (chunk[i] !== key) return false;
    chunk.splice(i, 1);
    this.count--;
    if (chunk.length === 0) this.chunks.splice(c, 1);
    return true;
  }

  /** The position of the first key ≥ `key` (> `key` when `exclusive`); `size` when there is none. */
  position(key: string, exclusive = false): number {
    const c = this.chunkFor(key, exclusive);
    let before = 0;
    for (let i = 0; i < c && i < this.chunks.length; i++) before += this.chunks[i].length;
    const chunk = this.chunks[c];
    return chunk === undefined ? before : before + search(chunk, key, exclusive);
  }

  /** The keys at positions [start, end), in order. */
  slice(start: number, end: number): string[] {
    const out: string[] = [];
    let offset = 0;
    for (const chunk of this.chunks) {
      if (offset + chunk.length > start && offset < end) {
        out.push(...chunk.slice(Math.max(0, start - offset), end - offset));
      }
      offset += chunk.length;
      if (offset >= end) break;
    }
    return out;
  }

  /** The index of the first chunk whose last key is ≥ `key` (> `key` when `exclusive`). */
  private chunkFor(key: string, exclusive = false): number {
    const chunks = this.chunks;
    return bound(chunks.length, (i) => chunks[i][chunks[i].length - 1], key, exclusive);
  }
}

function search(sorted: string[], key: string, exclusive: boolean): number {
  return bound(sorted.length, (i) => sorted[i], key, exclusive);
}

/** The first index in [0, length) whose entry is ≥ `key` (> `key` when `exclusive`), for entries in order. */
function bound(length: number, at: (i: number) => string, key: string, exclusive: boolean): number {
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const entry = at(mid);
    if (entry < key || (exclusive && entry === key)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
