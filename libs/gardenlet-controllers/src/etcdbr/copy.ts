// etcd-backup-restore's copier (`etcdbrctl copy`, what druid's EtcdCopyBackupsTask Job runs during a control plane
// migration): optionally waits for the source store's final full snapshot (until a timeout, then copies anyway), then
// copies every snapshot of the source store the target does not hold yet — filtered by age (`--max-backup-age` days)
// and limited to the latest `--max-backups-to-copy` full snapshots with the deltas after them — each saved in the
// target without its `.final` mark (a copied final snapshot is an ordinary one in the new store). A re-run copies only
// what is missing. A source store that does not exist is an error naming it (nothing could be copied from it); an
// existing one without snapshots copies nothing.
import { stat } from 'node:fs/promises';
import { snapshotName, sortSnapshots, type Snapshot } from './snapshot.js';
import type { SnapStore } from './store.js';

/** Options of {@link copyBackups}. */
export interface CopyOptions {
  /** The latest full snapshots to copy, each with the deltas after it; all when undefined or <= 0. */
  maxBackups?: number;
  /** Only snapshots younger than this many days; all when undefined or < 0. */
  maxBackupAgeDays?: number;
  /** Now (the age filter's reference). */
  now?: () => Date;
  log?: { info(obj: object, msg: string): void };
}

/** What {@link copyBackups} did: snapshot names copied and skipped (already in the target). */
export interface CopyResult {
  copied: string[];
  skipped: string[];
}

/** The snapshot as the target stores it: without the `.final` mark. */
const unfinal = (s: Snapshot): Snapshot => ({ ...s, final: false });

/**
 * The snapshots to copy from a store's list (pure; etcd-backup-restore's filtered backups): those the filter keeps,
 * and with `maxBackups > 0` only the latest `maxBackups` full snapshots with the deltas that follow each of them.
 * Deltas before the first full snapshot belong to no backup and are kept only without a limit.
 */
export function backupsToCopy(
  snapshots: readonly Snapshot[],
  maxBackups?: number,
  keep: (s: Snapshot) => boolean = () => true,
): Snapshot[] {
  const sorted = sortSnapshots(snapshots).filter(keep);
  if (!maxBackups || maxBackups <= 0) return sorted;
  const fullIndices = sorted.flatMap((s, i) => (s.kind === 'Full' ? [i] : []));
  if (fullIndices.length === 0) return [];
  const from = fullIndices[Math.max(0, fullIndices.length - maxBackups)]!;
  return sorted.slice(from);
}

/** Throws naming the directory when a Local store's directory does not exist. */
export async function assertStoreExists(directory: string, what: string): Promise<void> {
  const info = await stat(directory).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw err;
  });
  if (!info) throw new Error(`${what} ${directory} does not exist: there are no backups to copy from it`);
  if (!info.isDirectory()) throw new Error(`${what} ${directory} is not a directory`);
}

/** Copies the snapshots of `source` that `target` does not hold yet (see the file header). */
export async function copyBackups(
  source: SnapStore,
  target: SnapStore,
  options: CopyOptions = {},
): Promise<CopyResult> {
  const now = (options.now?.() ?? new Date()).getTime() / 1000;
  const age = options.maxBackupAgeDays;
  const keep = age !== undefined && age >= 0 ? (s: Snapshot) => s.createdOn > now - age * 86_400 : undefined;
  const wanted = backupsToCopy(await source.list(), options.maxBackups, keep);
  const present = new Set((await target.list()).map((s) => snapshotName(unfinal(s))));
  const result: CopyResult = { copied: [], skipped: [] };
  for (const snapshot of wanted) {
    const name = snapshotName(unfinal(snapshot));
    if (present.has(name)) {
      result.skipped.push(name);
      continue;
    }
    const data = await source.fetch(snapshot).catch((err: unknown) => {
      throw new Error(`fetching snapshot ${snapshotName(snapshot)} from the source store`, { cause: err });
    });
    await target.save(unfinal(snapshot), data).catch((err: unknown) => {
      throw new Error(`saving snapshot ${name} to the target store`, { cause: err });
    });
    present.add(name);
    result.copied.push(name);
    options.log?.info({ snapshot: name, kind: snapshot.kind }, 'Copied snapshot');
  }
  return result;
}

/** Options of {@link waitForFinalSnapshot}. */
export interface WaitForFinalSnapshotOptions {
  /** How long to wait; 0 or undefined: forever (etcd-backup-restore's). */
  timeoutMs?: number;
  /** How often the store is listed (etcd-backup-restore's 15 s). */
  intervalMs?: number;
  signal?: AbortSignal;
}

/**
 * Waits until the latest full snapshot of `store` is final; resolves `true` when it is, `false` when the timeout
 * passed first (the copy then goes ahead anyway, as etcd-backup-restore's).
 */
export async function waitForFinalSnapshot(
  store: SnapStore,
  options: WaitForFinalSnapshotOptions = {},
): Promise<boolean> {
  const deadline = options.timeoutMs ? Date.now() + options.timeoutMs : Infinity;
  const interval = options.intervalMs ?? 15_000;
  for (;;) {
    const latestFull = (await store.list()).filter((s) => s.kind === 'Full').at(-1);
    if (latestFull?.final) return true;
    const left = deadline - Date.now();
    if (left <= 0 || options.signal?.aborted) return false;
    await new Promise((resolve) => setTimeout(resolve, Math.min(interval, left)));
  }
}
