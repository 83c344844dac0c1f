// FileStorage across crashes and restarts: a writer killed with SIGKILL, a torn last record, compaction.
import { spawn } from 'node:child_process';
import { appendFile, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileStorage, StorageError, type KubeObject } from '../../src/storage/index.js';

const libDir = fileURLToPath(new URL('../..', import.meta.url));
const writerScript = fileURLToPath(new URL('./fixtures/file-writer.ts', import.meta.url));

let tempRoot: string;
let dirs = 0;
const newDir = () => join(tempRoot, `store-${++dirs}`);

beforeAll(async () => {
  tempRoot = await mkdtemp(join(tmpdir(), 'storage-durability-'));
});
afterAll(async () => {
  await rm(tempRoot, { recursive: true, force: true });
});

const configMap = (name: string, data: Record<string, string> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'ns' },
  data,
});

async function opened(dir: string, compactBytes?: number): Promise<FileStorage> {
  const storage = new FileStorage(dir, { compactBytes });
  await storage.open();
  return storage;
}

/** Runs the writer child until it has acknowledged `count` writes, then SIGKILLs it; returns key → revision. */
async function killWriterAfter(dir: string, count: number, compactBytes?: number): Promise<Map<string, number>> {
  const args = ['--import', 'tsx', writerScript, dir, ...(compactBytes ? [String(compactBytes)] : [])];
  const child = spawn(process.execPath, args, { cwd: libDir, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const acknowledged = new Map<string, number>();
  for await (const line of createInterface({ input: child.stdout })) {
    const [key, revision] = line.split(' ');
    if (key === 'open') continue;
    acknowledged.set(key, Number(revision));
    if (acknowledged.size === count) child.kill('SIGKILL');
  }
  await exited;
  if (acknowledged.size < count) throw new Error(`the writer stopped after ${acknowledged.size} writes:\n${stderr}`);
  expect(child.signalCode).toBe('SIGKILL');
  return acknowledged;
}

describe('FileStorage durability', () => {
  it.each([
    ['one log', undefined],
    ['compacting every 32 KiB', 32 * 1024],
  ])('keeps every acknowledged write of a writer killed with SIGKILL (%s)', async (_label, compactBytes) => {
    const dir = newDir();
    const acknowledged = await killWriterAfter(dir, 1500, compactBytes);
    const storage = await opened(dir);
    try {
      for (const [key, revision] of acknowledged) {
        const stored = await storage.get(key);
        expect(stored?.revision, key).toBe(revision);
        expect(stored!.object.metadata.resourceVersion).toBe(String(revision));
      }
      const max = Math.max(...acknowledged.values());
      const current = await storage.currentRevision();
      expect(current).toBeGreaterThanOrEqual(max);
      const list = await storage.list({ prefix: '/registry/core/pods/' });
      expect(new Set(list.items.map((i) => i.revision)).size).toBe(list.items.length);
      expect(list.items.length).toBeGreaterThanOrEqual(acknowledged.size);
      const next = await storage.create('/registry/core/configmaps/ns/after', configMap('after'));
      expect(next.revision).toBe(current + 1);
    } finally {
      await storage.close();
    }
  });

  it('drops a torn last record and keeps everything before it', async () => {
    const dir = newDir();
    let storage = await opened(dir);
    for (let i = 0; i < 10; i++)
      await storage.create(`/registry/core/configmaps/ns/c${i}`, configMap(`c${i}`, { i: String(i) }));
    await storage.delete('/registry/core/configmaps/ns/c9');
    await storage.close();
    const [log] = (await readdir(dir)).filter((n) => n.endsWith('.log'));
    // A frame that promises 200 bytes and has 20: what a crash in the middle of an append leaves.
    const torn = Buffer.alloc(8 + 20, 0x7b);
    torn.writeUInt32LE(200, 0);
    await appendFile(join(dir, log), torn);

    storage = await opened(dir);
    expect(await storage.currentRevision()).toBe(11);
    expect((await storage.list({ prefix: '/registry/' })).items.map((i) => i.object.data.i)).toEqual([
      '0',
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
      '7',
      '8',
    ]);
    const next = await storage.create('/registry/core/configmaps/ns/new', configMap('new'));
    expect(next.revision).toBe(12);
    await storage.close();

    // The write after the torn record replays too: the garbage was cut off, not written after.
    storage = await opened(dir);
    expect((await storage.get('/registry/core/configmaps/ns/new'))?.revision).toBe(12);
    await storage.close();
  });

  it('stops at a last record whose checksum does not match', async () => {
    const dir = newDir();
    let storage = await opened(dir);
    await storage.create('/registry/core/configmaps/ns/a', configMap('a'));
    await storage.close();
    const [log] = (await readdir(dir)).filter((n) => n.endsWith('.log'));
    const payload = Buffer.from('{"r":2,"k":"/registry/core/configmaps/ns/b","v":{}}');
    const frame = Buffer.concat([Buffer.alloc(8), payload]);
    frame.writeUInt32LE(payload.length, 0);
    frame.writeUInt32LE(12345, 4);
    await appendFile(join(dir, log), frame);
    storage = await opened(dir);
    expect(await storage.get('/registry/core/configmaps/ns/b')).toBeUndefined();
    expect(await storage.currentRevision()).toBe(1);
    await storage.close();
  });

  it('compacts into a snapshot and a new log, and restarts from them', async () => {
    const dir = newDir();
    let storage = await opened(dir, 8 * 1024);
    for (let i = 0; i < 300; i++)
      await storage.create(
        `/registry/core/configmaps/ns/c${String(i).padStart(3, '0')}`,
        configMap(`c${i}`, { v: '1' }),
      );
    await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        storage.update(`/registry/core/configmaps/ns/c${String(i).padStart(3, '0')}`, configMap(`c${i}`, { v: '2' })),
      ),
    );
    for (let i = 200; i < 300; i++) await storage.delete(`/registry/core/configmaps/ns/c${i}`);
    const before = await storage.list({ prefix: '/registry/' });
    const revision = await storage.currentRevision();
    expect(revision).toBe(500);
    await storage.close();
    const files = (await readdir(dir)).sort();
    expect(files.filter((n) => n.endsWith('.snap'))).toHaveLength(1);
    expect(files.filter((n) => n.endsWith('.log'))).toHaveLength(1);

    storage = await opened(dir);
    const after = await storage.list({ prefix: '/registry/' });
    expect(after.revision).toBe(revision);
    expect(after.items).toEqual(before.items);
    expect(after.items).toHaveLength(200);
    expect(after.items[0].object.data).toEqual({ v: '2' });
    // The history after a restart starts at most at the snapshot: older watches get Gone, as from etcd.
    expect(() =>
      storage.watch(
        { prefix: '/registry/', afterRevision: 1 },
        () => {},
        () => {},
      ),
    ).toThrow(StorageError);
    const events: number[] = [];
    const watch = storage.watch(
      { prefix: '/registry/', afterRevision: revision },
      (e) => events.push(e.revision),
      () => {},
    );
    const next = await storage.create('/registry/core/configmaps/ns/next', configMap('next'));
    expect(next.revision).toBe(revision + 1);
    expect(events).toEqual([revision + 1]);
    watch.stop();
    await storage.close();
  });

  it('keeps the revision of a last write that was a delete across restarts', async () => {
    const dir = newDir();
    let storage = await opened(dir);
    await storage.create('/registry/core/configmaps/ns/a', configMap('a'));
    const deleted = await storage.delete('/registry/core/configmaps/ns/a');
    await storage.close();
    storage = await opened(dir);
    expect(await storage.currentRevision()).toBe(deleted.revision);
    expect((await storage.list({ prefix: '/registry/' })).items).toEqual([]);
    await storage.close();
  });

  it('refuses to work before open() and after close()', async () => {
    const storage = new FileStorage(newDir());
    await expect(storage.get('/registry/x')).rejects.toMatchObject({ code: 'Unavailable' });
    await storage.open();
    await storage.close();
    await expect(storage.create('/registry/x', configMap('x'))).rejects.toMatchObject({ code: 'Unavailable' });
  });
});
