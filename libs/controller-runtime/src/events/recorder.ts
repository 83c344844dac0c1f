// Records core/v1 Events about objects without ever slowing down or failing a reconcile: `event()` only enqueues;
// one background loop writes. Repeats of the same event within the aggregation window bump `count` on the existing
// Event instead of creating new ones, and a per-object token bucket keeps a hot loop from flooding the API server.
import { hostname } from 'node:os';
import { createLogger, type Logger } from '@gardener-ts/logging';
import { ApiError, isNotFound } from '../client/api-error.js';
import type { Client } from '../client/client.js';
import { kind } from '../client/gvk.js';
import type { KubernetesObject } from '../client/types.js';
import { realClock, type Clock } from '../queue/clock.js';
import { SpamFilter } from './spam-filter.js';
import type { CoreEvent, EventType, ObjectReference } from './types.js';

export const EventKind = kind<CoreEvent>('v1', 'Event');

export interface EventRecorderOptions {
  /** `source.component` and `reportingComponent`: who reports (e.g. `gardenlet`, `shoot-care-controller`). */
  component: string;
  /** `source.host` and `reportingInstance`; defaults to the host name. */
  host?: string;
  log?: Logger;
  /** Repeats of an event within this window update the existing Event (default 10 minutes). */
  aggregationWindowMs?: number;
  /** Events one object may emit at once (default 25). */
  burst?: number;
  /** After the burst, one more event per object per this many ms (default 5 minutes). */
  refillMs?: number;
  /** Events waiting to be written at most; more are dropped (default 1000). */
  maxPending?: number;
  /** Attempts per event when the API server does not answer or answers 429/5xx (default 5). */
  maxAttempts?: number;
  /** Wait before the first retry, doubled for each further one (default 1 s). */
  retryDelayMs?: number;
  /** Monotonic time for the window, the spam filter and retries (tests pass a FakeClock). */
  clock?: Clock;
}

interface Pending {
  ref: ObjectReference;
  type: EventType;
  reason: string;
  message: string;
  annotations?: Record<string, string>;
  at: Date;
}

interface Seen {
  namespace: string;
  name: string;
  count: number;
  lastSeen: number;
}

const MAX_SEEN = 4096;

export class EventRecorder {
  private readonly log: Logger;
  private readonly host: string;
  private readonly clock: Clock;
  private readonly windowMs: number;
  private readonly maxPending: number;
  private readonly spam: SpamFilter;
  /** Aggregation keys in least-recently-seen order (Map keeps insertion order). */
  private readonly seen = new Map<string, Seen>();
  private readonly pending: Pending[] = [];
  private draining?: Promise<void>;
  private stopped = false;
  private sequence = 0;

  constructor(
    private readonly client: Pick<Client, 'create' | 'patch'>,
    private readonly options: EventRecorderOptions,
  ) {
    if (!options.component) throw new Error('an event recorder needs a component name');
    this.log = options.log ?? createLogger({ name: 'events', level: 'silent' });
    this.host = options.host ?? hostname();
    this.clock = options.clock ?? realClock;
    this.windowMs = options.aggregationWindowMs ?? 10 * 60_000;
    this.maxPending = options.maxPending ?? 1000;
    this.spam = new SpamFilter({ burst: options.burst ?? 25, refillMs: options.refillMs ?? 5 * 60_000 }, this.clock);
  }

  /** Records an event about `obj`. Never throws and never waits: bad input and failures are logged. */
  event(obj: KubernetesObject, type: EventType, reason: string, message: string): void {
    this.record(obj, type, reason, message);
  }

  /** Like `event`, with annotations on the Event object. */
  annotatedEvent(obj: KubernetesObject, annotations: Record<string, string>, type: EventType, reason: string, message: string): void {
    this.record(obj, type, reason, message, annotations);
  }

  /** Resolves once every event recorded so far has been written (or given up on). */
  async flush(): Promise<void> {
    while (this.draining) await this.draining;
  }

