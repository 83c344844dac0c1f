// etcd-backup-restore's initialization (`etcdbrctl initialize`, what its `/initialization/start` runs before etcd
// starts): the data dir is validated — a bbolt database at `member/snap/db` with valid meta pages and a revision not
// behind the latest snapshot's — and restored from the store when it is missing, empty, corrupt or behind: the latest
// full snapshot is fetched, decompressed, checked against etcd's SHA-256, made the backend of a new data dir (built
// beside and renamed into place, so an interrupted restore leaves no half data dir), the delta snapshots after it are
// replayed on it (replay.ts), and etcd bootstraps its new one-member cluster on it with every key at its revision. A
// corrupt data dir is kept aside (`<dir>.corrupt-<unix>`), not deleted. Without any full snapshot in the store a
// missing data dir stays missing (a new etcd).
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { inspectDatabase, resetConsistentIndex, verifySnapshotHash } from './bbolt.js';
import { decodeDeltaSnapshot, type DeltaEvent } from './delta.js';
import { replayDeltas } from './replay.js';
import { restorePlan, snapshotName } from './snapshot.js';
import { decompress, type SnapStore } from './store.js';

/** The backend database below etcd's data dir. */
export const dbPath = (dataDir: string) => join(dataDir, 'member', 'snap', 'db');

/** What the initialization did. */
export type InitializationResult =
  | { action: 'valid'; revision: number }
  | { action: 'restored'; snapshot: string; revision: number; reason: string }
  | { action: 'none'; reason: string };

/** Logs of the initialization. */
export interface InitializationLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** Why the data dir needs a restore (undefined: it is valid), and its revision when it is readable. */
async function validate(dataDir: string, latestRevision: number | undefined) {
  if (!(await exists(dataDir))) return { reason: 'the data dir does not exist' };
  if ((await readdir(dataDir)).length === 0) return { reason: 'the data dir is empty' };
  let revision: number;
  try {
    revision = inspectDatabase(await readFile(dbPath(dataDir))).revision;
  } catch (err) {
    return { reason: `the data dir is corrupt: ${(err as Error).message}`, corrupt: true };
  }
  if (latestRevision !== undefined && revision < latestRevision)
    return {
      reason: `the data dir's revision ${revision} is behind the latest snapshot's ${latestRevision}`,
      revision,
    };
  return { revision };
}

/** Options of {@link initialize}. */
export interface InitializationOptions {
  now?: () => Date;
  /** The etcd binary that replays delta snapshots. */
  etcdBinary?: string;
  /** The address the replaying etcd listens on (the Pod IP in local mode). */
  host?: string;
}

/** Validates `dataDir` and restores it from `store` when needed. */
export async function initialize(
  dataDir: string,
  store: SnapStore,
  log: InitializationLog,
  options: InitializationOptions = {},
): Promise<InitializationResult> {
  const now = options.now ?? (() => new Date());
  const snapshots = await store.list();
  const plan = restorePlan(snapshots);
  const latest = snapshots.at(-1);
  const check = await validate(dataDir, latest?.lastRevision);
  if (check.reason === undefined) {
    log.info({ dataDir, revision: check.revision }, 'Data dir is valid');
    return { action: 'valid', revision: check.revision! };
  }
  if (!plan) {
    log.info({ dataDir, reason: check.reason }, 'No full snapshot in the store: etcd starts without a restore');
    return { action: 'none', reason: check.reason };
  }
  const name = snapshotName(plan.full);
  log.info({ dataDir, reason: check.reason, snapshot: name }, 'Restoring the data dir from the latest full snapshot');
  const db = Buffer.from(
    verifySnapshotHash(await decompress(await store.fetch(plan.full), plan.full.compressionSuffix)),
  );
  const info = inspectDatabase(db);
  resetConsistentIndex(db);
  const staging = `${dataDir}.restoring`;
  await rm(staging, { recursive: true, force: true });
  await mkdir(dirname(dbPath(staging)), { recursive: true, mode: 0o700 });
  await writeFile(dbPath(staging), db, { mode: 0o600 });
  let revision = info.revision;
  if (plan.deltas.length > 0) {
    // Each revision once: a delta overlapping the ones before it contributes only what comes after them.
    const after: DeltaEvent[] = [];
    let reached = info.revision;
    for (const delta of plan.deltas) {
      const events = decodeDeltaSnapshot(await decompress(await store.fetch(delta), delta.compressionSuffix));
      for (const e of events) if (e.modRevision > reached) after.push(e);
      reached = events.reduce((max, e) => Math.max(max, e.modRevision), reached);
    }
    log.info({ deltas: plan.deltas.map(snapshotName), events: after.length }, 'Replaying delta snapshots');
    if (after.length > 0)
      revision = await replayDeltas(staging, dbPath(staging), after, {
        ...(options.etcdBinary ? { etcdBinary: options.etcdBinary } : {}),
        ...(options.host ? { host: options.host } : {}),
      });
    const expected = plan.deltas.at(-1)!.lastRevision;
    if (revision !== expected)
      throw new Error(`replaying the delta snapshots reached revision ${revision}, the store's latest is ${expected}`);
  }
  if (check.corrupt) {
    const aside = `${dataDir}.corrupt-${Math.floor(now().getTime() / 1000)}`;
    log.warn({ dataDir, aside }, 'Keeping the corrupt data dir aside');
    await rename(dataDir, aside);
  } else {
    await rm(dataDir, { recursive: true, force: true });
  }
  await rename(staging, dataDir);
  log.info({ dataDir, snapshot: name, revision }, 'Restored the data dir');
  return { action: 'restored', snapshot: name, revision, reason: check.reason };
}
