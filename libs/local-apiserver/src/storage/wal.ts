// The files of FileStorage. A log segment `wal-<R>.log` holds the writes after revision R; a snapshot
// `snapshot-<R>.snap` holds every object at revision R. Both are sequences of frames:
//   u32 LE payload length | u32 LE CRC-32 of the payload | payload (UTF-8 JSON)
// A log record's payload is {"r":revision,"k":key,"v":object} for a put and {"r":revision,"k":key} for a delete;
// a snapshot is a header {"snapshot":R,"count":N} and then one such record per object. The CRC finds a torn or
// zero-filled tail left by a crash: reading stops at the first frame that is incomplete or does not match. As in
// etcd, only the tail may be bad: a bad frame followed by an intact one is corruption of acknowledged writes
// (`scanLog` reports it, and the store refuses to start). Files are private to the owner (0600): Secrets are in them.
import { constants } from 'node:fs';
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { encodeObject, sealObject, storedObject } from './objects.js';
import type { KubeObject, StoredObject } from './types.js';

const HEADER = 8;
/** Store files are readable by the owner only: Secrets are in them. */
export const FILE_MODE = 0o600;
/** The store directory is the owner's only. */
export const DIR_MODE = 0o700;
/** A frame longer than this is taken for garbage. */
const MAX_FRAME = 1 << 30;

export interface LogRecord {
  r: number;
  k: string;
  v?: KubeObject;
}

/** A record's payload; `json` is the encoded object of a put (undefined for a delete). */
export function recordPayload(revision: number, key: string, json: string | undefined): string {
  return `{"r":${revision},"k":${JSON.stringify(key)}${json === undefined ? '' : `,"v":${json}`}}`;
}

export function frames(payloads: string[]): Buffer {
  const bodies = payloads.map((p) => Buffer.from(p, 'utf8'));
  const out = Buffer.allocUnsafe(bodies.reduce((n, b) => n + HEADER + b.length, 0));
  let at = 0;
  for (const body of bodies) {
    out.writeUInt32LE(body.length, at);
    out.writeUInt32LE(crc32(body), at + 4);
    body.copy(out, at + HEADER);
    at += HEADER + body.length;
  }
  return out;
}

/** The payloads of the intact frames at the start of `data`, and how many bytes they take. */
export function readFrames(data: Buffer): { payloads: string[]; validLength: number } {
  const payloads: string[] = [];
  let at = 0;
  while (at + HEADER <= data.length) {
    const length = data.readUInt32LE(at);
    const end = at + HEADER + length;
    // No record is empty: a zero length is the start of a zero-filled tail (whose CRC-32 of nothing would match).
    if (length === 0 || length > MAX_FRAME || end > data.length) break;
    const body = data.subarray(at + HEADER, end);
    if (crc32(body) !== data.readUInt32LE(at + 4)) break;
    payloads.push(body.toString('utf8'));
    at = end;
  }
  return { payloads, validLength: at };
}

/** What a log holds: its intact frames and, when reading stopped early, where and whether intact frames follow. */
export interface LogScan {
  payloads: string[];
  /** Bytes taken by the intact frames at the start. */
  validLength: number;
  /** The offset of an intact frame after the bad one at `validLength` (mid-log corruption); undefined for a bad tail. */
  intactAfter?: number;
}

/**
 * Reads a log: the intact frames at the start, and, when a bad frame stops the reading, whether an intact frame
 * follows it anywhere later in the file. A crash tears only the last, unacknowledged append (a short frame, zeros
 * or garbage up to the end of the file), so an intact frame after the bad one means the damage is in the middle.
 */
export function scanLog(data: Buffer): LogScan {
  const { payloads, validLength } = readFrames(data);
  if (validLength === data.length) return { payloads, validLength };
  for (let at = validLength + 1; at + HEADER < data.length; at++) {
    if (isFrameAt(data, at)) return { payloads, validLength, intactAfter: at };
  }
  return { payloads, validLength };
}

/** Whether an intact log record frame starts at `at`: a length that fits, a `{"r":` payload and a matching CRC. */
function isFrameAt(data: Buffer, at: number): boolean {
  // A cheap filter first: every record's payload starts with {"r":
  if (data[at + HEADER] !== 0x7b || data[at + HEADER + 1] !== 0x22 || data[at + HEADER + 2] !== 0x72) return false;
  const length = data.readUInt32LE(at);
  const end = at + HEADER + length;
  if (length > MAX_FRAME || end > data.length) return false;
  return crc32(data.subarray(at + HEADER, end)) === data.readUInt32LE(at + 4);
}

