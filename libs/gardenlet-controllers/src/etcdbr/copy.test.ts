// etcdbrctl's copier between two Local stores in temporary directories: full and delta snapshots arrive byte for byte
// (the final mark dropped), a re-run copies nothing, the filters keep the latest backups, a missing source is an error
// naming it, and `etcdbrctl copy` reads druid's flags and $SOURCE_STORAGE_CONTAINER.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseEtcdbrctlArgs, runCopy } from './command.js';
import { backupsToCopy, copyBackups, waitForFinalSnapshot } from './copy.js';
import { deltaSnapshot, fullSnapshot, snapshotName, type Snapshot } from './snapshot.js';
import { LocalSnapStore, localStoreDirectory } from './store.js';

let root: string;
const NOW = new Date('2026-11-30T00:00:00Z');
const nowSeconds = NOW.getTime() / 1000;
const DAY = 86_400;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'etcdbr-copy-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const store = (bucket: string) => new LocalSnapStore(localStoreDirectory(join(root, bucket), 'entry/etcd-main'));
const data = (s: Snapshot) => Buffer.from(`contents of ${snapshotName(s)}`);
const silent = { info: () => undefined, error: () => undefined };

async function fill(target: LocalSnapStore, snapshots: Snapshot[]): Promise<void> {
  for (const s of snapshots) await target.save(s, data(s));
}

