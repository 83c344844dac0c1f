// etcd-backup-restore's snapshot names (decimal revisions padded to 8 digits, unix seconds, compression and final
// suffixes), the store's order and the restore plan.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compareSnapshots,
  compressionSuffix,
  deltaSnapshot,
  fullSnapshot,
  parseSnapshotName,
  restorePlan,
  snapshotName,
  sortSnapshots,
  type Snapshot,
} from './snapshot.js';

const snapshotArb: fc.Arbitrary<Snapshot> = fc
  .record({
    kind: fc.constantFrom<'Full' | 'Incr'>('Full', 'Incr'),
    a: fc.nat({ max: 2 ** 40 }),
    b: fc.nat({ max: 2 ** 40 }),
    createdOn: fc.nat({ max: 2 ** 34 }),
    compressionSuffix: fc.constantFrom('', '.gz', '.Z', '.zlib'),
    final: fc.boolean(),
  })
  .map(({ a, b, ...rest }) => ({ ...rest, startRevision: Math.min(a, b), lastRevision: Math.max(a, b) }));

const full = (lastRevision: number, createdOn = lastRevision) => fullSnapshot(lastRevision, createdOn);
const incr = (startRevision: number, lastRevision: number, createdOn = lastRevision) =>
  deltaSnapshot(startRevision, lastRevision, createdOn);

describe('snapshot names', () => {
  it("writes etcd-backup-restore's layout: decimal revisions padded to 8 digits, unix seconds, suffixes", () => {
    expect(snapshotName(full(52, 1767225600))).toBe('Full-00000000-00000052-1767225600.gz');
    expect(snapshotName({ ...incr(53, 120, 1767225900), compressionSuffix: '' })).toBe(
      'Incr-00000053-00000120-1767225900',
    );
    expect(snapshotName({ ...full(123456789, 1), final: true })).toBe('Full-00000000-123456789-1.gz.final');
  });

  it('parses every name it writes back to the same snapshot', () => {
    fc.assert(
      fc.property(snapshotArb, (s) => {
        expect(parseSnapshotName(snapshotName(s))).toEqual(s);
      }),
    );
  });

  it('ignores objects that are no snapshot', () => {
    for (const name of [
      '.Full-00000000-00000001-1.gz.tmp',
      'Full-00000000-00000001',
      'Chunk-00000000-00000001-1',
      'Full-00000009-00000001-1',
      'Full-0000000a-00000001-1',
      'Full-00000000-00000001-1.bz2',
    ])
      expect(parseSnapshotName(name)).toBeUndefined();
  });

  it('names the compression policies by their suffix, and none without compression', () => {
    expect(compressionSuffix(true, 'gzip')).toBe('.gz');
    expect(compressionSuffix(true, 'zlib')).toBe('.zlib');
    expect(compressionSuffix(true, 'lzw')).toBe('.Z');
    expect(compressionSuffix(false, 'gzip')).toBe('');
    expect(() => compressionSuffix(true, 'brotli')).toThrow(/unsupported compression policy/);
  });
});

describe('the store order and the restore plan', () => {
  it('orders by last revision, a full snapshot before a delta of the same revision, then by time', () => {
    fc.assert(
      fc.property(fc.array(snapshotArb, { maxLength: 20 }), (list) => {
        const sorted = sortSnapshots(list);
        for (let i = 1; i < sorted.length; i++)
          expect(compareSnapshots(sorted[i - 1]!, sorted[i]!)).toBeLessThanOrEqual(0);
        expect(sorted).toHaveLength(list.length);
      }),
    );
  });

  it('restores the latest full snapshot and the deltas continuing it', () => {
    const plan = restorePlan([incr(11, 20), full(10), full(30), incr(31, 40), incr(41, 50), incr(1, 9)]);
    expect(plan).toEqual({ full: full(30), deltas: [incr(31, 40), incr(41, 50)] });
    expect(restorePlan([incr(1, 5)])).toBeUndefined();
    expect(restorePlan([])).toBeUndefined();
  });

  it('always bases the plan on the full snapshot with the highest revision, with deltas beyond it in order', () => {
    fc.assert(
      fc.property(fc.array(snapshotArb, { maxLength: 20 }), (list) => {
        const plan = restorePlan(list);
        const fulls = list.filter((s) => s.kind === 'Full');
        if (fulls.length === 0) {
          expect(plan).toBeUndefined();
          return;
        }
        expect(plan!.full.lastRevision).toBe(Math.max(...fulls.map((s) => s.lastRevision)));
        let revision = plan!.full.lastRevision;
        for (const d of plan!.deltas) {
          expect(d.kind).toBe('Incr');
          expect(d.lastRevision).toBeGreaterThan(revision);
          revision = d.lastRevision;
        }
      }),
    );
  });
});
