// Records core/v1 Events (default) or events.k8s.io/v1 Events (`api: 'events.k8s.io/v1'`) about objects without ever
// slowing down or failing a reconcile: `event()` only enqueues; one background loop writes. Repeats of the same event
// within the aggregation window update the existing Event instead of creating new ones (core/v1: `count` and
// `lastTimestamp`; events.k8s.io/v1: an EventSeries, as client-go's tools/events), and a per-object token bucket keeps
// a hot loop from flooding the API server. Aggregation, throttling and retries are shared by both APIs.
import { hostname } from 'node:os';
import { createLogger, type Logger } from '@gardener-ts/logging';
import { ApiError, isNotFound } from '../client/api-error.js';
import type { Client } from '../client/client.js';
import { kind } from '../client/gvk.js';
import type { KubernetesObject } from '../client/types.js';
import { realClock, type Clock } from '../queue/clock.js';
import { SpamFilter } from './spam-filter.js';
import type { CoreEvent, EventsV1Event, EventType, ObjectReference } from './types.js';

export const EventKind = kind<CoreEvent>('v1', 'Event');
export const EventsV1EventKind = kind<EventsV1Event>('events.k8s.io/v1', 'Event');

/** Which Event API a recorder writes: core/v1 (`'v1'`, the default) or `'events.k8s.io/v1'`. */
export type EventsApi = 'v1' | 'events.k8s.io/v1';

export interface EventRecorderOptions {
  /**
   * core/v1: `source.component` and `reportingComponent`; events.k8s.io/v1: `reportingController`. Who reports
   * (e.g. `gardenlet`, `shoot-care-controller`).
   */
  component: string;
  /** core/v1: `source.host` and `reportingInstance`; events.k8s.io/v1: `reportingInstance` is `<component>-<host>`. Defaults to the host name. */
  host?: string;
  /** The Event API to write (default `'v1'`, core/v1 Events). */
  api?: EventsApi;
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
  /** Set by `actionEvent`; events.k8s.io/v1 requires one and falls back to the reason. */
  action?: string;
  related?: ObjectReference;
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

  /**
   * Records an event about `obj`. Never throws and never waits: bad input and failures are logged. With
   * events.k8s.io/v1 the message is the `note` and the `action` is the reason (use `actionEvent` to name one).
   */
  event(obj: KubernetesObject, type: EventType, reason: string, message: string): void {
    this.record(obj, { type, reason, message });
  }

  /** Like `event`, with annotations on the Event object. */
  annotatedEvent(
    obj: KubernetesObject,
    annotations: Record<string, string>,
    type: EventType,
    reason: string,
    message: string,
  ): void {
    this.record(obj, { type, reason, message, annotations });
  }

  /**
   * client-go's `events.EventRecorder.Eventf`: an event about `regarding`, optionally naming a `related` object, with
   * the `action` taken or failed. Also works with core/v1 (its `action` and `related` fields).
   */
  actionEvent(
    regarding: KubernetesObject,
    related: KubernetesObject | undefined,
    type: EventType,
    reason: string,
    action: string,
    note: string,
  ): void {
    this.record(regarding, {
      type,
      reason,
      message: note,
      action,
      related: related ? referenceOf(related) : undefined,
    });
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

  private record(obj: KubernetesObject, e: Omit<Pending, 'ref' | 'at'>): void {
    const { type, reason } = e;
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
    this.pending.push({ ...e, ref, at: new Date() });
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
    const v1 = this.options.api === 'events.k8s.io/v1';
    // client-go's tools/events aggregates on regarding, related, type, reason, action and reporter, not on the note;
    // core/v1 (tools/record) also on the message.
    const key = v1
      ? [
          'events.k8s.io/v1',
          refKey(e.ref),
          e.related ? refKey(e.related) : '',
          e.type,
          e.reason,
          e.action || e.reason,
        ].join('\u0000')
      : [
          refKey(e.ref),
          e.type,
          e.reason,
          e.message,
          ...(e.action !== undefined || e.related ? [e.action ?? '', e.related ? refKey(e.related) : ''] : []),
        ].join('\u0000');
    const now = this.clock.now();
    const seen = this.seen.get(key);
    const when = e.at.toISOString().replace(/\.\d+Z$/, 'Z');
    if (seen && now - seen.lastSeen <= this.windowMs) {
      try {
        const count = seen.count + 1;
        if (v1)
          await this.client.patch(
            EventsV1EventKind,
            { namespace: seen.namespace, name: seen.name },
            { type: 'merge', patch: { series: { count, lastObservedTime: microTime(e.at) } } },
          );
        else
          await this.client.patch(
            EventKind,
            { namespace: seen.namespace, name: seen.name },
            { type: 'merge', patch: { count, lastTimestamp: when } },
          );
        this.remember(key, { ...seen, count, lastSeen: now });
        return;
      } catch (err) {
        // The Event expired (the API server's event TTL) or was deleted: start a new one.
        if (!isNotFound(err)) throw err;
      }
    }
    const namespace = e.ref.namespace || 'default';
    const name = `${e.ref.name}.${(BigInt(e.at.getTime()) * 1_000_000n + BigInt(this.sequence++ % 1_000_000)).toString(16)}`;
    if (v1) {
      await this.client.create(
        eventsV1Body(e, {
          namespace,
          name,
          reportingController: this.options.component,
          reportingInstance: `${this.options.component}-${this.host}`,
        }),
      );
      this.remember(key, { namespace, name, count: 1, lastSeen: now });
      return;
    }
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
      ...(e.action !== undefined ? { action: e.action } : {}),
      ...(e.related ? { related: e.related } : {}),
    });
    this.remember(key, { namespace, name, count: 1, lastSeen: now });
  }

  private remember(key: string, seen: Seen): void {
    this.seen.delete(key);
    this.seen.set(key, seen);
    if (this.seen.size > MAX_SEEN) this.seen.delete(this.seen.keys().next().value!);
  }
}

/** A MicroTime: RFC 3339 with six fractional digits (client-go's `metav1.MicroTime`); JS dates stop at milliseconds. */
export const microTime = (d: Date) => d.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');

/**
 * The events.k8s.io/v1 Event a first occurrence creates (client-go's tools/events: no `series` until the first repeat,
 * `action` required, deprecated core/v1 fields left out).
 */
export function eventsV1Body(
  e: {
    ref: ObjectReference;
    type: EventType;
    reason: string;
    message: string;
    action?: string;
    related?: ObjectReference;
    annotations?: Record<string, string>;
    at: Date;
  },
  meta: { namespace: string; name: string; reportingController: string; reportingInstance: string },
): EventsV1Event {
  return {
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: { name: meta.name, namespace: meta.namespace, ...(e.annotations ? { annotations: e.annotations } : {}) },
    eventTime: microTime(e.at),
    reportingController: meta.reportingController,
    reportingInstance: meta.reportingInstance,
    action: e.action || e.reason,
    reason: e.reason,
    regarding: e.ref,
    ...(e.related ? { related: e.related } : {}),
    note: e.message,
    type: e.type,
  };
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
  err instanceof ApiError
    ? err.code === 0 || err.code === 429 || err.code >= 500
    : typeof (err as { code?: unknown } | undefined)?.code === 'string';

const refKey = (r: ObjectReference) => [r.apiVersion, r.kind, r.namespace ?? '', r.name, r.uid ?? ''].join('/');
