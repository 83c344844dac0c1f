// The JetStream stream that keeps the history of gardener.v1 events for late subscribers (CLI watch, dashboards, audit).
// Created or brought up to date idempotently by whichever component owns it; limits keep it bounded, the oldest go first.
import {
  DiscardPolicy,
  jetstreamManager,
  JetStreamApiCodes,
  JetStreamApiError,
  RetentionPolicy,
  StorageType,
  type StreamConfig,
  type StreamInfo,
} from '@nats-io/jetstream';
import { nanos, type NatsConnection } from '@nats-io/transport-node';
import { familySubjects } from '../subjects/subjects.js';

export const EVENTS_STREAM = 'GARDENER_V1_EVENTS';

export interface EventsStreamOptions {
  /** Default GARDENER_V1_EVENTS. */
  name?: string;
  /** Default gardener.v1.events.> */
  subjects?: string[];
  /** Events older than this are removed. */
  maxAgeMs: number;
  /** When the stream is larger, the oldest events are removed. */
  maxBytes: number;
  /** Most events kept; unlimited by default. */
  maxMessages?: number;
  /** Default file. */
  storage?: 'file' | 'memory';
  /** Default 1. */
  replicas?: number;
}

export interface EnsuredStream {
  action: 'created' | 'updated' | 'unchanged';
  info: StreamInfo;
}

// The server's default window for duplicate detection; it may not exceed the stream's max age.
const DEFAULT_DUPLICATE_WINDOW_MS = 2 * 60_000;

export function eventsStreamConfig(options: EventsStreamOptions): Partial<StreamConfig> & { name: string } {
  for (const [field, value] of Object.entries({ maxAgeMs: options.maxAgeMs, maxBytes: options.maxBytes })) {
    if (!Number.isSafeInteger(value) || value <= 0)
      throw new RangeError(`events stream ${field} must be a positive integer, got ${value}`);
  }
  return {
    name: options.name ?? EVENTS_STREAM,
    subjects: options.subjects ?? [familySubjects('events')],
    retention: RetentionPolicy.Limits,
    storage: options.storage === 'memory' ? StorageType.Memory : StorageType.File,
    discard: DiscardPolicy.Old,
    max_age: nanos(options.maxAgeMs),
    max_bytes: options.maxBytes,
    max_msgs: options.maxMessages ?? -1,
    num_replicas: options.replicas ?? 1,
    duplicate_window: nanos(Math.min(options.maxAgeMs, DEFAULT_DUPLICATE_WINDOW_MS)),
  };
}

/** Creates the stream, or updates it when its limits or subjects differ; safe to call from every replica on start. */
export async function ensureEventsStream(nc: NatsConnection, options: EventsStreamOptions): Promise<EnsuredStream> {
  const wanted = eventsStreamConfig(options);
  const jsm = await jetstreamManager(nc);
  let current: StreamInfo;
  try {
    current = await jsm.streams.info(wanted.name);
  } catch (err) {
    if (err instanceof JetStreamApiError && err.code === JetStreamApiCodes.StreamNotFound) {
      return { action: 'created', info: await jsm.streams.add(wanted) };
    }
    throw err;
  }
  if (current.config.storage !== wanted.storage) {
    throw new Error(
      `stream ${wanted.name} has ${current.config.storage} storage, wanted ${wanted.storage}: storage cannot change, delete the stream first`,
    );
  }
  const differs = (Object.keys(wanted) as (keyof StreamConfig)[]).some(
    (key) => JSON.stringify(normalize(current.config[key])) !== JSON.stringify(normalize(wanted[key])),
  );
  if (!differs) return { action: 'unchanged', info: current };
  return { action: 'updated', info: await jsm.streams.update(wanted.name, wanted) };
}

const normalize = (value: unknown) => (Array.isArray(value) ? [...value].sort() : value);
