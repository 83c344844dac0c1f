// Model-based property test of the file store (fast-check `commands`): random creates, updates, deletes, concurrent
// bursts (group commit), restarts and — with a tiny compaction threshold — snapshots, against a model that is the
// committed write log. After every command the store holds the model's state, and the watch stream equals the log:
// every committed write once, in revision order, nothing else. Across a restart the watch resumes from the last
// revision it delivered; the store may answer Gone only when a snapshot newer than that revision replaced the log
// (then the client lists, as a reflector does, and the list must equal the model).
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileStorage, StorageError, type KubeObject, type StorageEvent, type Watch } from '../src/storage/index.js';
import { storeFiles } from '../src/storage/wal.js';

const PREFIX = '/registry/core/configmaps/ns/';
const KEYS = ['a', 'b', 'c', 'd', 'e'].map((k) => PREFIX + k);

let tempRoot: string;
let runs = 0;
beforeAll(async () => {
  tempRoot = await mkdtemp(join(tmpdir(), 'storage-model-'));
});
afterAll(async () => {
  await rm(tempRoot, { recursive: true, force: true });
});

interface Entry {
  revision: number;
  key: string;
  type: StorageEvent['type'];
  value: string;
}

/** The model: the committed write log and the state it leads to. */
interface Model {
  log: Entry[];
  state: Map<string, string>;
}

/** The real system: the store, and one client watching it across restarts. */
class Real {
  storage!: FileStorage;
  watch?: Watch;
  /** The log entries the watch must deliver, from where it (re)started, and what it delivered. */
  expected: Entry[] = [];
  delivered: Entry[] = [];
  lastDelivered = 0;
  /** How often a resume got a legitimate Gone (the test checks that this path runs at all). */
  gone = 0;
  failure?: string;

  constructor(
    readonly dir: string,
    readonly model: Model,
  ) {}

  async open(): Promise<void> {
    this.storage = new FileStorage(this.dir, { compactBytes: 1536, historySize: 10_000 });
    await this.storage.open();
  }

  /** Starts (or resumes) the watch after `revision`, expecting the model's log from there on. */
  startWatch(revision: number): void {
    this.expected = this.model.log.filter((e) => e.revision > revision);
    this.delivered = [];
    this.watch = this.storage.watch(
      { prefix: PREFIX, afterRevision: revision },
      (event) => this.onEvent(event),
      (err) => (this.failure ??= `the watch ended: ${err.message}`),
    );
  }

  /** A committed write joins the log; the watch must deliver it too. */
  committed(entry: Entry): void {
    this.model.log.push(entry);
    if (entry.type === 'DELETED') this.model.state.delete(entry.key);
    else this.model.state.set(entry.key, entry.value);
    if (this.watch) this.expected.push(entry);
  }

  /** The client drops its watch (a network cut, a restart of its own); writes go on without it. */
  disconnect(): void {
    this.watch?.stop();
    this.watch = undefined;
  }

  /**
   * The client resumes after the last revision it saw. Gone is allowed only when a snapshot newer than that revision
   * replaced the log it needed (after a restart): then it lists, the list must equal the model, and it watches on.
   */
  async resume(): Promise<void> {
    const after = this.lastDelivered;
    try {
      this.startWatch(after);
    } catch (err) {
      expect(err).toBeInstanceOf(StorageError);
      expect((err as StorageError).code).toBe('Gone');
      const snapshots = storeFiles(await readdir(this.dir)).filter((f) => f.kind === 'snapshot');
      expect(snapshots.at(-1)?.revision ?? 0, `Gone for a watch after ${after}`).toBeGreaterThan(after);
      this.gone++;
      const list = await this.storage.list({ prefix: PREFIX });
      expect(list.revision).toBe(this.model.log.at(-1)?.revision ?? 0);
      this.lastDelivered = list.revision;
      this.startWatch(list.revision);
    }
  }

  private onEvent(event: StorageEvent): void {
    this.delivered.push({
      revision: event.revision,
      key: event.key,
      type: event.type,
      value: String(event.object.data?.v),
    });
    this.lastDelivered = event.revision;
  }

  /** Store state and watch stream both equal the model. */
  async check(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve)); // replays are delivered on a later microtask
    expect(this.failure).toBeUndefined();
    if (this.watch) expect(this.delivered).toEqual(this.expected);
    const last = this.model.log.at(-1)?.revision ?? 0;
    expect(await this.storage.currentRevision()).toBe(last);
    const list = await this.storage.list({ prefix: PREFIX });
    expect(list.items.map((i) => [i.key, i.object.data.v, i.revision])).toEqual(
      [...this.model.state].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => [k, v, this.lastWriteOf(k)]),
    );
  }

  private lastWriteOf(key: string): number {
    return this.model.log.findLast((e) => e.key === key)!.revision;
  }
}

const configMap = (key: string, value: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: key.slice(PREFIX.length), namespace: 'ns' },
  data: { v: value, padding: 'x'.repeat(200) },
});

type Command = fc.AsyncCommand<Model, Real>;

