// etcd-backup-restore's garbage collection of a store, as a pure function: snapshots form streams (a full snapshot and
// the deltas after it); the deltas of every stream but the latest are deleted, and of the full snapshots
// - `LimitBased` keeps the latest `maxBackups` (druid's default 7),
// - `Exponential` keeps every one of the current hour, the latest of each hour of the last 24 hours, the latest of each
//   day of the last week and the latest of each week of the last 4 weeks, and deletes older ones.
// The latest stream is never touched.
import { sortSnapshots, type Snapshot } from './snapshot.js';

/** etcd-backup-restore's garbage collection policies (`--garbage-collection-policy`). */
export type GarbageCollectionPolicy = 'Exponential' | 'LimitBased';

/** druid's default `maxBackupsLimitBasedGC`. */
export const DefaultMaxBackups = 7;

/** Options of {@link garbageCollect}. */
export interface GarbageCollectionOptions {
  policy: GarbageCollectionPolicy;
  /** Full snapshots `LimitBased` keeps. */
  maxBackups?: number;
  /** Now in unix seconds. */
  now: number;
}

const HOUR = 3600;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;

/** The snapshots streams of a sorted list: indices where a stream starts (the first snapshot and every full one). */
function streamStarts(sorted: readonly Snapshot[]): number[] {
  const starts = sorted.length ? [0] : [];
  sorted.forEach((s, i) => {
    if (i > 0 && s.kind === 'Full') starts.push(i);
  });
  return starts;
}

// The window an older full snapshot competes in under `Exponential` (only the latest of a window stays), or undefined
// when it is kept regardless (current hour) or 'delete' when it is older than four weeks.
function exponentialWindow(s: Snapshot, now: number): string | 'keep' | 'delete' {
  const age = now - s.createdOn;
  if (Math.floor(s.createdOn / HOUR) === Math.floor(now / HOUR)) return 'keep';
  if (age < DAY) return `hour-${Math.floor(s.createdOn / HOUR)}`;
  if (age < WEEK) return `day-${Math.floor(s.createdOn / DAY)}`;
  if (age < 4 * WEEK + WEEK) return `week-${Math.floor(s.createdOn / WEEK)}`;
  return 'delete';
}

/** The snapshots the garbage collector deletes from `snapshots`. */
export function garbageCollect(snapshots: readonly Snapshot[], options: GarbageCollectionOptions): Snapshot[] {
  const sorted = sortSnapshots(snapshots);
  const starts = streamStarts(sorted);
  if (starts.length <= 1) return [];
  const doomed: Snapshot[] = [];
  const streams = starts.map((start, i) => sorted.slice(start, starts[i + 1] ?? sorted.length));
  const older = streams.slice(0, -1);
  for (const stream of older) doomed.push(...stream.filter((s, i) => i > 0 && s.kind === 'Incr'));
  const fulls = older.map((stream) => stream[0]!).filter((s) => s.kind === 'Full');
  if (options.policy === 'LimitBased') {
    const keep = Math.max(0, (options.maxBackups ?? DefaultMaxBackups) - 1);
    doomed.push(...fulls.slice(0, Math.max(0, fulls.length - keep)));
    return doomed;
  }
  const seen = new Set<string>();
  // Newest first: the first of a window is its latest and stays.
  for (const s of [...fulls].reverse()) {
    const window = exponentialWindow(s, options.now);
    if (window === 'keep') continue;
    if (window === 'delete' || seen.has(window)) doomed.push(s);
    else seen.add(window);
  }
  return doomed;
}
