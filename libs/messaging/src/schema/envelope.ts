// The envelope every gardener.v1 message travels in, and the typed view of its payload.
import type { Envelope, Timestamp } from '../generated/types.js';
import { CodecError, codecFor, type MessageInput } from './codec.js';

const codec = codecFor('gardener.v1.Envelope');

export type PayloadKind = NonNullable<Envelope['payload']>;
/** The payload types by the name of their envelope field. */
export type Payloads = { [K in PayloadKind]: NonNullable<Envelope[K]> };
/** An envelope whose payload is known to be of kind K (a union of kinds gives a union of envelopes). */
export type EnvelopeOf<K extends PayloadKind> = K extends PayloadKind
  ? Envelope & { payload: K } & { [P in K]: Payloads[P] }
  : never;

/** The payloads that are events: stored in the events stream, published on gardener.v1.events subjects. */
export const EVENT_KINDS = [
  'operationProgress',
  'conditionTransition',
  'schedulingDecision',
] as const satisfies readonly PayloadKind[];
export type EventKind = (typeof EVENT_KINDS)[number];

export function encodeEnvelope(envelope: MessageInput<Envelope>): Uint8Array {
  return codec.encode(envelope);
}

/** Decodes an envelope; anything without metadata or payload is not one of ours and is refused. */
export function decodeEnvelope(bytes: Uint8Array): Envelope & { payload: PayloadKind } {
  const envelope = codec.decode(bytes);
  if (!envelope.metadata || !envelope.payload) {
    throw new CodecError(
      `not a gardener.v1.Envelope: ${bytes.length} bytes without ${envelope.metadata ? 'payload' : 'metadata'}`,
    );
  }
  return envelope as Envelope & { payload: PayloadKind };
}

export function isPayload<K extends PayloadKind>(envelope: Envelope, kind: K): envelope is EnvelopeOf<K> {
  return envelope.payload === kind && envelope[kind] !== undefined;
}

export function toTimestamp(date: Date): Timestamp {
  const millis = date.getTime();
  if (Number.isNaN(millis)) throw new RangeError('invalid date');
  const seconds = Math.floor(millis / 1000);
  return { seconds, nanos: (millis - seconds * 1000) * 1_000_000 };
}

export function fromTimestamp(timestamp: Timestamp): Date {
  return new Date(timestamp.seconds * 1000 + Math.floor(timestamp.nanos / 1_000_000));
}
