// The file store never loses or exposes what it acknowledged: a log damaged in the middle stops the start (a torn
// last record is dropped and reported), the store is private to its owner (0700/0600, fixed on existing data dirs),
// and one API server at a time owns a data dir — a lock that a SIGKILLed holder does not leave behind.
import { spawn } from 'node:child_process';
import { appendFile, chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@gardener-ts/logging';
import { FileStorage, type KubeObject } from '../src/storage/index.js';
import { LocalApiServer } from '../src/index.js';

const libDir = fileURLToPath(new URL('..', import.meta.url));
const writerScript = fileURLToPath(new URL('./storage/fixtures/file-writer.ts', import.meta.url));

let tempRoot: string;
let dirs = 0;
const newDir = () => join(tempRoot, `store-${++dirs}`);

beforeAll(async () => {
  tempRoot = await mkdtemp(join(tmpdir(), 'storage-hardening-'));
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
const key = (i: number) => `/registry/core/configmaps/ns/c${String(i).padStart(2, '0')}`;

async function opened(dir: string, options: ConstructorParameters<typeof FileStorage>[1] = {}): Promise<FileStorage> {
  const storage = new FileStorage(dir, options);
  await storage.open();
  return storage;
}

/** A store with `count` ConfigMaps written one by one (one frame each); returns the log's path. */
async function storeWith(dir: string, count: number): Promise<string> {
  const storage = await opened(dir);
  for (let i = 1; i <= count; i++) await storage.create(key(i), configMap(`c${i}`, { i: String(i) }));
  await storage.close();
  const [log] = (await readdir(dir)).filter((n) => n.endsWith('.log'));
  return join(dir, log);
}

/** The byte offset of each frame of a log (frame = u32 length, u32 CRC, payload). */
function frameOffsets(data: Buffer): number[] {
  const offsets: number[] = [];
  for (let at = 0; at + 8 <= data.length; at += 8 + data.readUInt32LE(at)) offsets.push(at);
  return offsets;
}

/** A logger whose warnings the test can read. */
function capturingLogger(): { log: ReturnType<typeof createLogger>; lines: () => KubeObject[] } {
  let text = '';
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  const log = createLogger({ name: 'storage-test', level: 'info', destination });
  return {
    log,
    lines: () =>
      text
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as KubeObject),
  };
}

describe('a damaged write-ahead log', () => {
  it('refuses to start on a frame in the middle that fails its CRC, naming the file, the offset and the repair', async () => {
    const dir = newDir();
    const log = await storeWith(dir, 10);
    const data = await readFile(log);
    const offsets = frameOffsets(data);
    expect(offsets).toHaveLength(10);
    // One flipped bit in the payload of revision 4: acknowledged writes 5..10 follow it.
    const damaged = Buffer.from(data);
    damaged[offsets[3] + 8 + 20] ^= 0x01;
    await writeFile(log, damaged);

    const storage = new FileStorage(dir);
    const failure = storage.open();
    await expect(failure).rejects.toThrow(`the write-ahead log ${log} is corrupt at byte ${offsets[3]}`);
    await expect(failure).rejects.toThrow('The last intact record before the damage is revision 3');
    await expect(failure).rejects.toThrow(`truncate -s ${offsets[3]} '${log}'`);
    // Nothing was cut off: the file is as it was, for a backup or a decision by its owner.
    expect(Buffer.compare(await readFile(log), damaged)).toBe(0);
    // The failed start left no lock behind: after the documented repair the store opens with revisions 1..3.
    await truncate(log, offsets[3]);
    const repaired = await opened(dir);
    try {
      expect(await repaired.currentRevision()).toBe(3);
      expect((await repaired.list({ prefix: '/registry/' })).items.map((i) => i.object.data.i)).toEqual([
        '1',
        '2',
        '3',
      ]);
    } finally {
      await repaired.close();
    }
  });

  it('refuses to start when a length field in the middle is damaged', async () => {
    const dir = newDir();
    const log = await storeWith(dir, 6);
    const data = await readFile(log);
    const offsets = frameOffsets(data);
    // A length that runs past the end of the file: it looks like a torn frame, but intact frames follow it.
    data.writeUInt32LE(data.length * 4, offsets[1]);
    await writeFile(log, data);
    await expect(new FileStorage(dir).open()).rejects.toThrow(`${log} is corrupt at byte ${offsets[1]}`);
  });

  it('drops a bad last frame and reports it', async () => {
    const dir = newDir();
    const log = await storeWith(dir, 5);
    const data = await readFile(log);
    const offsets = frameOffsets(data);
    data[offsets[4] + 8 + 10] ^= 0x01; // the last acknowledged frame itself: nothing after it can be lost
    await writeFile(log, data);
    const { log: logger, lines } = capturingLogger();
    const storage = await opened(dir, { log: logger });
    try {
      expect(await storage.currentRevision()).toBe(4);
      const warning = lines().find((l) => l.level === 'warn');
      expect(warning?.msg).toContain(`dropping the torn last record of ${log} (bytes ${offsets[4]}-${data.length})`);
      expect(warning).toMatchObject({ path: log, offset: offsets[4], revision: 4 });
      expect((await storage.create(key(9), configMap('c9'))).revision).toBe(5);
    } finally {
      await storage.close();
    }
  });

  it('drops a zero-filled tail, what a crash during an append can leave on ext4', async () => {
    const dir = newDir();
    const log = await storeWith(dir, 3);
    await appendFile(log, Buffer.alloc(4096));
    const storage = await opened(dir);
    try {
      expect(await storage.currentRevision()).toBe(3);
      await storage.create(key(4), configMap('c4'));
    } finally {
      await storage.close();
    }
    const reopened = await opened(dir);
    expect((await reopened.get(key(4)))?.revision).toBe(4);
    await reopened.close();
  });
});

describe('file modes', () => {
  const mode = async (path: string) => (await stat(path)).mode & 0o777;

  it('creates the store directory 0700 and every file 0600, snapshots included', async () => {
    const dir = newDir();
    const storage = await opened(dir, { compactBytes: 2048 });
    for (let i = 0; i < 40; i++) await storage.create(key(i), configMap(`c${i}`, { secret: 'x'.repeat(100) }));
    await storage.close();
    const names = await readdir(dir);
    expect(names.some((n) => n.endsWith('.snap'))).toBe(true);
    expect(names.some((n) => n.endsWith('.log'))).toBe(true);
    expect(await mode(dir)).toBe(0o700);
    for (const name of names) expect(await mode(join(dir, name)), name).toBe(0o600);
  });

  it('tightens an existing world-readable data dir on start', async () => {
    const dir = newDir();
    await storeWith(dir, 2);
    await chmod(dir, 0o755);
    for (const name of await readdir(dir)) await chmod(join(dir, name), 0o644);
    const storage = await opened(dir);
    await storage.close();
    expect(await mode(dir)).toBe(0o700);
    for (const name of await readdir(dir)) expect(await mode(join(dir, name)), name).toBe(0o600);
  });

  it("keeps the API server's data dir 0700 and its keys 0600, tightening an existing world-readable one", async () => {
    const dataDir = newDir();
    await (await LocalApiServer.start({ dataDir })).stop();
    expect(await mode(dataDir)).toBe(0o700);
    const everything = async () => [
      dataDir,
      ...(await readdir(dataDir, { recursive: true })).map((name) => join(dataDir, name)),
    ];
    for (const path of await everything()) await chmod(path, (await stat(path)).isDirectory() ? 0o755 : 0o644);

    await (await LocalApiServer.start({ dataDir })).stop();
    const secret = (path: string) => path.endsWith('.key') || path.endsWith('kubeconfig') || path.includes('/store/');
    for (const path of await everything()) {
      const want = (await stat(path)).isDirectory() ? 0o700 : secret(path) ? 0o600 : 0o644;
      expect(await mode(path), path).toBe(want);
    }
  });
});

describe('the data dir lock', () => {
  it('refuses a second API server on the same data dir, naming the dir and the holder', async () => {
    const dataDir = newDir();
    const first = await LocalApiServer.start({ dataDir });
    try {
      const second = LocalApiServer.start({ dataDir });
      await expect(second).rejects.toThrow(`the data directory ${dataDir} is locked by process ${process.pid}`);
      await expect(second).rejects.toThrow('another API server uses this data directory');
      // The first one goes on serving and writing.
      const def = first.registry.get('', 'v1', 'configmaps')!;
      const { internalContext } = await import('../src/server/context.js');
      await first.objects.create(
        def,
        'default',
        { metadata: { name: 'still-mine' }, data: {} },
        internalContext('test'),
      );
    } finally {
      await first.stop();
    }
    // Stopping frees the dir for the next server, with its data.
    const next = await LocalApiServer.start({ dataDir });
    try {
      expect((await next.storage.get('/registry/core/configmaps/default/still-mine'))?.object.metadata.name).toBe(
        'still-mine',
      );
    } finally {
      await next.stop();
    }
  });

  it("locks the whole data dir with memory storage too: its kubeconfig and credentials are one server's", async () => {
    const dataDir = newDir();
    const first = await LocalApiServer.start({ dataDir, storage: 'memory' });
    try {
      const kubeconfig = await readFile(join(dataDir, 'kubeconfig'), 'utf8');
      const second = LocalApiServer.start({ dataDir, storage: 'memory' });
      await expect(second).rejects.toThrow(`the data directory ${dataDir} is locked by process ${process.pid}`);
      await expect(second).rejects.toMatchObject({ code: 'EDIRLOCKED' });
      // The second server wrote nothing: the kubeconfig still points at the first.
      expect(await readFile(join(dataDir, 'kubeconfig'), 'utf8')).toBe(kubeconfig);
      expect(kubeconfig).toContain(first.url);
    } finally {
      await first.stop();
    }
    const next = await LocalApiServer.start({ dataDir, storage: 'memory' });
    await next.stop();
  });

  it('frees the data dir and the store when a start fails after the store was opened', async () => {
    const dataDir = newDir();
    // A token file that does not exist is read after the store is open (as `--token-auth-file` is).
    const failed = LocalApiServer.start({ dataDir, tokenFile: join(dataDir, 'missing-tokens.csv') });
    await expect(failed).rejects.toThrow('missing-tokens.csv');
    // Nothing stays locked in this process: the same data dir serves at once.
    const next = await LocalApiServer.start({ dataDir });
    await next.stop();
  });

  it("reports a dropped torn log tail through the server's logger", async () => {
    const dataDir = newDir();
    const first = await LocalApiServer.start({ dataDir });
    const def = first.registry.get('', 'v1', 'configmaps')!;
    const { internalContext } = await import('../src/server/context.js');
    await first.objects.create(def, 'default', { metadata: { name: 'last' }, data: {} }, internalContext('test'));
    await first.stop();
    const store = join(dataDir, 'store');
    const logName = (await readdir(store))
      .filter((n) => n.endsWith('.log'))
      .sort()
      .at(-1)!;
    // A torn last record, as a crash in the middle of a write leaves it.
    await appendFile(join(store, logName), Buffer.from([0x20, 0x00, 0x00, 0x00, 0x01, 0x02]));
    const { log, lines } = capturingLogger();
    const next = await LocalApiServer.start({ dataDir, logger: log });
    try {
      const warning = lines().find((l) => l.level === 'warn');
      expect(warning?.msg).toContain(`dropping the torn last record of ${join(store, logName)}`);
      expect((await next.storage.get('/registry/core/configmaps/default/last'))?.object.metadata.name).toBe('last');
    } finally {
      await next.stop();
    }
  });

  it('blocks a second process while the holder lives, and not after the holder is killed with SIGKILL', async () => {
    const dir = newDir();
    await mkdir(dir, { recursive: true });
    const child = spawn(process.execPath, ['--import', 'tsx', writerScript, dir], {
      cwd: libDir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const acknowledged = new Map<string, number>();
    try {
      for await (const line of createInterface({ input: child.stdout })) {
        const [name, revision] = line.split(' ');
        if (name === 'open') continue;
        acknowledged.set(name, Number(revision));
        if (acknowledged.size === 50) break;
      }
      expect(acknowledged.size, stderr).toBe(50);
      // While the writer runs, its directory is its own.
      await expect(new FileStorage(dir).open()).rejects.toThrow(
        `the store directory ${dir} is locked by process ${child.pid}`,
      );
    } finally {
      child.kill('SIGKILL');
      await exited;
    }
    // kill -9 leaves no stale lock: the restart opens at once, with every acknowledged write.
    const storage = await opened(dir);
    try {
      for (const [name, revision] of acknowledged) expect((await storage.get(name))?.revision, name).toBe(revision);
    } finally {
      await storage.close();
    }
  });
});
