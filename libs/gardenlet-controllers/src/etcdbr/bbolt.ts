// Just enough of bbolt (etcd's backend file, `member/snap/db`, and the content of an etcd v3 snapshot) to validate a
// database, read its current revision and consistent index, and restore a snapshot as a data dir: meta pages with
// their FNV-64a checksums, branch and leaf pages, nested and inline buckets (bbolt's on-disk format, little endian).
// A restored snapshot keeps every key at its revision; its consistent index is set to 0 so that the raft log of the
// new one-member cluster etcd bootstraps on it (starting at index 1) is applied, which `etcdutl snapshot restore`
// achieves by writing a new WAL. etcd's snapshot stream ends with the SHA-256 of the database, checked and cut here.
import { createHash } from 'node:crypto';

const PageHeaderSize = 16;
const ElementSize = 16;
const Magic = 0xed0cdaed;
const BranchPage = 0x01;
const LeafPage = 0x02;
const BucketLeafFlag = 0x01;
const FNVOffset = 0xcbf29ce484222325n;
const FNVPrime = 0x100000001b3n;
const Mask64 = (1n << 64n) - 1n;

/** What {@link inspectDatabase} finds in a database. */
export interface DatabaseInfo {
  pageSize: number;
  txid: number;
  /** etcd's current revision: the main revision of the last key of bucket `key` (0 for an empty store). */
  revision: number;
  /** etcd's consistent index (bucket `meta`, key `consistent_index`); undefined when missing. */
  consistentIndex?: number;
}

function fnv64a(data: Buffer): bigint {
  let hash = FNVOffset;
  for (const byte of data) hash = ((hash ^ BigInt(byte)) * FNVPrime) & Mask64;
  return hash;
}

/** A place in the file: a page or an inline page inside a value. */
interface PageRef {
  offset: number;
}

class Database {
  readonly pageSize: number;
  readonly txid: number;
  readonly root: number;

  constructor(readonly buf: Buffer) {
    if (buf.length < 2 * PageHeaderSize + 64) throw new Error('not a bbolt database: file too small');
    const metas = [0, buf.readUInt32LE(PageHeaderSize + 8)]
      .map((offset) => this.meta(offset))
      .filter((m) => m !== undefined);
    if (metas.length === 0) throw new Error('not a bbolt database: no valid meta page');
    const meta = metas.reduce((a, b) => (b.txid > a.txid ? b : a));
    this.pageSize = meta.pageSize;
    this.txid = meta.txid;
    this.root = meta.root;
  }

  private meta(offset: number) {
    if (offset <= 0 && offset !== 0) return undefined;
    const m = offset + PageHeaderSize;
    if (m + 64 > this.buf.length) return undefined;
    if (this.buf.readUInt32LE(m) !== Magic || this.buf.readUInt32LE(m + 4) !== 2) return undefined;
    if (fnv64a(this.buf.subarray(m, m + 56)) !== this.buf.readBigUInt64LE(m + 56)) return undefined;
    return {
      pageSize: this.buf.readUInt32LE(m + 8),
      root: Number(this.buf.readBigUInt64LE(m + 16)),
      txid: Number(this.buf.readBigUInt64LE(m + 48)),
    };
  }

  page(pgid: number): PageRef {
    const offset = pgid * this.pageSize;
    if (pgid < 2 || offset + PageHeaderSize > this.buf.length) throw new Error(`page ${pgid} outside the database`);
    return { offset };
  }

  private header(p: PageRef) {
    return { flags: this.buf.readUInt16LE(p.offset + 8), count: this.buf.readUInt16LE(p.offset + 10) };
  }

  private element(p: PageRef, i: number) {
    const at = p.offset + PageHeaderSize + i * ElementSize;
    return at;
  }

  /** The key of element `i` of a page. */
  private key(p: PageRef, i: number, leaf: boolean): Buffer {
    const at = this.element(p, i);
    const pos = this.buf.readUInt32LE(at + (leaf ? 4 : 0));
    const ksize = this.buf.readUInt32LE(at + (leaf ? 8 : 4));
    return this.buf.subarray(at + pos, at + pos + ksize);
  }

