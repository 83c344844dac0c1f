// The local etcdbrctl against a real etcd process (/usr/bin/etcd): the sidecar server takes a gzip'd full snapshot at
// start into `<container>/<prefix>/v2` (a real etcd v3 snapshot: its SHA-256 checks, its revision is etcd's), skips a
// scheduled one without updates, takes a final one on `/snapshot/full?final=true` and reports it on
// `/snapshot/latest`; `initialize` restores a missing data dir from the latest full snapshot, and etcd started on it
// serves every key at its revision, accepts new writes at the next revision and keeps them across a restart (the
// consistent index reset); a valid data dir is left alone and a corrupt one is kept aside and restored. With a delta
// snapshot period, the changes after the full snapshot become `Incr-…` snapshots, and a restore replays them: keys
// written, changed and deleted after the full snapshot come back at their revisions.
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { freePort, startProcess, waitFor, type RunningProcess } from '@gardener-ts/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectDatabase, verifySnapshotHash } from '../src/etcdbr/bbolt.js';
import { connectEtcd, type EtcdSnapshotSource } from '../src/etcdbr/etcd.js';
import { dbPath, initialize } from '../src/etcdbr/initialize.js';
import { BackupServer } from '../src/etcdbr/server.js';
import { parseSnapshotName } from '../src/etcdbr/snapshot.js';
import { LocalSnapStore, localStoreDirectory } from '../src/etcdbr/store.js';

const ETCD_BINARY = '/usr/bin/etcd';
const silent = { info: () => undefined, warn: () => undefined };

let dir: string;
let etcd: RunningProcess | undefined;
let clientPort: number;
let peerPort: number;

async function startEtcd(dataDir: string): Promise<RunningProcess> {
  const proc = startProcess(ETCD_BINARY, [
    '--name=etcd-0',
    `--data-dir=${dataDir}`,
    `--listen-client-urls=http://127.0.0.1:${clientPort}`,
    `--advertise-client-urls=http://127.0.0.1:${clientPort}`,
    `--listen-peer-urls=http://127.0.0.1:${peerPort}`,
    `--initial-advertise-peer-urls=http://127.0.0.1:${peerPort}`,
    `--initial-cluster=etcd-0=http://127.0.0.1:${peerPort}`,
    '--initial-cluster-state=new',
  ]);
  await waitFor(
    'etcd to serve',
    () => {
      if (/ready to serve client requests|serving client traffic/.test(proc.output())) return true;
      if (proc.child.exitCode !== null) throw new Error(`etcd exited:\n${proc.output()}`);
      return undefined;
    },
    { timeoutMs: 20_000 },
  );
  return proc;
}

/** etcd's JSON gateway. */
async function kv(path: 'put' | 'range', body: Record<string, unknown>): Promise<any> {
  const b64 = (s: unknown) => (typeof s === 'string' ? Buffer.from(s).toString('base64') : s);
  const res = await fetch(`http://127.0.0.1:${clientPort}/v3/kv/${path}`, {
    method: 'POST',
    body: JSON.stringify(Object.fromEntries(Object.entries(body).map(([k, v]) => [k, b64(v)]))),
  });
  return res.json();
}
const get = async (key: string) => {
  const r = await kv('range', { key });
  const found = r.kvs?.[0];
  return found
    ? {
        value: Buffer.from(found.value, 'base64').toString(),
        modRevision: Number(found.mod_revision),
        revision: Number(r.header.revision),
      }
    : { value: undefined, revision: Number(r.header.revision) };
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'etcdbr-'));
  clientPort = await freePort();
  peerPort = await freePort();
});

