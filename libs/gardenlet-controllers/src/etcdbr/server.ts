// etcd-backup-restore's server (`etcdbrctl server`), the sidecar beside etcd: full snapshots on the cron schedule
// (`--schedule`, UTC) and one at start when the store has none or a scheduled one was missed, skipped when etcd's
// revision has not moved since the latest full snapshot (etcd-backup-restore's rule; a final snapshot is always
// taken); delta snapshots: every key is watched from the latest snapshot's revision on, and every
// `--delta-snapshot-period` (at least 1 s, else none) the events gathered become `Incr-<first>-<last>-<unix>`
// (delta.ts), a broken watch (etcd compacted past it) is healed with a full snapshot; garbage collection every
// `--garbage-collection-period`; and its HTTP API: `GET /healthz` (200 `{"health":true}` once the latest full
// snapshot attempt succeeded, else 503), `GET /snapshot/full[?final=true]` (an out-of-schedule full snapshot, `.final`
// for the final one before a migration; answers the snapshot's metadata) and `GET /snapshot/latest` (the latest full
// snapshot and its deltas). Snapshots are taken one at a time and only by the sidecar of etcd's leader (a follower's
// `/snapshot/full` answers 503). Not here: `/snapshot/delta`, the initialization endpoints (an init container runs
// `etcdbrctl initialize` instead), defragmentation, member and snapshot leases.
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { CronExpressionParser } from 'cron-parser';
import { inspectDatabase, verifySnapshotHash } from './bbolt.js';
import type { EtcdSnapshotSource } from './etcd.js';
import { garbageCollect, type GarbageCollectionPolicy } from './gc.js';
import { deltaSnapshot, fullSnapshot, restorePlan, snapshotName, type Snapshot } from './snapshot.js';
import { compress, type SnapStore } from './store.js';
import { encodeDeltaSnapshot, type DeltaEvent } from './delta.js';

/** The sidecar's settings (from etcdbrctl's flags). */
export interface BackupServerOptions {
  store: SnapStore;
  etcd: EtcdSnapshotSource;
  /** Full snapshot cron schedule (UTC). */
  schedule: string;
  garbageCollectionPolicy: GarbageCollectionPolicy;
  maxBackups: number;
  /** 0 (or below 1 s): no garbage collection, as etcd-backup-restore. */
  garbageCollectionPeriodMs: number;
  /** Below 1 s: no delta snapshots. */
  deltaSnapshotPeriodMs?: number;
  compressionSuffix: string;
  snapshotTimeoutMs: number;
  port: number;
  tls?: { cert: Buffer; key: Buffer };
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  now?: () => Date;
}

/** The JSON etcd-backup-restore answers for a snapshot. */
export function snapshotJSON(s: Snapshot) {
  return {
    kind: s.kind,
    startRevision: s.startRevision,
    lastRevision: s.lastRevision,
    createdOn: new Date(s.createdOn * 1000).toISOString(),
    snapName: snapshotName(s),
    compressionSuffix: s.compressionSuffix,
    isFinal: s.final,
  };
}

/** Whether a full snapshot is due at start: none yet, or the schedule fired since the latest one. */
export function fullSnapshotDue(latestFull: Snapshot | undefined, schedule: string, now: Date): boolean {
  if (!latestFull) return true;
  const previous = CronExpressionParser.parse(schedule, { tz: 'UTC', currentDate: new Date(now.getTime() + 1) })
    .prev()
    .toDate();
  return latestFull.createdOn * 1000 < previous.getTime();
}

/** A snapshot asked of a sidecar whose etcd member is not the leader. */
export class NotLeaderError extends Error {
  constructor() {
    super('this etcd member is not the leader: only the leader takes snapshots');
  }
}

/** The running sidecar. */
export class BackupServer {
  private server: Server | undefined;
  private timers = new Set<NodeJS.Timeout>();
  private queue: Promise<unknown> = Promise.resolve();
  private healthy = false;
  private stopped = false;
  private pending: DeltaEvent[] = [];
  private cancelWatch: (() => Promise<void>) | undefined;
  private watchBroken = false;

