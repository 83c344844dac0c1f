// Leader election on a Lease, with client-go's rules: a candidate takes the lock only once the current holder has not
// renewed it for a whole lease duration — measured on this process's own clock from when it last saw the Lease change,
// never from the timestamps inside it (clocks of different machines disagree). The leader renews every retry period;
// if it cannot renew for the renew deadline it gives up leadership before any other candidate may take over.
// Unlike client-go, a candidate with a client that can watch also watches the Lease while it waits: when the holder
// releases it (a graceful stop, e.g. the old Pod of a rolling update), the candidate tries at once instead of at its
// next retry (2–4.4 s later by default). It takes the Lease only by the same rules; a missed event costs nothing.
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { Registry } from 'prom-client';
import { createLogger, type Logger } from '@gardener-ts/logging';
import { isNotFound } from '../client/api-error.js';
import type { ApiClient, Client } from '../client/client.js';
import type { LeaderElectionHooks } from '../manager/manager.js';
import { realClock, type Clock } from '../queue/clock.js';
import { LeaseKind, microTime, type Lease, type LeaseSpec } from './lease.js';
import { leaderElectionMetrics } from './metrics.js';
import { sleep, within } from './sleep.js';

export interface LeaderElectorOptions {
  /**
   * Reads and writes the Lease, and watches it while campaigning if it can. Give the elector a client of its own: a
   * manager closes its clients on stop.
   */
  client: Pick<Client, 'get' | 'create' | 'update'> & Partial<Pick<ApiClient, 'watch'>>;
  lock: { namespace: string; name: string };
  /** Who this candidate is; unique per process (default: host name and a random UUID). */
  identity?: string;
  /** How long a Lease is valid after its holder last renewed it (default 15 s). */
  leaseDurationMs?: number;
  /** How long the leader keeps retrying a failing renewal before it gives up (default 10 s). */
  renewDeadlineMs?: number;
  /** How often candidates try to acquire and the leader renews (default 2 s). */
  retryPeriodMs?: number;
  /** On a graceful stop, clear the holder so another candidate takes over at once (default true). */
  releaseOnCancel?: boolean;
  onStartedLeading?: () => void;
  /** Called once leadership ends: `lost` when renewal failed (fence!), not when released on a graceful stop. */
  onStoppedLeading?: (why: { lost: boolean }) => void;
  /** Called when another holder is observed. */
  onNewLeader?: (identity: string) => void;
  log?: Logger;
  metrics?: Registry;
  clock?: Clock;
}

interface Observed {
  raw: string;
  spec: LeaseSpec;
  /** Our clock when we first saw this exact record. */
  at: number;
  resourceVersion?: string;
}

/** client-go's jitter for acquisition attempts: retryPeriod plus up to 1.2 × retryPeriod. */
const JITTER_FACTOR = 1.2;

export class LeaderElector {
  readonly identity: string;
  private readonly log: Logger;
  private readonly clock: Clock;
  private readonly leaseDurationMs: number;
  private readonly renewDeadlineMs: number;
  private readonly retryPeriodMs: number;
  private observed?: Observed;
  private leading = false;
  private running = false;
  private renewing?: Promise<void>;

  constructor(private readonly options: LeaderElectorOptions) {
    this.identity = options.identity ?? `${hostname()}_${randomUUID()}`;
    this.leaseDurationMs = options.leaseDurationMs ?? 15_000;
    this.renewDeadlineMs = options.renewDeadlineMs ?? 10_000;
    this.retryPeriodMs = options.retryPeriodMs ?? 2_000;
    validate(this.leaseDurationMs, this.renewDeadlineMs, this.retryPeriodMs);
    if (!options.lock.name || !options.lock.namespace)
      throw new Error('leader election needs a lock name and namespace');
    if (!this.identity) throw new Error('leader election needs a non-empty identity');
    this.clock = options.clock ?? realClock;
    this.log = (options.log ?? createLogger({ name: 'leader-election', level: 'silent' })).child({
      lease: `${options.lock.namespace}/${options.lock.name}`,
      identity: this.identity,
    });
    this.gauge()?.set({ name: options.lock.name }, 0);
  }

  get isLeader(): boolean {
    return this.leading;
  }

  /** The holder as last observed ('' when the Lease is free or was not read yet). */
  get leader(): string {
    return this.observed?.spec.holderIdentity ?? '';
  }

