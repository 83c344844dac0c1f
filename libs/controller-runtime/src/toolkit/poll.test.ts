import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pollDelays } from './poll.js';

describe('pollDelays', () => {
  it('starts at 100 ms and doubles up to the interval', () => {
    const delays = pollDelays(1000);
    expect(Array.from({ length: 6 }, () => delays.next().value)).toEqual([100, 200, 400, 800, 1000, 1000]);
  });

  it('never waits longer than the interval, never less than before, and reaches it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 600_000 }), (max) => {
        const delays = pollDelays(max);
        const seen = Array.from({ length: 40 }, () => delays.next().value);
        expect(seen[0]).toBe(Math.min(100, max));
        for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThanOrEqual(seen[i - 1]!);
        expect(Math.max(...seen)).toBe(max);
      }),
    );
  });
});