  constructor(private readonly options: BackupServerOptions) {}

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }

  /** Serves the API, takes the start snapshot when due (retrying until etcd answers) and schedules the rest. */
  async start(): Promise<void> {
    const handler = (req: IncomingMessage, res: ServerResponse) => void this.handle(req, res);
    this.server = this.options.tls ? createHttpsServer(this.options.tls, handler) : createHttpServer(handler);
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(this.options.port, () => resolve());
    });
    this.options.log.info({ port: this.address() }, 'Backup-restore server listening');
    void this.initialSnapshot();
    this.scheduleNext();
    const deltaPeriod = this.options.deltaSnapshotPeriodMs ?? 0;
    if (deltaPeriod >= 1000) this.every(deltaPeriod, () => this.deltaSnapshot());
    if (this.options.garbageCollectionPeriodMs >= 1000)
      this.every(this.options.garbageCollectionPeriodMs, () => this.collectGarbage());
  }

  /** The port the server listens on. */
  address(): number {
    const addr = this.server?.address();
    return typeof addr === 'object' && addr ? addr.port : 0;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    await this.queue.catch(() => undefined);
    await this.cancelWatch?.().catch(() => undefined);
    this.options.etcd.close();
  }

  private after(ms: number, fn: () => void) {
    if (this.stopped) return;
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
  }

  private every(ms: number, fn: () => Promise<unknown>) {
    this.after(ms, () => void fn().finally(() => this.every(ms, fn)));
  }

  // Watches every key from the latest snapshot's revision on (once; again after a broken watch).
  private async ensureWatch(): Promise<void> {
    if ((this.options.deltaSnapshotPeriodMs ?? 0) < 1000 || this.stopped) return;
    if (this.cancelWatch && !this.watchBroken) return;
    await this.cancelWatch?.().catch(() => undefined);
    this.cancelWatch = undefined;
    const latest = (await this.options.store.list()).at(-1);
    if (!latest) return;
    // The new watch delivers every event after the latest snapshot again.
    this.pending = [];
    this.watchBroken = false;
    this.cancelWatch = await this.options.etcd.watch(
      latest.lastRevision + 1,
      (events) => {
        for (const e of events) this.pending.push(e);
      },
      (err) => {
        this.options.log.warn({ err: err.message }, 'Watch for delta snapshots broke: a full snapshot follows');
        this.watchBroken = true;
      },
    );
  }

  private deltaSnapshot(): Promise<unknown> {
    const run = this.queue.then(() => this.takeDeltaSnapshot());
    this.queue = run.catch(() => undefined);
    return run.catch((err: unknown) => {
      if (!(err instanceof NotLeaderError))
        this.options.log.warn({ err: (err as Error).message }, 'Delta snapshot failed');
    });
  }

  private async takeDeltaSnapshot(): Promise<void> {
    const { store, etcd, log } = this.options;
    if (this.watchBroken) {
      await this.takeFullSnapshot(false);
      return;
    }
    await this.ensureWatch();
    if (this.pending.length === 0) return;
    if (!(await etcd.isLeader().catch(() => true))) {
      this.pending = [];
      throw new NotLeaderError();
    }
    const events = [...this.pending].sort((a, b) => a.modRevision - b.modRevision);
    const snapshot = deltaSnapshot(
      events[0]!.modRevision,
      events.at(-1)!.modRevision,
      Math.floor(this.now().getTime() / 1000),
      this.options.compressionSuffix,
    );
    await store.save(snapshot, await compress(encodeDeltaSnapshot(events, this.now()), snapshot.compressionSuffix));
    this.pending = this.pending.filter((e) => e.modRevision > snapshot.lastRevision);
    log.info({ snapshot: snapshotName(snapshot), events: events.length }, 'Took a delta snapshot');
  }

  private async initialSnapshot(): Promise<void> {
    const latestFull = restorePlan(await this.options.store.list())?.full;
    if (!fullSnapshotDue(latestFull, this.options.schedule, this.now())) {
      this.healthy = true;
      await this.ensureWatch().catch((err: unknown) =>
        this.options.log.warn({ err: (err as Error).message }, 'Watch for delta snapshots failed'),
      );
      return;
    }
    try {
      await this.fullSnapshot(false);
    } catch (err) {
      if (err instanceof NotLeaderError) return;
      this.options.log.warn({ err: (err as Error).message }, 'Initial full snapshot failed, retrying in 2s');
      this.after(2_000, () => void this.initialSnapshot());
    }
  }

  private scheduleNext(): void {
    const next = CronExpressionParser.parse(this.options.schedule, { tz: 'UTC', currentDate: this.now() })
      .next()
      .toDate();
    // setTimeout holds at most 2^31-1 ms; a later firing is reached in steps.
    const wait = Math.min(next.getTime() - this.now().getTime(), 2 ** 31 - 1);
    this.after(Math.max(0, wait), () => {
      if (this.now().getTime() >= next.getTime())
        void this.fullSnapshot(false).catch((err: unknown) => {
          if (!(err instanceof NotLeaderError))
            this.options.log.warn({ err: (err as Error).message }, 'Scheduled full snapshot failed');
        });
      this.scheduleNext();
    });
  }

  /** Takes a full snapshot now (one at a time); undefined when skipped because nothing changed. */
  fullSnapshot(final: boolean): Promise<Snapshot | undefined> {
    const run = this.queue.then(() => this.takeFullSnapshot(final));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async takeFullSnapshot(final: boolean): Promise<Snapshot | undefined> {
    const { store, etcd, log } = this.options;
    if (!(await etcd.isLeader().catch(() => true))) {
      this.healthy = true;
      throw new NotLeaderError();
    }
    try {
      const streamed = await etcd.snapshot(this.options.snapshotTimeoutMs);
      const db = verifySnapshotHash(streamed.data);
      const revision = inspectDatabase(db).revision;
      const latest = (await store.list()).at(-1);
      if (!final && latest && latest.kind === 'Full' && latest.lastRevision === revision) {
        log.info({ revision }, 'No updates since the latest full snapshot: skipping the full snapshot');
        this.healthy = true;
        return undefined;
      }
      const snapshot = fullSnapshot(
        revision,
        Math.floor(this.now().getTime() / 1000),
        this.options.compressionSuffix,
        final,
      );
      await store.save(snapshot, await compress(streamed.data, snapshot.compressionSuffix));
      log.info({ snapshot: snapshotName(snapshot), bytes: db.length }, 'Took a full snapshot');
      this.healthy = true;
      this.pending = this.pending.filter((e) => e.modRevision > revision);
      // A watch that cannot start now is started again by the next delta snapshot.
      await this.ensureWatch().catch((err: unknown) =>
        log.warn({ err: (err as Error).message }, 'Watch for delta snapshots failed'),
      );
      return snapshot;
    } catch (err) {
      this.healthy = false;
      throw new Error(`full snapshot: ${(err as Error).message}`, { cause: err });
    }
  }

  private async collectGarbage(): Promise<void> {
    const { store, log } = this.options;
    try {
      const doomed = garbageCollect(await store.list(), {
        policy: this.options.garbageCollectionPolicy,
        maxBackups: this.options.maxBackups,
        now: Math.floor(this.now().getTime() / 1000),
      });
      for (const s of doomed) await store.delete(s);
      if (doomed.length) log.info({ deleted: doomed.map(snapshotName) }, 'Garbage collected snapshots');
    } catch (err) {
      log.warn({ err: (err as Error).message }, 'Garbage collection failed');
    }
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    try {
      if (url.pathname === '/healthz') return reply(this.healthy ? 200 : 503, { health: this.healthy });
      if (url.pathname === '/snapshot/full') {
        const snapshot = await this.fullSnapshot(url.searchParams.get('final') === 'true');
        if (!snapshot) return reply(200, { skipped: true, reason: 'no updates since the latest full snapshot' });
        return reply(200, snapshotJSON(snapshot));
      }
      if (url.pathname === '/snapshot/latest') {
        const plan = restorePlan(await this.options.store.list());
        if (!plan) return reply(404, { error: 'no full snapshot in the store' });
        return reply(200, { fullSnapshot: snapshotJSON(plan.full), deltaSnapshots: plan.deltas.map(snapshotJSON) });
      }
      return reply(404, { error: `no handler for ${url.pathname}` });
    } catch (err) {
      return reply(err instanceof NotLeaderError ? 503 : 500, { error: (err as Error).message });
    }
  }
}
