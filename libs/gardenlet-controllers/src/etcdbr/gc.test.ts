// etcd-backup-restore's garbage collection: the latest stream stays, older deltas go, and full snapshots are kept by
// count (LimitBased) or by age windows (Exponential).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { garbageCollect } from './gc.js';
import { deltaSnapshot, fullSnapshot, snapshotName, type Snapshot } from './snapshot.js';

const HOUR = 3600;
const now = 1_767_225_600 + 12 * HOUR + 30 * 60; // 2026-01-01T12:30:00Z
const full = fullSnapshot;
const incr = deltaSnapshot;
const names = (list: Snapshot[]) => list.map(snapshotName).sort();

/** A store history: full snapshots at increasing revisions and times, each followed by some deltas. */
const historyArb = fc
  .array(fc.record({ gapHours: fc.integer({ min: 0, max: 200 }), deltas: fc.nat({ max: 3 }) }), {
    minLength: 1,
    maxLength: 25,
  })
  .map((streams) => {
    const out: Snapshot[] = [];
    let revision = 1;
    let time = now;
    for (const s of [...streams].reverse()) time -= s.gapHours * HOUR + 60;
    for (const s of streams) {
      time += s.gapHours * HOUR + 60;
      out.push(full(revision, time));
      for (let i = 0; i < s.deltas; i++) out.push(incr(revision + 1 + i * 10, revision + 10 + i * 10, time + i));
      revision += 100;
    }
    return out;
  });

describe('garbage collection', () => {
  it('LimitBased keeps the latest maxBackups full snapshots and only the latest stream’s deltas', () => {
    const list = [full(10, 1), incr(11, 20, 2), full(30, 3), incr(31, 40, 4), full(50, 5), incr(51, 60, 6)];
    expect(names(garbageCollect(list, { policy: 'LimitBased', maxBackups: 2, now }))).toEqual(
      names([full(10, 1), incr(11, 20, 2), incr(31, 40, 4)]),
    );
  });

  it('never deletes the latest stream, and LimitBased keeps min(streams, maxBackups) full snapshots', () => {
    fc.assert(
      fc.property(historyArb, fc.integer({ min: 1, max: 10 }), (list, maxBackups) => {
        for (const policy of ['LimitBased', 'Exponential'] as const) {
          const doomed = new Set(garbageCollect(list, { policy, maxBackups, now }).map(snapshotName));
          const latestFull = list.filter((s) => s.kind === 'Full').at(-1)!;
          for (const s of list.filter((s) => s.lastRevision >= latestFull.lastRevision))
            expect(doomed.has(snapshotName(s))).toBe(false);
          const olderDeltas = list.filter((s) => s.kind === 'Incr' && s.lastRevision < latestFull.lastRevision);
          for (const s of olderDeltas) expect(doomed.has(snapshotName(s))).toBe(true);
          if (policy === 'LimitBased') {
            const fulls = list.filter((s) => s.kind === 'Full');
            const kept = fulls.filter((s) => !doomed.has(snapshotName(s)));
            expect(kept).toHaveLength(Math.min(fulls.length, maxBackups));
          }
        }
      }),
    );
  });

  it('Exponential keeps the current hour, one per hour of the last day, one per day of the week, one per week', () => {
    const list = [
      full(1, now - 40 * 24 * HOUR), // older than 5 weeks: deleted
      full(2, now - 20 * 24 * HOUR - HOUR), // same week as the next: the older goes
      full(3, now - 20 * 24 * HOUR),
      full(4, now - 3 * 24 * HOUR - HOUR), // same day as the next
      full(5, now - 3 * 24 * HOUR),
      full(6, now - 5 * HOUR - 20 * 60), // same hour as the next
      full(7, now - 5 * HOUR - 10 * 60),
      full(8, now - 20 * 60), // current hour: kept
      full(9, now - 10 * 60),
      full(10, now),
    ];
    expect(names(garbageCollect(list, { policy: 'Exponential', now }))).toEqual(
      names([list[0]!, list[1]!, list[3]!, list[5]!]),
    );
  });
});
