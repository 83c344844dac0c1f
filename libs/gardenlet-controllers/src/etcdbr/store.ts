// etcd-backup-restore's `Local` snapshot store: a directory `<container>/<prefix>/v2` holding one file per snapshot
// (the container is `--store-container`, else `$STORAGE_CONTAINER`; druid mounts the bucket's host directory there).
// Saves are atomic (a temporary file renamed into place), so a reader never sees half a snapshot; files whose names
// are no snapshot's are ignored. Compression: gzip and zlib (lzw has no Node.js codec and is refused).
import { mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { deflate, gunzip, gzip, inflate } from 'node:zlib';
import { BackupFormatVersion, parseSnapshotName, snapshotName, sortSnapshots, type Snapshot } from './snapshot.js';

/** The directory of a local store. */
export function localStoreDirectory(container: string, prefix: string): string {
  return join(container, prefix, BackupFormatVersion);
}

/** Compresses snapshot data for its suffix. */
export async function compress(data: Buffer, suffix: string): Promise<Buffer> {
  if (suffix === '') return data;
  if (suffix === '.gz') return promisify(gzip)(data);
  if (suffix === '.zlib') return promisify(deflate)(data);
  throw new Error(`compression ${suffix} is not supported here`);
}

/** Decompresses snapshot data of its suffix. */
export async function decompress(data: Buffer, suffix: string): Promise<Buffer> {
  if (suffix === '') return data;
  if (suffix === '.gz') return promisify(gunzip)(data);
  if (suffix === '.zlib') return promisify(inflate)(data);
  throw new Error(`compression ${suffix} is not supported here`);
}

/** A store of snapshots. */
export interface SnapStore {
  list(): Promise<Snapshot[]>;
  save(snapshot: Snapshot, data: Buffer): Promise<void>;
  fetch(snapshot: Snapshot): Promise<Buffer>;
  delete(snapshot: Snapshot): Promise<void>;
}

/** The `Local` store in a directory. */
export class LocalSnapStore implements SnapStore {
  constructor(readonly directory: string) {}

  /** Every snapshot, in the store's order. */
  async list(): Promise<Snapshot[]> {
    const names = await readdir(this.directory).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return [] as string[];
      throw err;
    });
    return sortSnapshots(names.map(parseSnapshotName).filter((s): s is Snapshot => s !== undefined));
  }

  /** Writes a snapshot (data already compressed for its suffix). */
  async save(snapshot: Snapshot, data: Buffer): Promise<void> {
    await mkdir(this.directory, { recursive: true, mode: 0o700 });
    const name = snapshotName(snapshot);
    const temporary = join(this.directory, `.${name}.tmp`);
    const file = await open(temporary, 'w', 0o600);
    try {
      await file.writeFile(data);
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temporary, join(this.directory, name));
  }

  async fetch(snapshot: Snapshot): Promise<Buffer> {
    return readFile(join(this.directory, snapshotName(snapshot)));
  }

  async delete(snapshot: Snapshot): Promise<void> {
    await rm(join(this.directory, snapshotName(snapshot)), { force: true });
  }
}
