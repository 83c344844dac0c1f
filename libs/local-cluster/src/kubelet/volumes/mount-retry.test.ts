import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FIRST_MOUNT_RETRY_MS, MOUNT_RETRY_MAX_MS, MountRetry } from './mount-retry.js';

describe('MountRetry', () => {
  it('waits 250 ms after the first failure, doubling up to the longest wait, and starts over after a success', () => {
    const retry = new MountRetry(MOUNT_RETRY_MAX_MS);
    expect([retry.delay(), retry.delay(), retry.delay(), retry.delay()]).toEqual([250, 500, 500, 500]);
    retry.reset();
    expect(retry.delay()).toBe(250);
  });

  it('never waits longer than the retry interval nor less than the first wait (or the interval when shorter)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 120_000 }), fc.integer({ min: 1, max: 30 }), (maxMs, failures) => {
        const retry = new MountRetry(maxMs);
        const waits = Array.from({ length: failures }, () => retry.delay());
        expect(waits[0]).toBe(Math.min(FIRST_MOUNT_RETRY_MS, maxMs));
        for (let i = 1; i < waits.length; i++) {
          expect(waits[i]).toBeGreaterThanOrEqual(waits[i - 1]!);
          expect(waits[i]).toBeLessThanOrEqual(maxMs);
        }
      }),
    );
  });
});