/** Put: create when absent, else update; the revision must be the next one. */
class PutCommand implements Command {
  constructor(
    readonly key: string,
    readonly value: string,
  ) {}
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    const exists = model.state.has(this.key);
    const stored = exists
      ? await real.storage.update(this.key, configMap(this.key, this.value))
      : await real.storage.create(this.key, configMap(this.key, this.value));
    expect(stored.revision).toBe((model.log.at(-1)?.revision ?? 0) + 1);
    real.committed({
      revision: stored.revision,
      key: this.key,
      type: exists ? 'MODIFIED' : 'ADDED',
      value: this.value,
    });
    await real.check();
  }
  toString = () => `put(${this.key.slice(PREFIX.length)}=${this.value})`;
}

/** Delete: NotFound when absent (nothing committed), else a DELETED event with the last value. */
class DeleteCommand implements Command {
  constructor(readonly key: string) {}
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    const before = model.state.get(this.key);
    if (before === undefined) {
      await expect(real.storage.delete(this.key)).rejects.toMatchObject({ code: 'NotFound' });
    } else {
      const deleted = await real.storage.delete(this.key);
      real.committed({ revision: deleted.revision, key: this.key, type: 'DELETED', value: before });
    }
    await real.check();
  }
  toString = () => `delete(${this.key.slice(PREFIX.length)})`;
}

/** Concurrent puts of distinct keys: one group commit; the log takes them in the revisions the store gave them. */
class BurstCommand implements Command {
  constructor(readonly values: [string, string][]) {}
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    const writes = this.values.map(([key, value]) => {
      const exists = model.state.has(key);
      const write = exists
        ? real.storage.update(key, configMap(key, value))
        : real.storage.create(key, configMap(key, value));
      return write.then((stored) => ({
        revision: stored.revision,
        key,
        type: (exists ? 'MODIFIED' : 'ADDED') as Entry['type'],
        value,
      }));
    });
    const entries = (await Promise.all(writes)).sort((x, y) => x.revision - y.revision);
    const first = (model.log.at(-1)?.revision ?? 0) + 1;
    expect(entries.map((e) => e.revision)).toEqual(entries.map((_, i) => first + i));
    for (const entry of entries) real.committed(entry);
    await real.check();
  }
  toString = () => `burst(${this.values.map(([k, v]) => `${k.slice(PREFIX.length)}=${v}`).join(',')})`;
}

/** Close and reopen the store; a connected client resumes its watch on the new one. */
class RestartCommand implements Command {
  check = () => true;
  async run(_model: Model, real: Real): Promise<void> {
    const connected = real.watch !== undefined;
    real.disconnect();
    await real.storage.close();
    await real.open();
    if (connected) await real.resume();
    await real.check();
  }
  toString = () => 'restart';
}

/** The client's watch goes away for a while. */
class DisconnectCommand implements Command {
  check = () => true;
  async run(_model: Model, real: Real): Promise<void> {
    real.disconnect();
    await real.check();
  }
  toString = () => 'disconnect';
}

/** The client comes back and resumes after the last revision it saw. */
class ReconnectCommand implements Command {
  check = () => true;
  async run(_model: Model, real: Real): Promise<void> {
    if (!real.watch) await real.resume();
    await real.check();
  }
  toString = () => 'reconnect';
}

const key = fc.constantFrom(...KEYS);
const value = fc.stringMatching(/^[a-z0-9]{1,8}$/);
const commands = [
  fc.tuple(key, value).map(([k, v]) => new PutCommand(k, v)),
  key.map((k) => new DeleteCommand(k)),
  fc
    .uniqueArray(fc.tuple(key, value), { minLength: 2, maxLength: 5, selector: ([k]) => k })
    .map((vs) => new BurstCommand(vs)),
  fc.constant(new RestartCommand()),
  fc.constant(new DisconnectCommand()),
  fc.constant(new ReconnectCommand()),
];

describe('FileStorage against its write log (model-based)', () => {
  it('keeps the state and the watch stream equal to the committed log across restarts and compaction', async () => {
    const seen = { commands: 0, writes: 0, restarts: 0, gone: 0, snapshots: 0 };
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 60, size: '+1' }), async (cmds) => {
        const model: Model = { log: [], state: new Map() };
        const real = new Real(join(tempRoot, `run-${++runs}`), model);
        await real.open();
        real.startWatch(0);
        try {
          await fc.asyncModelRun(() => ({ model, real }), cmds);
        } finally {
          real.disconnect();
          await real.storage.close();
        }
        const list = [...cmds].map(String);
        seen.commands += list.length;
        seen.restarts += list.filter((c) => c === 'restart').length;
        seen.writes += model.log.length;
        seen.gone += real.gone;
        seen.snapshots += storeFiles(await readdir(real.dir)).filter((f) => f.kind === 'snapshot').length;
      }),
      { numRuns: 30 },
    );
    // The runs covered what the property is about: restarts, compaction into snapshots, and resumes that got Gone.
    expect(seen.restarts).toBeGreaterThan(10);
    expect(seen.snapshots).toBeGreaterThan(10);
    expect(seen.gone).toBeGreaterThan(0);
  });
});
