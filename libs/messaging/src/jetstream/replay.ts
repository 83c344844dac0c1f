// A late subscriber: replays the events stream from a point in time, then keeps delivering new events as they come.
// An ordered consumer needs no acknowledgements and recreates itself across reconnects without gaps or duplicates.
import { DeliverPolicy, jetstream } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Logger } from '@gardener-ts/logging';
import { CodecError } from '../schema/codec.js';
import { decodeEnvelope, EVENT_KINDS, type EnvelopeOf, type EventKind } from '../schema/envelope.js';
import { eventFilter, type ObjectFilter } from '../subjects/subjects.js';
import { EVENTS_STREAM } from './events-stream.js';

export type ReplayedEvent = EnvelopeOf<EventKind>;

export interface ReplayOptions {
  /** Replay events stored at or after this time. */
  since: Date;
  /** Which events; all of them when absent. */
  filter?: ObjectFilter;
  stream?: string;
  logger?: Logger;
}

export interface ReplayInfo {
  subject: string;
  /** Position of the event in the stream. */
  sequence: number;
  /** When the stream stored the event. */
  storedAt: Date;
}

export interface Replay {
  /** Stops delivering; resolves when the handler will not be called again. */
  stop(): Promise<void>;
  /** Resolves when the replay stops, rejects if the consumer fails. */
  done: Promise<void>;
}

export async function replayEvents(
  nc: NatsConnection,
  options: ReplayOptions,
  handler: (event: ReplayedEvent, info: ReplayInfo) => void | Promise<void>,
): Promise<Replay> {
  if (Number.isNaN(options.since.getTime())) throw new RangeError('replay needs a valid start time');
  const consumer = await jetstream(nc).consumers.get(options.stream ?? EVENTS_STREAM, {
    filter_subjects: eventFilter(options.filter),
    deliver_policy: DeliverPolicy.StartTime,
    opt_start_time: options.since.toISOString(),
  });
  const messages = await consumer.consume();
  const done = (async () => {
    for await (const msg of messages) {
      let event: ReplayedEvent;
      try {
        const envelope = decodeEnvelope(msg.data);
        if (!(EVENT_KINDS as readonly string[]).includes(envelope.payload))
          throw new CodecError(`${envelope.payload} is not an event`);
        event = envelope as ReplayedEvent;
      } catch (err) {
        options.logger?.error(
          { err: String(err), subject: msg.subject, sequence: msg.seq },
          'Skipping an undecodable stored event',
        );
        continue;
      }
      await handler(event, {
        subject: msg.subject,
        sequence: msg.seq,
        storedAt: new Date(msg.info.timestampNanos / 1_000_000),
      });
    }
  })();
  return {
    done,
    async stop() {
      await messages.close();
      await done;
    },
  };
}
