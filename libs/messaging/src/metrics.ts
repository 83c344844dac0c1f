// Prometheus metrics of the messaging client. One set per registry, shared by every client registered there, so the
// gauges move by inc/dec rather than set.
import { Counter, Gauge, register as globalRegistry, type Registry } from 'prom-client';

export type DropReason = 'buffer-full' | 'too-large' | 'permission-denied' | 'invalid' | 'closed' | 'publish-error';

export interface MessagingMetrics {
  dropped: Counter<'reason'>;
  published: Counter;
  bufferedMessages: Gauge;
  bufferedBytes: Gauge;
  connected: Gauge;
  receivedInvalid: Counter;
}

const byRegistry = new WeakMap<Registry, MessagingMetrics>();

export function messagingMetrics(registry: Registry = globalRegistry): MessagingMetrics {
  let metrics = byRegistry.get(registry);
  if (!metrics) {
    const registers = [registry];
    metrics = {
      dropped: new Counter({
        name: 'gardener_messaging_dropped_total',
        help: 'Messages not delivered to NATS, by reason.',
        labelNames: ['reason'],
        registers,
      }),
      published: new Counter({
        name: 'gardener_messaging_published_total',
        help: 'Messages handed to NATS.',
        registers,
      }),
      bufferedMessages: new Gauge({
        name: 'gardener_messaging_buffered_messages',
        help: 'Messages buffered while NATS is unreachable.',
        registers,
      }),
      bufferedBytes: new Gauge({
        name: 'gardener_messaging_buffered_bytes',
        help: 'Bytes of messages buffered while NATS is unreachable.',
        registers,
      }),
      connected: new Gauge({
        name: 'gardener_messaging_connected',
        help: 'Messaging clients connected to NATS.',
        registers,
      }),
      receivedInvalid: new Counter({
        name: 'gardener_messaging_received_invalid_total',
        help: 'Received messages that could not be decoded.',
        registers,
      }),
    };
    byRegistry.set(registry, metrics);
  }
  return metrics;
}
