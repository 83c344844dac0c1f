import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Seed } from '@gardener-ts/api';
import type { Condition, WallClock } from '@gardener-ts/controller-runtime';
import { conditionThresholdsMs, patchSeedCondition, setToProgressingOr, thresholdFor } from './utils.js';

const NOW = new Date('2026-03-01T12:00:00Z');
const clock: WallClock = { now: () => NOW };
const condition = (status: Condition['status'], ageMs: number, reason = 'Before'): Condition => {
  const at = new Date(NOW.getTime() - ageMs).toISOString().replace('.000Z', 'Z');
  return { type: 'ExtensionsReady', status, reason, message: 'before', lastTransitionTime: at, lastUpdateTime: at };
};

describe('conditionThresholdsMs / thresholdFor', () => {
  it('converts Go durations per type, the first entry of a type winning, and 0 for types without one', () => {
    const t = conditionThresholdsMs([
      { type: 'ExtensionsReady', duration: '1m' },
      { type: 'BackupBucketsReady', duration: '1m30s' },
      { type: 'ExtensionsReady', duration: '5m' },
    ]);
    expect(t).toEqual({ ExtensionsReady: 60_000, BackupBucketsReady: 90_000 });
    expect(thresholdFor(t, 'GardenletReady')).toBe(0);
    expect(conditionThresholdsMs(undefined)).toEqual({});
    expect(() => conditionThresholdsMs([{ type: 'X', duration: 'soon' }])).toThrow(/invalid duration "soon" of X/);
  });
});

describe('setToProgressingOr', () => {
  it('goes Progressing only from True or from Progressing within the threshold, else to the eventual status (property)', () => {
    const statuses = ['True', 'False', 'Unknown', 'Progressing'] as const;
    fc.assert(
      fc.property(
        fc.constantFrom(...statuses),
        fc.constantFrom('False' as const, 'Unknown' as const),
        fc.integer({ min: 0, max: 600_000 }).map((ms) => Math.floor(ms / 1000) * 1000),
        fc.integer({ min: 0, max: 600_000 }).map((ms) => Math.floor(ms / 1000) * 1000),
        (status, eventual, thresholdMs, ageMs) => {
          const out = setToProgressingOr(eventual, condition(status, ageMs), thresholdMs, 'Failing', 'msg', clock);
          const progressing =
            thresholdMs > 0 && (status === 'True' || (status === 'Progressing' && ageMs <= thresholdMs));
          expect(out.status).toBe(progressing ? 'Progressing' : eventual);
          expect(out).toMatchObject({ type: 'ExtensionsReady', reason: 'Failing', message: 'msg' });
          // The transition time moves (to now) only with the status.
          expect(out.lastTransitionTime).toBe(
            out.status !== status ? '2026-03-01T12:00:00Z' : condition(status, ageMs).lastTransitionTime,
          );
        },
      ),
    );
  });
});

describe('patchSeedCondition', () => {
  const seed = (conditions: Condition[]): Seed =>
    ({ metadata: { name: 'local', resourceVersion: '7' }, status: { conditions } }) as unknown as Seed;

  it('patches the merged conditions with the resourceVersion, and nothing when the condition is unchanged', async () => {
    const patches: unknown[] = [];
    const client = { patch: async (...args: unknown[]) => (patches.push(args), {}) } as never;
    const gardenlet = { ...condition('True', 0), type: 'GardenletReady' };
    const ready = condition('True', 0);
    expect(await patchSeedCondition(client, seed([gardenlet, ready]), ready)).toBe(false);
    expect(patches).toEqual([]);

    const failing = condition('False', 0, 'Failing');
    expect(await patchSeedCondition(client, seed([gardenlet, ready]), failing)).toBe(true);
    expect(patches).toEqual([
      [
        expect.objectContaining({ kind: 'Seed' }),
        { name: 'local' },
        { type: 'merge', patch: { metadata: { resourceVersion: '7' }, status: { conditions: [gardenlet, failing] } } },
        { subresource: 'status' },
      ],
    ]);
  });
});