  /** Resolves once the renew loop has ended (after losing or releasing leadership). */
  async done(): Promise<void> {
    await this.renewing;
  }

  /**
   * Campaigns until this candidate leads (resolves) or `signal` aborts (resolves, not leading). While leading, renews
   * in the background until leadership is lost or `signal` aborts. This is the manager's `leaderElection` hook: the
   * manager learns when leadership ended (`hooks.onLeading`) and stops itself when it is lost (`hooks.onLost`).
   */
  readonly run = async (signal: AbortSignal, hooks: LeaderElectionHooks = {}): Promise<void> => {
    if (this.running) throw new Error('this leader elector is already running');
    this.running = true;
    this.log.info('Attempting to acquire leader lease');
    const campaign = new AbortController();
    const stopCampaign = () => campaign.abort();
    signal.addEventListener('abort', stopCampaign, { once: true });
    let wake = new AbortController();
    const watching = this.watchForRelease(campaign.signal, () => wake.abort());
    try {
      while (!signal.aborted) {
        if (await this.tryAcquireOrRenew()) {
          this.setLeading(true);
          this.log.info('Successfully acquired lease');
          this.options.onStartedLeading?.();
          this.renewing = this.renewLoop(signal, hooks);
          hooks.onLeading?.(this.renewing);
          return;
        }
        if (!wake.signal.aborted) {
          const retryIn = this.retryPeriodMs * (1 + Math.random() * JITTER_FACTOR);
          await sleep(this.clock, retryIn, AbortSignal.any([signal, wake.signal]));
        }
        wake = new AbortController();
      }
      this.running = false;
    } finally {
      signal.removeEventListener('abort', stopCampaign);
      campaign.abort();
      await watching;
    }
  };

  /**
   * Watches the Lease until `signal` aborts and calls `onReleased` when it is free (no holder, or gone); re-watches a
   * broken watch after a retry period. Does nothing with a client that cannot watch.
   */
  private async watchForRelease(signal: AbortSignal, onReleased: () => void): Promise<void> {
    const { client, lock } = this.options;
    if (!client.watch) return;
    while (!signal.aborted) {
      try {
        await client.watch(
          LeaseKind,
          { namespace: lock.namespace, fieldSelector: { 'metadata.name': lock.name }, signal },
          (event) => {
            const free = event.type === 'DELETED' || !event.object.spec?.holderIdentity;
            if (free && event.type !== 'BOOKMARK' && event.type !== 'ERROR') onReleased();
          },
        );
      } catch (err) {
        if (!signal.aborted) this.log.debug({ err }, 'Watching the lease failed');
      }
      await sleep(this.clock, this.retryPeriodMs, signal);
    }
  }

  private async renewLoop(signal: AbortSignal, hooks: LeaderElectionHooks): Promise<void> {
    while (!signal.aborted) {
      await sleep(this.clock, this.retryPeriodMs, signal);
      if (signal.aborted) break;
      if (!(await this.renewWithinDeadline(signal))) {
        if (signal.aborted) break;
        this.log.error(
          { renewDeadlineMs: this.renewDeadlineMs },
          'Failed to renew lease within the renew deadline, leadership lost',
        );
        this.stopLeading(true);
        hooks.onLost?.();
        return;
      }
    }
    if (this.options.releaseOnCancel ?? true) await this.release();
    this.stopLeading(false);
  }

  /** Retries renewal every retry period until it succeeds or the renew deadline passes. */
  private async renewWithinDeadline(signal: AbortSignal): Promise<boolean> {
    const deadline = this.clock.now() + this.renewDeadlineMs;
    for (;;) {
      const remaining = deadline - this.clock.now();
      if (remaining <= 0 || signal.aborted) return false;
      if (await within(this.clock, remaining, this.tryAcquireOrRenew(), false)) return true;
      await sleep(this.clock, Math.min(this.retryPeriodMs, Math.max(0, deadline - this.clock.now())), signal);
    }
  }