/** The error for a log damaged before its end: names the file, the offset and how to recover. */
export function corruptLogError(path: string, scan: LogScan, lastRevision: number): Error {
  return new Error(
    `file storage: the write-ahead log ${path} is corrupt at byte ${scan.validLength}: the frame there is incomplete or ` +
      `fails its CRC check, and intact frames follow it (the next at byte ${scan.intactAfter}), so acknowledged writes ` +
      `would be lost; the store refuses to start. The last intact record before the damage is revision ${lastRevision}. ` +
      `Restore the directory from a backup, or accept losing every write after revision ${lastRevision} by cutting the ` +
      `log there: truncate -s ${scan.validLength} '${path}' (see "Durability and limits" in docs/local-apiserver.md)`,
  );
}

export type StoreFile = { kind: 'log' | 'snapshot'; revision: number; name: string };

export function logName(revision: number): string {
  return `wal-${String(revision).padStart(16, '0')}.log`;
}

export function snapshotName(revision: number): string {
  return `snapshot-${String(revision).padStart(16, '0')}.snap`;
}

/** The logs and snapshots among a directory's file names, oldest first. */
export function storeFiles(names: string[]): StoreFile[] {
  const files: StoreFile[] = [];
  for (const name of names) {
    const match = /^(wal|snapshot)-(\d{16})\.(log|snap)$/.exec(name);
    if (match) files.push({ kind: match[1] === 'wal' ? 'log' : 'snapshot', revision: Number(match[2]), name });
  }
  return files.sort((a, b) => a.revision - b.revision);
}

/** An open log segment that appends durably. */
export class LogFile {
  private constructor(
    readonly path: string,
    private readonly handle: FileHandle,
    /** Bytes in the file. */
    public size: number,
  ) {}

  /** Creates the segment for the writes after `revision` and makes its name durable. */
  static async create(dir: string, revision: number): Promise<LogFile> {
    const path = join(dir, logName(revision));
    const handle = await open(path, 'wx', FILE_MODE);
    await syncDir(dir);
    return new LogFile(path, handle, 0);
  }

  /** Opens an existing segment for appending after its first `validLength` bytes, cutting off what follows. */
  static async reopen(path: string, validLength: number): Promise<LogFile> {
    const handle = await open(path, constants.O_RDWR);
    if ((await handle.stat()).size !== validLength) {
      await handle.truncate(validLength);
      await handle.datasync();
    }
    return new LogFile(path, handle, validLength);
  }

  /** Resolves once `data` is on disk. */
  async append(data: Buffer): Promise<void> {
    await writeAll(this.handle, data, this.size);
    this.size += data.length;
    await this.handle.datasync();
  }

  async close(): Promise<void> {
    await this.handle.close();
  }
}

/** Writes a snapshot atomically: to a temporary file, fsynced, renamed into place, directory fsynced. */
export async function writeSnapshot(dir: string, revision: number, items: StoredObject[]): Promise<void> {
  const path = join(dir, snapshotName(revision));
  const temporary = `${path}.tmp`;
  const handle = await open(temporary, 'w', FILE_MODE);
  try {
    let at = 0;
    let batch = [JSON.stringify({ snapshot: revision, count: items.length })];
    let chars = 0;
    const flush = async () => {
      const data = frames(batch);
      await writeAll(handle, data, at);
      at += data.length;
      batch = [];
      chars = 0;
    };
    for (const item of items) {
      const payload = recordPayload(item.revision, item.key, encodeObject(item.object));
      batch.push(payload);
      chars += payload.length;
      if (chars > 1 << 20) await flush();
    }
    await flush();
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, path);
  await syncDir(dir);
}

export function parseSnapshot(data: Buffer, name: string): { revision: number; items: StoredObject[] } {
  const { payloads, validLength } = readFrames(data);
  const header = payloads.length > 0 ? (JSON.parse(payloads[0]) as { snapshot?: number; count?: number }) : {};
  if (validLength !== data.length || typeof header.snapshot !== 'number' || header.count !== payloads.length - 1) {
    throw new Error(`the snapshot ${name} is damaged (intact up to byte ${validLength} of ${data.length})`);
  }
  const items = payloads.slice(1).map((payload) => {
    const record = JSON.parse(payload) as LogRecord;
    return storedObject(record.k, sealObject(record.v ?? {}, record.r), record.r);
  });
  return { revision: header.snapshot, items };
}

export async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, constants.O_RDONLY);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export async function removeFiles(dir: string, names: string[]): Promise<void> {
  if (names.length === 0) return;
  await Promise.all(names.map((name) => rm(join(dir, name), { force: true })));
  await syncDir(dir);
}

async function writeAll(handle: FileHandle, data: Buffer, position: number): Promise<void> {
  for (let done = 0; done < data.length;) {
    const { bytesWritten } = await handle.write(data, done, data.length - done, position + done);
    done += bytesWritten;
  }
}
