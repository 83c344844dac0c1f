import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChartCache } from './cache.js';

describe('ChartCache', () => {
  it('evicts the least recently used entry beyond the entry bound', () => {
    const cache = new ChartCache(2, 1000);
    cache.set('a', Buffer.from('a'));
    cache.set('b', Buffer.from('b'));
    expect(cache.get('a')?.toString()).toBe('a'); // a is now the most recent
    cache.set('c', Buffer.from('c'));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')?.toString()).toBe('a');
    expect(cache.size).toEqual({ entries: 2, bytes: 2 });
  });

  it('never holds more than its bounds, and keeps the newest blob that fits', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c', 'd', 'e'), fc.nat(40)), { maxLength: 30 }),
        (writes) => {
          const cache = new ChartCache(3, 64);
          for (const [key, size] of writes) {
            cache.set(key, Buffer.alloc(size));
            expect(cache.size.entries).toBeLessThanOrEqual(3);
            expect(cache.size.bytes).toBeLessThanOrEqual(64);
            expect(cache.get(key)?.length).toBe(size);
          }
        },
      ),
    );
    const cache = new ChartCache(3, 10);
    cache.set('big', Buffer.alloc(11));
    expect(cache.size).toEqual({ entries: 0, bytes: 0 });
  });
});