describe('copying backups', () => {
  const history = [
    fullSnapshot(10, nowSeconds - 3 * DAY),
    deltaSnapshot(11, 20, nowSeconds - 3 * DAY + 60),
    fullSnapshot(30, nowSeconds - DAY),
    deltaSnapshot(31, 40, nowSeconds - DAY + 60),
    fullSnapshot(45, nowSeconds - 60, '.gz', true),
  ];

  it('copies full and delta snapshots byte for byte, the final one as an ordinary full snapshot', async () => {
    const source = store('source-bucket');
    const target = store('target-bucket');
    await fill(source, history);
    const result = await copyBackups(source, target, { now: () => NOW });
    expect(result.skipped).toEqual([]);
    expect(result.copied).toHaveLength(5);
    const copied = await target.list();
    expect(copied.map((s) => `${s.kind}-${s.lastRevision}`)).toEqual([
      'Full-10',
      'Incr-20',
      'Full-30',
      'Incr-40',
      'Full-45',
    ]);
    expect(copied.every((s) => !s.final)).toBe(true);
    for (const s of history) expect(await target.fetch({ ...s, final: false })).toEqual(data(s));
    // The source is left as it was.
    expect((await source.list()).map(snapshotName)).toEqual(history.map(snapshotName));
  });

  it('is idempotent: a re-run copies only what is missing', async () => {
    const source = store('source-bucket');
    const target = store('target-bucket');
    await fill(source, history.slice(0, 2));
    await copyBackups(source, target, { now: () => NOW });
    await fill(source, history.slice(2));
    const second = await copyBackups(source, target, { now: () => NOW });
    expect(second.skipped).toEqual(history.slice(0, 2).map(snapshotName));
    expect(second.copied).toHaveLength(3);
    const third = await copyBackups(source, target, { now: () => NOW });
    expect(third.copied).toEqual([]);
    expect(third.skipped).toHaveLength(5);
    expect(await readdir(localStoreDirectory(join(root, 'target-bucket'), 'entry/etcd-main'))).toHaveLength(5);
  });

  it('keeps the latest maxBackups full snapshots with their deltas, and only young enough ones', async () => {
    const source = store('source-bucket');
    await fill(source, history);
    const latest = await copyBackups(source, store('latest'), { maxBackups: 2, now: () => NOW });
    expect(latest.copied).toEqual(
      [history[2]!, history[3]!, history[4]!].map((s) => snapshotName({ ...s, final: false })),
    );
    const young = await copyBackups(source, store('young'), { maxBackupAgeDays: 2, now: () => NOW });
    expect(young.copied).toHaveLength(3);
  });

  it('fails naming a source store that does not exist', async () => {
    const settings = parseEtcdbrctlArgs(
      ['copy', '--storage-provider=Local', '--store-prefix=entry/etcd-main', '--source-store-prefix=entry/etcd-main'],
      { STORAGE_CONTAINER: join(root, 'target'), SOURCE_STORAGE_CONTAINER: join(root, 'missing-bucket') },
    );
    const errors: { err: string }[] = [];
    expect(await runCopy(settings, { info: () => undefined, error: (obj) => errors.push(obj as never) })).toBe(1);
    expect(errors[0]?.err).toBe(
      `the source store container ${join(root, 'missing-bucket')} does not exist: there are no backups to copy from it`,
    );
  });

  it("runs `etcdbrctl copy` with druid's flags, the containers from the environment", async () => {
    await fill(store('source-bucket'), history);
    const settings = parseEtcdbrctlArgs(
      [
        'copy',
        '--snapstore-temp-directory=/home/nonroot/data/tmp',
        '--storage-provider=Local',
        '--store-prefix=entry/etcd-main',
        '--source-storage-provider=Local',
        '--source-store-prefix=entry/etcd-main',
        '--max-backups-to-copy=1',
        '--wait-for-final-snapshot=true',
        '--wait-for-final-snapshot-timeout=5m0s',
      ],
      { STORAGE_CONTAINER: join(root, 'target-bucket'), SOURCE_STORAGE_CONTAINER: join(root, 'source-bucket') },
    );
    expect(settings).toMatchObject({
      command: 'copy',
      storeDirectory: join(root, 'target-bucket/entry/etcd-main/v2'),
      copy: {
        sourceStoreDirectory: join(root, 'source-bucket/entry/etcd-main/v2'),
        maxBackups: 1,
        waitForFinalSnapshot: true,
        waitForFinalSnapshotTimeoutMs: 300_000,
      },
      ignored: ['--snapstore-temp-directory'],
    });
    expect(await runCopy(settings, silent)).toBe(0);
    const copied = await store('target-bucket').list();
    expect(copied.map(snapshotName)).toEqual([snapshotName({ ...history[4]!, final: false })]);
    expect(
      await readFile(join(root, 'target-bucket/entry/etcd-main/v2', snapshotName({ ...history[4]!, final: false }))),
    ).toEqual(data(history[4]!));
  });

  it('refuses other source providers and a copy without a source container', () => {
    expect(() => parseEtcdbrctlArgs(['copy', '--source-storage-provider=S3'])).toThrow(/source storage provider "S3"/);
    expect(() => parseEtcdbrctlArgs(['copy'], {})).toThrow(/--source-store-container or \$SOURCE_STORAGE_CONTAINER/);
    expect(() => parseEtcdbrctlArgs(['copy', '--max-backups-to-copy=-1'], { SOURCE_STORAGE_CONTAINER: '/s' })).toThrow(
      /--max-backups-to-copy/,
    );
  });

  it('waits for the final full snapshot, and gives up after the timeout', async () => {
    const source = store('source-bucket');
    await fill(source, history.slice(0, 4));
    expect(await waitForFinalSnapshot(source, { timeoutMs: 30, intervalMs: 10 })).toBe(false);
    setTimeout(() => void source.save(history[4]!, data(history[4]!)), 20);
    expect(await waitForFinalSnapshot(source, { timeoutMs: 5_000, intervalMs: 10 })).toBe(true);
  });
});

describe('the backups to copy', () => {
  const snapshotArb = fc
    .array(fc.record({ full: fc.boolean(), gap: fc.integer({ min: 1, max: 5 }) }), { maxLength: 20 })
    .map((steps) => {
      let revision = 0;
      return steps.map(({ full, gap }, i) => {
        const start = revision + 1;
        revision += gap;
        return full ? fullSnapshot(revision, i) : deltaSnapshot(start, revision, i);
      });
    });

  it('are a suffix of the store starting at a full snapshot, holding min(maxBackups, fulls) full snapshots', () => {
    fc.assert(
      fc.property(snapshotArb, fc.integer({ min: 1, max: 6 }), (snapshots, maxBackups) => {
        const chosen = backupsToCopy(snapshots, maxBackups);
        const fulls = snapshots.filter((s) => s.kind === 'Full').length;
        expect(chosen.filter((s) => s.kind === 'Full')).toHaveLength(Math.min(fulls, maxBackups));
        if (chosen.length > 0) expect(chosen[0]!.kind).toBe('Full');
        expect(chosen).toEqual(snapshots.slice(snapshots.length - chosen.length));
        expect(backupsToCopy(snapshots)).toEqual(snapshots);
      }),
    );
  });
});