  /** Stops accepting events and waits for the pending ones. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.flush();
  }

  private record(obj: KubernetesObject, type: EventType, reason: string, message: string, annotations?: Record<string, string>): void {
    if (this.stopped) return;
    if (type !== 'Normal' && type !== 'Warning') {
      this.log.error({ type, reason }, 'Unsupported event type, dropping the event');
      return;
    }
    const ref = referenceOf(obj);
    if (!ref.name || !ref.kind) {
      this.log.error({ reason, object: ref }, 'Event for an object without kind or name, dropping it');
      return;
    }
    if (!this.spam.allow(`${this.options.component}/${this.host}/${refKey(ref)}`)) {
      this.log.debug({ reason, object: ref }, 'Event rate limit exceeded for the object, dropping the event');
      return;
    }
    if (this.pending.length >= this.maxPending) {
      this.log.warn({ reason, object: ref }, 'Too many events waiting to be written, dropping the event');
      return;
    }
    this.pending.push({ ref, type, reason, message, annotations, at: new Date() });
    this.draining ??= this.drain().finally(() => (this.draining = undefined));
  }

  private async drain(): Promise<void> {
    for (let next = this.pending.shift(); next; next = this.pending.shift()) {
      try {
        await this.writeWithRetries(next);
      } catch (err) {
        this.log.error({ err, reason: next.reason, object: next.ref }, 'Could not write event, dropping it');
      }
    }
  }

  private async writeWithRetries(e: Pending): Promise<void> {
    const maxAttempts = this.options.maxAttempts ?? 5;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.write(e);
      } catch (err) {
        if (!isTransient(err) || attempt >= maxAttempts) throw err;
        const delay = (this.options.retryDelayMs ?? 1000) * 2 ** (attempt - 1);
        this.log.debug({ err, attempt, delay }, 'Writing event failed, retrying');
        await new Promise((resolve) => this.clock.setTimeout(() => resolve(undefined), delay));
      }
    }
  }

  /** Writes one event; safe to repeat after a failure (the aggregation cache changes only on success). */
  private async write(e: Pending): Promise<void> {
    const key = [refKey(e.ref), e.type, e.reason, e.message].join('\u0000');
    const now = this.clock.now();
    const seen = this.seen.get(key);
    const when = e.at.toISOString().replace(/\.\d+Z$/, 'Z');
    if (seen && now - seen.lastSeen <= this.windowMs) {
      try {
        await this.client.patch(EventKind, { namespace: seen.namespace, name: seen.name }, { type: 'merge', patch: { count: seen.count + 1, lastTimestamp: when } });
        this.remember(key, { ...seen, count: seen.count + 1, lastSeen: now });
        return;
      } catch (err) {
        // The Event expired (the API server's event TTL) or was deleted: start a new one.
        if (!isNotFound(err)) throw err;
      }
    }
    const namespace = e.ref.namespace || 'default';
    const name = `${e.ref.name}.${(BigInt(e.at.getTime()) * 1_000_000n + BigInt(this.sequence++ % 1_000_000)).toString(16)}`;
    await this.client.create<CoreEvent>({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name, namespace, ...(e.annotations ? { annotations: e.annotations } : {}) },
      involvedObject: e.ref,
      reason: e.reason,
      message: e.message,
      type: e.type,
      source: { component: this.options.component, host: this.host },
      count: 1,
      firstTimestamp: when,
      lastTimestamp: when,
      reportingComponent: this.options.component,
      reportingInstance: this.host,
    });
    this.remember(key, { namespace, name, count: 1, lastSeen: now });
  }

  private remember(key: string, seen: Seen): void {
    this.seen.delete(key);
    this.seen.set(key, seen);
    if (this.seen.size > MAX_SEEN) this.seen.delete(this.seen.keys().next().value!);
  }
}

function referenceOf(obj: KubernetesObject): ObjectReference {
  const m = obj.metadata ?? {};
  return {
    apiVersion: obj.apiVersion,
    kind: obj.kind,
    ...(m.namespace ? { namespace: m.namespace } : {}),
    name: m.name,
    ...(m.uid ? { uid: m.uid } : {}),
    ...(m.resourceVersion ? { resourceVersion: m.resourceVersion } : {}),
  };
}

/** No connection (a system error such as ECONNREFUSED), no answer, throttled, or a server-side failure: worth another try. */
const isTransient = (err: unknown) =>
  err instanceof ApiError ? err.code === 0 || err.code === 429 || err.code >= 500 : typeof (err as { code?: unknown } | undefined)?.code === 'string';

const refKey = (r: ObjectReference) => [r.apiVersion, r.kind, r.namespace ?? '', r.name, r.uid ?? ''].join('/');