  /** The leaf element of `key` below page `p`: its flags and the value's place. */
  find(p: PageRef, key: Buffer): { flags: number; offset: number; length: number } | undefined {
    for (let depth = 0; depth < 64; depth++) {
      const { flags, count } = this.header(p);
      if (flags & BranchPage) {
        let child = 0;
        for (let i = 0; i < count; i++) if (Buffer.compare(this.key(p, i, false), key) <= 0) child = i;
        if (count === 0) return undefined;
        p = this.page(Number(this.buf.readBigUInt64LE(this.element(p, child) + 8)));
        continue;
      }
      if (!(flags & LeafPage)) throw new Error(`page at ${p.offset} is neither branch nor leaf`);
      for (let i = 0; i < count; i++) {
        const k = this.key(p, i, true);
        if (!k.equals(key)) continue;
        const at = this.element(p, i);
        const pos = this.buf.readUInt32LE(at + 4);
        const ksize = this.buf.readUInt32LE(at + 8);
        const vsize = this.buf.readUInt32LE(at + 12);
        return { flags: this.buf.readUInt32LE(at), offset: at + pos + ksize, length: vsize };
      }
      return undefined;
    }
    throw new Error('bbolt tree too deep');
  }

  /** The last key below page `p` (undefined for an empty tree). */
  lastKey(p: PageRef): Buffer | undefined {
    for (let depth = 0; depth < 64; depth++) {
      const { flags, count } = this.header(p);
      if (count === 0) return undefined;
      if (flags & BranchPage) {
        p = this.page(Number(this.buf.readBigUInt64LE(this.element(p, count - 1) + 8)));
        continue;
      }
      if (!(flags & LeafPage)) throw new Error(`page at ${p.offset} is neither branch nor leaf`);
      return this.key(p, count - 1, true);
    }
    throw new Error('bbolt tree too deep');
  }

  /** The root page of a top-level bucket (inline buckets are pages inside their value). */
  bucket(name: string): PageRef | undefined {
    const found = this.find(this.page(this.root), Buffer.from(name));
    if (!found || !(found.flags & BucketLeafFlag)) return undefined;
    const root = Number(this.buf.readBigUInt64LE(found.offset));
    return root === 0 ? { offset: found.offset + 16 } : this.page(root);
  }

  /** The place of the consistent index value (8 bytes, big endian). */
  consistentIndexAt(): number | undefined {
    const meta = this.bucket('meta');
    const found = meta && this.find(meta, Buffer.from('consistent_index'));
    return found && found.length === 8 ? found.offset : undefined;
  }
}

/** Splits etcd's snapshot stream into the database and checks the SHA-256 etcd appends; throws when it mismatches. */
export function verifySnapshotHash(stream: Buffer): Buffer {
  if (stream.length % 512 !== 32) return stream;
  const db = stream.subarray(0, stream.length - 32);
  const expected = stream.subarray(stream.length - 32);
  if (!createHash('sha256').update(db).digest().equals(expected))
    throw new Error('snapshot integrity check failed: SHA-256 mismatch');
  return db;
}

/** Validates a database (meta pages, buckets) and reads its revision and consistent index; throws when corrupt. */
export function inspectDatabase(buf: Buffer): DatabaseInfo {
  const db = new Database(buf);
  const keys = db.bucket('key');
  const last = keys && db.lastKey(keys);
  const revision = last && last.length >= 8 ? Number(last.readBigUInt64BE(0)) : 0;
  const at = db.consistentIndexAt();
  return {
    pageSize: db.pageSize,
    txid: db.txid,
    revision,
    ...(at !== undefined ? { consistentIndex: Number(buf.readBigUInt64BE(at)) } : {}),
  };
}

/** Sets the consistent index of a database to 0, in place (see the file header). */
export function resetConsistentIndex(buf: Buffer): void {
  const at = new Database(buf).consistentIndexAt();
  if (at !== undefined) buf.fill(0, at, at + 8);
}