afterAll(async () => {
  await etcd?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe.skipIf(!existsSync(ETCD_BINARY))('etcdbrctl against a real etcd', () => {
  const storeDir = () => localStoreDirectory(join(dir, 'bucket'), 'entry/etcd-main');
  let source: EtcdSnapshotSource;
  let server: BackupServer;

  it('snapshots etcd at start, skips an unchanged one, and takes a final one over HTTP', async () => {
    etcd = await startEtcd(join(dir, 'data'));
    for (let i = 0; i < 20; i++) await kv('put', { key: `/registry/k${i}`, value: `v${i}` });
    source = await connectEtcd({ endpoints: [`http://127.0.0.1:${clientPort}`] });
    const store = new LocalSnapStore(storeDir());
    server = new BackupServer({
      store,
      etcd: source,
      schedule: '0 0 1 1 *',
      garbageCollectionPolicy: 'LimitBased',
      maxBackups: 7,
      garbageCollectionPeriodMs: 0,
      compressionSuffix: '.gz',
      snapshotTimeoutMs: 10_000,
      port: 0,
      log: silent,
    });
    await server.start();
    const base = `http://127.0.0.1:${server.address()}`;
    await waitFor('healthz 200 after the start snapshot', async () => (await fetch(`${base}/healthz`)).status === 200);
    const [first] = await readdir(storeDir());
    const revision = (await get('/registry/k0')).revision;
    expect(first).toMatch(new RegExp(`^Full-00000000-${String(revision).padStart(8, '0')}-\\d+\\.gz$`));
    const db = verifySnapshotHash(gunzipSync(await readFile(join(storeDir(), first!))));
    expect(inspectDatabase(db).revision).toBe(revision);

    // Nothing changed: a full snapshot is skipped.
    expect(await (await fetch(`${base}/snapshot/full`)).json()).toMatchObject({ skipped: true });
    await kv('put', { key: '/registry/last', value: 'before-final' });
    const final = (await (await fetch(`${base}/snapshot/full?final=true`)).json()) as { snapName: string };
    expect(final).toMatchObject({ kind: 'Full', startRevision: 0, lastRevision: revision + 1, isFinal: true });
    expect(final.snapName).toMatch(/\.gz\.final$/);
    const latest = await (await fetch(`${base}/snapshot/latest`)).json();
    expect(latest).toEqual({ fullSnapshot: final, deltaSnapshots: [] });
    expect((await readdir(storeDir())).map(parseSnapshotName).filter(Boolean)).toHaveLength(2);
    await server.stop();
  }, 30_000);

  it('restores a missing data dir from the latest full snapshot with every key at its revision', async () => {
    const before = await get('/registry/last');
    await etcd!.stop();
    etcd = undefined;
    const store = new LocalSnapStore(storeDir());
    const restored = join(dir, 'restored');
    const result = await initialize(restored, store, silent);
    expect(result).toMatchObject({
      action: 'restored',
      revision: before.revision,
      reason: 'the data dir does not exist',
    });
    expect(inspectDatabase(await readFile(dbPath(restored))).consistentIndex).toBe(0);

    etcd = await startEtcd(restored);
    expect(await get('/registry/last')).toEqual(before);
    expect((await get('/registry/k7')).value).toBe('v7');
    await kv('put', { key: '/registry/after', value: 'restore' });
    expect((await get('/registry/after')).modRevision).toBe(before.revision + 1);
    // The new write is applied and durable: it survives a restart of etcd on the restored dir.
    await etcd.stop();
    etcd = await startEtcd(restored);
    expect((await get('/registry/after')).value).toBe('restore');
    await etcd.stop();
    etcd = undefined;

    // A valid data dir, not behind the store, is left alone.
    expect(await initialize(restored, store, silent)).toEqual({ action: 'valid', revision: before.revision + 1 });
    // A corrupt one is kept aside and restored.
    await writeFile(dbPath(restored), 'garbage');
    const again = await initialize(restored, store, silent, { now: () => new Date(1_000_000) });
    expect(again).toMatchObject({ action: 'restored', revision: before.revision });
    expect(again.action === 'restored' && again.reason).toMatch(/corrupt/);
    expect(existsSync(`${restored}.corrupt-1000`)).toBe(true);
  }, 60_000);

  it('leaves a missing data dir to a new etcd when the store has no full snapshot', async () => {
    const empty = new LocalSnapStore(join(dir, 'nothing'));
    expect(await initialize(join(dir, 'fresh'), empty, silent)).toEqual({
      action: 'none',
      reason: 'the data dir does not exist',
    });
  });

  it('takes delta snapshots after the full one and replays them on restore, keys at their revisions', async () => {
    etcd = await startEtcd(join(dir, 'delta-data'));
    await kv('put', { key: '/registry/base', value: 'full' });
    await kv('put', { key: '/registry/gone', value: 'soon' });
    const deltaStore = new LocalSnapStore(join(dir, 'delta-store'));
    source = await connectEtcd({ endpoints: [`http://127.0.0.1:${clientPort}`] });
    server = new BackupServer({
      store: deltaStore,
      etcd: source,
      schedule: '0 0 1 1 *',
      garbageCollectionPolicy: 'LimitBased',
      maxBackups: 7,
      garbageCollectionPeriodMs: 0,
      deltaSnapshotPeriodMs: 1000,
      compressionSuffix: '.gz',
      snapshotTimeoutMs: 10_000,
      port: 0,
      log: silent,
    });
    await server.start();
    await waitFor('the full snapshot', async () => (await deltaStore.list()).some((s) => s.kind === 'Full'));
    await kv('put', { key: '/registry/base', value: 'changed' });
    await kv('put', { key: '/registry/new', value: 'delta' });
    await kv('put', { key: '/registry/gone', value: 'x' });
    await fetch(`http://127.0.0.1:${clientPort}/v3/kv/deleterange`, {
      method: 'POST',
      body: JSON.stringify({ key: Buffer.from('/registry/gone').toString('base64') }),
    });
    const last = await get('/registry/base');
    const changed = await get('/registry/new');
    await waitFor(
      'delta snapshots up to the last revision',
      async () => (await deltaStore.list()).at(-1)?.lastRevision === changed.revision,
      { timeoutMs: 15_000 },
    );
    const incr = (await deltaStore.list()).filter((s) => s.kind === 'Incr');
    expect(incr.length).toBeGreaterThan(0);
    await server.stop();
    await etcd.stop();
    etcd = undefined;

    const restored = join(dir, 'delta-restored');
    expect(await initialize(restored, deltaStore, silent)).toMatchObject({
      action: 'restored',
      revision: changed.revision,
    });
    etcd = await startEtcd(restored);
    expect(await get('/registry/base')).toEqual(last);
    expect(await get('/registry/new')).toEqual(changed);
    expect((await get('/registry/gone')).value).toBeUndefined();
    await kv('put', { key: '/registry/after', value: 'restore' });
    expect((await get('/registry/after')).modRevision).toBe(changed.revision + 1);
    await etcd.stop();
    etcd = undefined;
  }, 60_000);
});
