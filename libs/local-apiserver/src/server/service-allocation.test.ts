import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { freeNodePort } from './service-allocation.js';

describe('freeNodePort', () => {
  it('returns a free port of 30000-32767, from the upper band while it has one', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 30000, max: 32767 }), { maxLength: 400 }),
        fc.double({ min: 0, max: 0.999, noNaN: true }),
        (taken, r) => {
          const set = new Set(taken);
          const port = freeNodePort(
            (p) => set.has(p),
            () => r,
          )!;
          expect(port).toBeGreaterThanOrEqual(30086);
          expect(port).toBeLessThanOrEqual(32767);
          expect(set.has(port)).toBe(false);
        },
      ),
    );
  });

  it('falls back to the lower band (30000-30085) when the upper one is full, and to nothing when both are', () => {
    const upperFull = (p: number) => p >= 30086;
    const port = freeNodePort(upperFull)!;
    expect(port).toBeGreaterThanOrEqual(30000);
    expect(port).toBeLessThan(30086);
    expect(freeNodePort(() => true)).toBeUndefined();
  });

  it('spreads allocations: two clusters picking their first port rarely pick the same one', () => {
    const picks = new Set(Array.from({ length: 50 }, () => freeNodePort(() => false)));
    expect(picks.size).toBeGreaterThan(40);
  });
});