  /** One attempt: create the Lease, renew it if we hold it, or take it over if it expired. */
  private async tryAcquireOrRenew(): Promise<boolean> {
    const key = this.options.lock;
    const now = this.clock.now();
    const wallNow = microTime(new Date());
    let lease: Lease | undefined;
    try {
      lease = await this.options.client.get(LeaseKind, key);
    } catch (err) {
      if (!isNotFound(err)) {
        this.log.warn({ err }, 'Error retrieving lease');
        return false;
      }
    }
    const durationSeconds = Math.ceil(this.leaseDurationMs / 1000);
    if (!lease) {
      const spec: LeaseSpec = {
        holderIdentity: this.identity,
        leaseDurationSeconds: durationSeconds,
        acquireTime: wallNow,
        renewTime: wallNow,
        leaseTransitions: 0,
      };
      return this.write(
        () =>
          this.options.client.create<Lease>({
            apiVersion: 'coordination.k8s.io/v1',
            kind: 'Lease',
            metadata: { ...key },
            spec,
          }),
        now,
      );
    }

    const spec = lease.spec ?? {};
    this.observe(lease, now);
    const holder = spec.holderIdentity ?? '';
    const validUntil = this.observed!.at + (spec.leaseDurationSeconds ?? 0) * 1000;
    if (holder !== '' && holder !== this.identity && validUntil > now) {
      this.log.debug({ holder }, 'Lease is held by another candidate and has not yet expired');
      return false;
    }
    const renewing = holder === this.identity;
    const next: LeaseSpec = {
      holderIdentity: this.identity,
      leaseDurationSeconds: durationSeconds,
      acquireTime: renewing ? (spec.acquireTime ?? wallNow) : wallNow,
      renewTime: wallNow,
      leaseTransitions: renewing ? (spec.leaseTransitions ?? 0) : (spec.leaseTransitions ?? 0) + 1,
    };
    // The resourceVersion makes the write fail if anyone changed the Lease since we read it.
    return this.write(() => this.options.client.update<Lease>({ ...lease, spec: next }), now);
  }

  private async write(request: () => Promise<Lease>, now: number): Promise<boolean> {
    try {
      this.observe(await request(), now);
      return true;
    } catch (err) {
      this.log.debug({ err }, 'Could not write lease');
      return false;
    }
  }

  private observe(lease: Lease, now: number): void {
    const raw = JSON.stringify(lease.spec ?? {});
    if (this.observed?.raw !== raw) {
      const previous = this.observed?.spec.holderIdentity;
      this.observed = { raw, spec: lease.spec ?? {}, at: now };
      const holder = lease.spec?.holderIdentity ?? '';
      if (holder && holder !== previous && holder !== this.identity) {
        this.log.info({ leader: holder }, 'New leader elected');
        this.options.onNewLeader?.(holder);
      }
    }
    this.observed.resourceVersion = lease.metadata?.resourceVersion;
  }

  /** Clears the holder (if it is still us), so the next candidate need not wait for the lease to expire. */
  private async release(): Promise<void> {
    if (!this.leading || !this.observed || this.observed.spec.holderIdentity !== this.identity) return;
    const wallNow = microTime(new Date());
    const spec: LeaseSpec = {
      ...this.observed.spec,
      holderIdentity: '',
      leaseDurationSeconds: 1,
      acquireTime: wallNow,
      renewTime: wallNow,
    };
    try {
      await this.options.client.update<Lease>({
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { ...this.options.lock, resourceVersion: this.observed.resourceVersion },
        spec,
      });
      this.log.info('Released leader lease');
    } catch (err) {
      this.log.warn({ err }, 'Could not release leader lease; the next leader waits for it to expire');
    }
  }

  private stopLeading(lost: boolean): void {
    this.setLeading(false);
    this.running = false;
    this.options.onStoppedLeading?.({ lost });
  }

  private setLeading(leading: boolean): void {
    this.leading = leading;
    this.gauge()?.set({ name: this.options.lock.name }, leading ? 1 : 0);
  }

  private gauge() {
    return this.options.metrics && leaderElectionMetrics(this.options.metrics);
  }
}

function validate(leaseDurationMs: number, renewDeadlineMs: number, retryPeriodMs: number): void {
  if (!(retryPeriodMs > 0)) throw new Error(`retryPeriod must be positive, got ${retryPeriodMs} ms`);
  if (!(renewDeadlineMs > JITTER_FACTOR * retryPeriodMs)) {
    throw new Error(
      `renewDeadline (${renewDeadlineMs} ms) must be greater than ${JITTER_FACTOR} × retryPeriod (${retryPeriodMs} ms)`,
    );
  }
  if (!(leaseDurationMs > renewDeadlineMs))
    throw new Error(`leaseDuration (${leaseDurationMs} ms) must be greater than renewDeadline (${renewDeadlineMs} ms)`);
}
