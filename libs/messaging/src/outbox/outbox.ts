// The bounded buffer of messages published while NATS is unreachable. When full, the oldest messages make room: after
// an outage the latest progress and heartbeats matter more than the first ones.
import type { MessagingMetrics } from '../metrics.js';

export interface OutboxLimits {
  /** Most messages kept; default 10,000. */
  maxMessages?: number;
  /** Most payload bytes kept; default 8 MiB. */
  maxBytes?: number;
}

export interface OutboxMessage {
  subject: string;
  data: Uint8Array;
}

export const DEFAULT_OUTBOX_LIMITS = { maxMessages: 10_000, maxBytes: 8 * 1024 * 1024 } as const;

export class Outbox {
  private messages: OutboxMessage[] = [];
  private head = 0;
  private byteCount = 0;
  private readonly maxMessages: number;
  private readonly maxBytes: number;

  constructor(
    limits: OutboxLimits,
    private readonly metrics: MessagingMetrics,
  ) {
    this.maxMessages = limits.maxMessages ?? DEFAULT_OUTBOX_LIMITS.maxMessages;
    this.maxBytes = limits.maxBytes ?? DEFAULT_OUTBOX_LIMITS.maxBytes;
    if (!(this.maxMessages >= 1) || !(this.maxBytes >= 1)) throw new RangeError('outbox limits must be at least 1');
  }

  get size(): number {
    return this.messages.length - this.head;
  }

  get bytes(): number {
    return this.byteCount;
  }

  /** Keeps the message, evicting the oldest ones beyond the limits; false when it alone exceeds the byte limit. */
  push(message: OutboxMessage): boolean {
    if (message.data.length > this.maxBytes) {
      this.metrics.dropped.inc({ reason: 'too-large' });
      return false;
    }
    this.messages.push(message);
    this.account(message, +1);
    while (this.size > this.maxMessages || this.byteCount > this.maxBytes) {
      this.account(this.shift()!, -1);
      this.metrics.dropped.inc({ reason: 'buffer-full' });
    }
    return true;
  }

  /** Removes and returns every buffered message, oldest first. */
  drain(): OutboxMessage[] {
    const drained = this.messages.slice(this.head);
    for (const message of drained) this.account(message, -1);
    this.messages = [];
    this.head = 0;
    return drained;
  }

  private shift(): OutboxMessage | undefined {
    const message = this.messages[this.head++];
    // Compact now and then instead of Array.shift() on every eviction.
    if (this.head > 1024 && this.head * 2 > this.messages.length) {
      this.messages = this.messages.slice(this.head);
      this.head = 0;
    }
    return message;
  }

  private account(message: OutboxMessage, sign: 1 | -1): void {
    this.byteCount += sign * message.data.length;
    this.metrics.bufferedMessages.inc(sign);
    this.metrics.bufferedBytes.inc(sign * message.data.length);
  }
}
