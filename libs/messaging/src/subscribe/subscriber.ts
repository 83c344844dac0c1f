// Typed subscriptions: handlers receive decoded envelopes of the payload kind they asked for; anything else on the
// subject is logged and counted, never handed to the handler.
import type { Logger } from '@gardener-ts/logging';
import type { MessageSubscription, MessagingClient } from '../connection/client.js';
import { decodeEnvelope, EVENT_KINDS, type EnvelopeOf, type EventKind, type PayloadKind } from '../schema/envelope.js';
import {
  eventFilter,
  heartbeatFilter,
  wakeUpFilter,
  type HeartbeatFilter,
  type ObjectFilter,
} from '../subjects/subjects.js';

export type EnvelopeHandler<K extends PayloadKind> = (envelope: EnvelopeOf<K>, subject: string) => void | Promise<void>;

export interface SubscribeOptions {
  logger?: Logger;
  /** Load-balance among the members of a queue group instead of each receiving every message. */
  queue?: string;
}

/** Subscribes to `subject` (wildcards allowed) for envelopes carrying one of `kinds`. */
export function subscribeEnvelopes<K extends PayloadKind>(
  client: MessagingClient,
  subject: string,
  kinds: readonly K[],
  handler: EnvelopeHandler<K>,
  options: SubscribeOptions = {},
): MessageSubscription {
  const log = options.logger ?? client.log;
  return client.subscribe(
    subject,
    (msg) => {
      let envelope;
      try {
        envelope = decodeEnvelope(msg.data);
      } catch (err) {
        client.metrics.receivedInvalid.inc();
        log.error({ err: String(err), subject: msg.subject }, 'Received an undecodable message');
        return;
      }
      if (!(kinds as readonly PayloadKind[]).includes(envelope.payload)) {
        client.metrics.receivedInvalid.inc();
        log.error(
          { subject: msg.subject, payload: envelope.payload, expected: kinds },
          'Received a message of an unexpected kind',
        );
        return;
      }
      return handler(envelope as EnvelopeOf<K>, msg.subject);
    },
    { queue: options.queue },
  );
}

export function subscribeEvents(
  client: MessagingClient,
  filter: ObjectFilter,
  handler: EnvelopeHandler<EventKind>,
  options?: SubscribeOptions,
): MessageSubscription {
  return subscribeEnvelopes(client, eventFilter(filter), EVENT_KINDS, handler, options);
}

export function subscribeHeartbeats(
  client: MessagingClient,
  filter: HeartbeatFilter,
  handler: EnvelopeHandler<'heartbeat'>,
  options?: SubscribeOptions,
): MessageSubscription {
  return subscribeEnvelopes(client, heartbeatFilter(filter), ['heartbeat'], handler, options);
}

export function subscribeWakeUps(
  client: MessagingClient,
  filter: ObjectFilter,
  handler: EnvelopeHandler<'wakeUp'>,
  options?: SubscribeOptions,
): MessageSubscription {
  return subscribeEnvelopes(client, wakeUpFilter(filter), ['wakeUp'], handler, options);
}
