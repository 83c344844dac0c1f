// etcd-backup-restore's snapshot objects in a store, as pure functions: the name layout
// `<prefix>/v2/<Kind>-<startRevision>-<lastRevision>-<unix seconds><compression suffix>[.final]` (revisions in decimal,
// zero-padded to 8 digits; kind `Full` or `Incr`; `.gz`, `.Z` or `.zlib` for the gzip, lzw and zlib compression
// policies; `.final` marks the final full snapshot), the store's order (by last revision, then creation time) and the
// restore plan (the latest full snapshot and the delta snapshots after it).

/** The two snapshot kinds of etcd-backup-restore. */
export type SnapshotKind = 'Full' | 'Incr';

/** The compression policies of etcd-backup-restore (`--compression-policy`). */
export type CompressionPolicy = 'gzip' | 'lzw' | 'zlib';

/** The backup format version directory below the store prefix. */
export const BackupFormatVersion = 'v2';

/** The suffix of a final full snapshot. */
export const FinalSuffix = '.final';

/** The file suffix of each compression policy (etcd-backup-restore's compressor extensions). */
export const CompressionSuffixes: Readonly<Record<CompressionPolicy, string>> = {
  gzip: '.gz',
  lzw: '.Z',
  zlib: '.zlib',
};

/** One snapshot in a store. */
export interface Snapshot {
  kind: SnapshotKind;
  startRevision: number;
  lastRevision: number;
  /** Creation time in unix seconds. */
  createdOn: number;
  /** `''` for an uncompressed snapshot, else one of {@link CompressionSuffixes}. */
  compressionSuffix: string;
  final: boolean;
}

/** A full snapshot of the store up to `lastRevision`, taken at `createdOn` (unix seconds). */
export function fullSnapshot(
  lastRevision: number,
  createdOn: number,
  compressionSuffix = '.gz',
  final = false,
): Snapshot {
  return { kind: 'Full', startRevision: 0, lastRevision, createdOn, compressionSuffix, final };
}

/** A delta snapshot of the revisions `startRevision` to `lastRevision`, taken at `createdOn` (unix seconds). */
export function deltaSnapshot(
  startRevision: number,
  lastRevision: number,
  createdOn: number,
  compressionSuffix = '.gz',
): Snapshot {
  return { kind: 'Incr', startRevision, lastRevision, createdOn, compressionSuffix, final: false };
}

/** The compression suffix of a policy when compression is enabled, `''` otherwise. */
export function compressionSuffix(enabled: boolean, policy: string = 'gzip'): string {
  if (!enabled) return '';
  const suffix = CompressionSuffixes[policy as CompressionPolicy];
  if (suffix === undefined) throw new Error(`unsupported compression policy ${JSON.stringify(policy)}`);
  return suffix;
}

const pad8 = (n: number) => String(n).padStart(8, '0');

/** The object name of a snapshot (below `<prefix>/v2/`). */
export function snapshotName(s: Snapshot): string {
  return `${s.kind}-${pad8(s.startRevision)}-${pad8(s.lastRevision)}-${s.createdOn}${s.compressionSuffix}${s.final ? FinalSuffix : ''}`;
}

const NAME = /^(Full|Incr)-(\d+)-(\d+)-(\d+)(\.gz|\.Z|\.zlib)?(\.final)?$/;

/** The snapshot an object name denotes, or undefined when the name is no snapshot's (such objects are ignored). */
export function parseSnapshotName(name: string): Snapshot | undefined {
  const m = NAME.exec(name);
  if (!m) return undefined;
  const [startRevision, lastRevision, createdOn] = [m[2]!, m[3]!, m[4]!].map(Number) as [number, number, number];
  if (![startRevision, lastRevision, createdOn].every(Number.isSafeInteger)) return undefined;
  if (startRevision > lastRevision) return undefined;
  return {
    kind: m[1] as SnapshotKind,
    startRevision,
    lastRevision,
    createdOn,
    compressionSuffix: m[5] ?? '',
    final: m[6] !== undefined,
  };
}

/** The store's order: by last revision, then by creation time, a full snapshot before a delta of the same revision. */
export function compareSnapshots(a: Snapshot, b: Snapshot): number {
  if (a.lastRevision !== b.lastRevision) return a.lastRevision - b.lastRevision;
  if (a.kind !== b.kind) return a.kind === 'Full' ? -1 : 1;
  return a.createdOn - b.createdOn;
}

/** The snapshots sorted in the store's order (a new array). */
export function sortSnapshots(snapshots: readonly Snapshot[]): Snapshot[] {
  return [...snapshots].sort(compareSnapshots);
}

/** What a restore applies: the base full snapshot and the delta snapshots after it, in revision order. */
export interface RestorePlan {
  full: Snapshot;
  deltas: Snapshot[];
}

/**
 * The latest full snapshot and the delta snapshots that continue it (each starting after the revision reached so far),
 * or undefined when the store holds no full snapshot.
 */
export function restorePlan(snapshots: readonly Snapshot[]): RestorePlan | undefined {
  const sorted = sortSnapshots(snapshots);
  let base = -1;
  sorted.forEach((s, i) => {
    if (s.kind === 'Full') base = i;
  });
  if (base < 0) return undefined;
  const full = sorted[base]!;
  const deltas: Snapshot[] = [];
  let revision = full.lastRevision;
  for (const s of sorted.slice(base + 1)) {
    if (s.kind !== 'Incr' || s.lastRevision <= revision) continue;
    deltas.push(s);
    revision = s.lastRevision;
  }
  return { full, deltas };
}
