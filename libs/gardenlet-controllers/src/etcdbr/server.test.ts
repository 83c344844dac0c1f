// When the sidecar takes a full snapshot at start, and how it dials druid's `<name>-local` endpoint in local mode.
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inspectDatabase, verifySnapshotHash } from './bbolt.js';
import { dialTarget } from './etcd.js';
import { BackupServer, fullSnapshotDue } from './server.js';
import type { Snapshot } from './snapshot.js';
import type { SnapStore } from './store.js';

const fullAt = (iso: string): Snapshot => ({
  kind: 'Full',
  startRevision: 0,
  lastRevision: 5,
  createdOn: Date.parse(iso) / 1000,
  compressionSuffix: '.gz',
  final: false,
});

describe('the start snapshot', () => {
  it('is due without a full snapshot, or when the schedule fired since the latest one', () => {
    const now = new Date('2026-01-02T10:20:00Z');
    expect(fullSnapshotDue(undefined, '0 */24 * * *', now)).toBe(true);
    expect(fullSnapshotDue(fullAt('2026-01-02T00:30:00Z'), '0 */24 * * *', now)).toBe(false);
    expect(fullSnapshotDue(fullAt('2026-01-01T23:59:00Z'), '0 */24 * * *', now)).toBe(true);
    expect(fullSnapshotDue(fullAt('2026-01-02T10:05:00Z'), '0 */1 * * *', now)).toBe(false);
    expect(fullSnapshotDue(fullAt('2026-01-02T09:59:00Z'), '0 */1 * * *', now)).toBe(true);
  });
});

describe("druid's etcd endpoint", () => {
  it('dials <name>-local at the Pod IP and verifies the name; other hosts as they are', () => {
    expect(dialTarget('https://etcd-main-local:2379', '127.10.0.5')).toEqual({
      host: 'https://127.10.0.5:2379',
      servername: 'etcd-main-local',
    });
    expect(dialTarget('https://etcd-main-local:2379', undefined)).toEqual({ host: 'https://etcd-main-local:2379' });
    expect(dialTarget('http://127.0.0.1:2379', '127.10.0.5')).toEqual({ host: 'http://127.0.0.1:2379' });
  });
});

describe("etcd's snapshot stream", () => {
  it('is the database followed by its SHA-256, checked and cut; a changed byte fails the check', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.nat(), (pages, flip) => {
        const db = Buffer.alloc(pages * 512, 7);
        const stream = Buffer.concat([db, createHash('sha256').update(db).digest()]);
        expect(verifySnapshotHash(stream).equals(db)).toBe(true);
        stream[flip % db.length] ^= 1;
        expect(() => verifySnapshotHash(stream)).toThrow(/SHA-256 mismatch/);
      }),
    );
  });

  it('refuses what is no bbolt database', () => {
    expect(() => inspectDatabase(Buffer.from('garbage'))).toThrow(/not a bbolt database/);
    expect(() => inspectDatabase(Buffer.alloc(8192))).toThrow(/no valid meta page/);
  });
});

describe('a follower’s sidecar', () => {
  it('takes no snapshot: healthy, and /snapshot/full answers 503', async () => {
    const saved: Snapshot[] = [];
    const store: SnapStore = {
      list: async () => [],
      save: async (s) => void saved.push(s),
      fetch: async () => Buffer.alloc(0),
      delete: async () => undefined,
    };
    let snapshots = 0;
    const server = new BackupServer({
      store,
      etcd: {
        isLeader: async () => false,
        kv: { txn: async () => ({ header: { revision: '0' } }) },
        watch: async () => async () => undefined,
        snapshot: async () => {
          snapshots++;
          throw new Error('not expected');
        },
        close: () => undefined,
      },
      schedule: '0 0 1 1 *',
      garbageCollectionPolicy: 'LimitBased',
      maxBackups: 7,
      garbageCollectionPeriodMs: 0,
      compressionSuffix: '.gz',
      snapshotTimeoutMs: 1000,
      port: 0,
      log: { info: () => undefined, warn: () => undefined },
    });
    await server.start();
    try {
      const base = `http://127.0.0.1:${server.address()}`;
      const full = await fetch(`${base}/snapshot/full?final=true`);
      expect(full.status).toBe(503);
      expect(await full.json()).toEqual({ error: expect.stringMatching(/not the leader/) });
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      expect((await fetch(`${base}/snapshot/latest`)).status).toBe(404);
      expect(snapshots).toBe(0);
      expect(saved).toEqual([]);
    } finally {
      await server.stop();
    }
  });
});
