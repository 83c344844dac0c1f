// The durable local store (the local API server's default): MemoryStorage's index and watch history, plus a
// write-ahead log. A write resolves only once its log record is fsynced; writes that arrive while a sync runs are
// written and synced together by the next one (group commit). When the log passes `compactBytes`, a new log
// segment starts and a snapshot of the state at that revision is written beside it; older files then go. Opening
// takes the directory's lock (one server per store), makes the directory 0700 and its files 0600, and replays the
// newest snapshot and the log after it, dropping a torn last record (and saying so); a log damaged before its end
// stops the start, as in etcd. The revision counter never goes back across restarts; the watch history after a
// restart holds only the writes replayed from the log.
import { chmod, mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { MemoryStorage, type Change, type MemoryStorageOptions } from './memory.js';
import type { Logger } from '@gardener-ts/logging';
import { DirectoryLock } from './dir-lock.js';
import { errorMessage } from './objects.js';
import { StorageError, type StoredObject } from './types.js';
import {
  corruptLogError,
  DIR_MODE,
  FILE_MODE,
  frames,
  LogFile,
  parseSnapshot,
  recordPayload,
  scanLog,
  removeFiles,
  storeFiles,
  writeSnapshot,
  type LogRecord,
} from './wal.js';

export interface FileStorageOptions extends MemoryStorageOptions {
  /** Start a new log segment and write a snapshot once the log is larger than this (default 64 MiB). */
  compactBytes?: number;
  /** Where a dropped torn tail and background failures are reported (default: process warnings). */
  log?: Logger;
}

interface QueuedWrite {
  change: Change;
  resolve: () => void;
  reject: (err: Error) => void;
}

const DEFAULT_COMPACT_BYTES = 64 << 20;

export class FileStorage extends MemoryStorage {
  override readonly kind = 'file' as const;
  private readonly compactBytes: number;
  private log: LogFile | undefined;
  private queue: QueuedWrite[] = [];
  /** The running group-commit loop. */
  private flushing: Promise<void> | undefined;
  /** The running snapshot. */
  private compacting: Promise<void> | undefined;
  /** Set when the log could not be written: the store then refuses writes. */
  private failure: StorageError | undefined;
  private lock: DirectoryLock | undefined;
  private readonly logger: Logger | undefined;

  constructor(
    readonly dir: string,
    options: FileStorageOptions = {},
  ) {
    super(options);
    this.phase = 'new';
    this.compactBytes = options.compactBytes ?? DEFAULT_COMPACT_BYTES;
    this.logger = options.log;
  }

  override async open(): Promise<void> {
    if (this.phase !== 'new') return super.open();
    await mkdir(this.dir, { recursive: true, mode: DIR_MODE });
    // An existing directory keeps its mode on mkdir: tighten it (and its files, below) on every start.
    await chmod(this.dir, DIR_MODE);
    const lock = await DirectoryLock.acquire(this.dir);
    try {
      await this.replay();
    } catch (err) {
      await lock.release();
      throw err;
    }
    this.lock = lock;
    this.phase = 'open';
  }

  private async replay(): Promise<void> {
    const names = await readdir(this.dir);
    await Promise.all(names.filter((n) => n.endsWith('.tmp')).map((n) => rm(join(this.dir, n), { force: true })));
    const files = storeFiles(names);
    await Promise.all(files.map((f) => chmod(join(this.dir, f.name), FILE_MODE)));
    const snapshot = files.filter((f) => f.kind === 'snapshot').at(-1);
    if (snapshot) {
      const { revision, items } = parseSnapshot(await readFile(join(this.dir, snapshot.name)), snapshot.name);
      this.load(items, revision);
    }
    const logs = files.filter((f) => f.kind === 'log');
    let last: { path: string; validLength: number } | undefined;
    for (const [i, log] of logs.entries()) {
      const next = logs[i + 1];
      if (next && next.revision <= this.revision) continue; // entirely in the snapshot
      const path = join(this.dir, log.name);
      const data = await readFile(path);
      const scan = scanLog(data);
      const { payloads, validLength } = scan;
      for (const payload of payloads) {
        const record = JSON.parse(payload) as LogRecord;
        if (record.r > this.revision) this.restore(record.k, record.r, record.v);
      }
      if (scan.intactAfter !== undefined) throw corruptLogError(path, scan, this.revision);
      if (next && validLength !== data.length) {
        throw new Error(
          `file storage: the write-ahead log ${path} is damaged at byte ${validLength} and later logs exist; the store ` +
            `refuses to start (see "Durability and limits" in docs/local-apiserver.md)`,
        );
      }
      if (validLength !== data.length) {
        this.warn(
          { path, offset: validLength, droppedBytes: data.length - validLength, revision: this.revision },
          `file storage: dropping the torn last record of ${path} (bytes ${validLength}-${data.length}): a write that was never acknowledged`,
        );
      }
      last = { path, validLength };
    }
    this.log = last ? await LogFile.reopen(last.path, last.validLength) : await LogFile.create(this.dir, this.revision);
  }

  private warn(details: Record<string, unknown>, message: string): void {
    if (this.logger) this.logger.warn(details, message);
    else process.emitWarning(message);
  }

  override async close(): Promise<void> {
    if (this.phase === 'new') this.phase = 'closed';
    if (this.phase === 'closed') return;
    this.phase = 'closed'; // writes already queued still complete
    await this.flushing;
    await this.compacting;
    await this.log?.close();
    this.log = undefined;
    await this.lock?.release();
    this.lock = undefined;
    await super.close();
  }

  protected override commit(change: Change): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.queue.push({ change, resolve, reject });
      this.flushing ??= this.flush();
    });
  }

  private async flush(): Promise<void> {
    // Let every write of the current turn join the first batch.
    await Promise.resolve();
    while (this.queue.length > 0) {
      const batch = this.queue;
      this.queue = [];
      try {
        await this.log!.append(frames(batch.map(({ change: c }) => recordPayload(c.revision, c.key, c.json))));
      } catch (err) {
        this.failure = new StorageError(
          'Unavailable',
          `writing the log ${this.log?.path} failed: ${errorMessage(err)}`,
        );
        for (const write of [...batch, ...this.queue]) write.reject(this.failure);
        this.queue = [];
        break;
      }
      for (const write of batch) {
        this.apply(write.change);
        write.resolve();
      }
      if (this.log!.size >= this.compactBytes && !this.compacting) await this.startCompaction();
    }
    this.flushing = undefined;
  }

  /** Switches to a new log segment and writes the snapshot of the state up to it in the background. */
  private async startCompaction(): Promise<void> {
    const revision = this.revision;
    const items = this.snapshot();
    let next: LogFile;
    try {
      next = await LogFile.create(this.dir, revision);
    } catch (err) {
      this.warn({ dir: this.dir }, `file storage: cannot start a new log segment: ${errorMessage(err)}`);
      return;
    }
    const previous = this.log!;
    this.log = next;
    await previous.close();
    this.compacting = this.writeSnapshot(revision, items).finally(() => (this.compacting = undefined));
  }

  private async writeSnapshot(revision: number, items: StoredObject[]): Promise<void> {
    try {
      await writeSnapshot(this.dir, revision, items);
      const obsolete = storeFiles(await readdir(this.dir)).filter((f) => f.revision < revision);
      await removeFiles(
        this.dir,
        obsolete.map((f) => f.name),
      );
    } catch (err) {
      // Nothing is lost: the older snapshot and logs stay and replay as before.
      this.warn(
        { dir: this.dir, revision },
        `file storage: writing the snapshot at revision ${revision} failed: ${errorMessage(err)}`,
      );
    }
  }
}
