// The NATS connection of a component. NATS carries what is not state, so the client never makes a caller wait or fail
// for it: it connects in the background and forever, publishes go straight to NATS while connected and into a bounded
// outbox while not, and the outbox is flushed when the connection returns.
import { createLogger, type Logger } from '@gardener-ts/logging';
import {
  connect,
  PermissionViolationError,
  type Msg,
  type NatsConnection,
  type Status,
  type Subscription as NatsSubscription,
} from '@nats-io/transport-node';
import type { Registry } from 'prom-client';
import { messagingMetrics, type DropReason, type MessagingMetrics } from '../metrics.js';
import { Outbox, type OutboxLimits } from '../outbox/outbox.js';
import { JitteredBackoff, type BackoffOptions } from './backoff.js';
import { authenticatorFor, describeCredentials, type Credentials } from './credentials.js';

export interface MessagingClientOptions {
  /** NATS server URLs, e.g. nats://nats.garden.svc:4222. */
  servers: string | string[];
  /** The component's name, shown by the server's monitoring. */
  name: string;
  credentials?: Credentials;
  logger?: Logger;
  reconnect?: BackoffOptions;
  /** Bounds of the outbox used while NATS is unreachable. */
  buffer?: OutboxLimits;
  /** Where the metrics register; the default prom-client registry when absent. */
  registry?: Registry;
  /** How often the client pings the server; two missed pings count as a lost connection. Default 20 s. */
  pingIntervalMs?: number;
  /** How long one connection attempt may take. Default 5 s. */
  connectTimeoutMs?: number;
}

/** sent: handed to NATS; buffered: kept in the outbox until NATS returns; dropped: lost and counted. */
export type PublishResult = 'sent' | 'buffered' | 'dropped';

export type ClientEvent =
  | { type: 'connected' | 'reconnected'; server: string }
  | { type: 'disconnected'; server: string }
  | { type: 'permission-denied'; operation: 'publish' | 'subscription'; subject: string }
  | { type: 'error'; error: Error };

export interface MessageSubscription {
  readonly subject: string;
  unsubscribe(): void;
}

interface Registration {
  subject: string;
  queue?: string;
  handler: (msg: Msg) => void;
  active?: NatsSubscription;
}

export class MessagingClient {
  readonly metrics: MessagingMetrics;
  /** The client's logger; publishers and subscribers on this client log here too. */
  readonly log: Logger;
  private readonly outbox: Outbox;
  private readonly backoff: JitteredBackoff;
  private readonly registrations = new Set<Registration>();
  private readonly listeners = new Set<(event: ClientEvent) => void>();
  private connectionWaiters: { resolve: (nc: NatsConnection) => void; reject: (err: Error) => void }[] = [];
  private nc: NatsConnection | undefined;
  private isConnected = false;
  private closed = false;
  private running: Promise<void> | undefined;
  private cancelSleep: (() => void) | undefined;

  constructor(private readonly options: MessagingClientOptions) {
    this.log = options.logger ?? createLogger({ name: 'messaging' });
    this.metrics = messagingMetrics(options.registry);
    this.outbox = new Outbox(options.buffer ?? {}, this.metrics);
    this.backoff = new JitteredBackoff(options.reconnect);
  }

  /** Starts connecting in the background; returns at once. */
  start(): this {
    this.running ??= this.run();
    return this;
  }

  get connected(): boolean {
    return this.isConnected;
  }

  /** Messages waiting in the outbox. */
  get buffered(): number {
    return this.outbox.size;
  }

  /** Calls listener with connection changes and refusals; returns a function that removes it. */
  onEvent(listener: (event: ClientEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Publishes without waiting and without throwing. */
  publish(subject: string, data: Uint8Array): PublishResult {
    if (this.closed) return this.drop('closed', subject);
    if (!this.isConnected || !this.nc) return this.outbox.push({ subject, data }) ? 'buffered' : 'dropped';
    try {
      this.nc.publish(subject, data);
    } catch (err) {
      const tooLarge = data.length > (this.nc.info?.max_payload ?? Infinity);
      return this.drop(tooLarge ? 'too-large' : 'publish-error', subject, err);
    }
    this.metrics.published.inc();
    return 'sent';
  }

  /** Subscribes now or, while NATS is unreachable, as soon as it is reachable. Handler errors are logged, never thrown. */
  subscribe(
    subject: string,
    handler: (msg: Msg) => void | Promise<void>,
    options: { queue?: string } = {},
  ): MessageSubscription {
    const registration: Registration = {
      subject,
      queue: options.queue,
      handler: (msg) => {
        try {
          void Promise.resolve(handler(msg)).catch((err: unknown) =>
            this.log.error({ err, subject: msg.subject }, 'Message handler failed'),
          );
        } catch (err) {
          this.log.error({ err, subject: msg.subject }, 'Message handler failed');
        }
      },
    };
    this.registrations.add(registration);
    if (this.nc) this.activate(registration, this.nc);
    return {
      subject,
      unsubscribe: () => {
        this.registrations.delete(registration);
        registration.active?.unsubscribe();
        registration.active = undefined;
      },
    };
  }

  /** The live connection, once there is one (for JetStream); rejects when the client is closed first. */
  connection(): Promise<NatsConnection> {
    if (this.closed) return Promise.reject(new Error('the messaging client is closed'));
    if (this.nc && this.isConnected) return Promise.resolve(this.nc);
    return new Promise((resolve, reject) => this.connectionWaiters.push({ resolve, reject }));
  }

  /** Waits until the server has processed everything published so far; a no-op while disconnected. */
  async flush(): Promise<void> {
    if (this.nc && this.isConnected) await this.nc.flush();
  }

  /** Delivers what can be delivered, then closes; buffered messages that cannot be sent are counted as dropped. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.cancelSleep?.();
    for (const waiter of this.connectionWaiters.splice(0)) waiter.reject(new Error('the messaging client is closed'));
    const nc = this.nc;
    if (nc && this.isConnected) await nc.drain().catch(() => nc.close());
    else await nc?.close();
    await this.running;
    for (const message of this.outbox.drain()) this.drop('closed', message.subject);
  }

  private async run(): Promise<void> {
    const { servers, name, credentials } = this.options;
    while (!this.closed) {
      let nc: NatsConnection;
      try {
        nc = await connect({
          servers,
          name,
          ...(credentials ? { authenticator: authenticatorFor(credentials) } : {}),
          reconnect: true,
          maxReconnectAttempts: -1,
          reconnectDelayHandler: () => this.backoff.next(),
          pingInterval: this.options.pingIntervalMs ?? 20_000,
          maxPingOut: 2,
          timeout: this.options.connectTimeoutMs ?? 5_000,
        });
      } catch (err) {
        const delayMs = this.backoff.next();
        this.log.info(
          { err: String(err), servers, credentials: describeCredentials(credentials), delayMs },
          'NATS is unreachable, retrying',
        );
        await this.sleep(delayMs);
        continue;
      }
      if (this.closed) {
        await nc.close();
        break;
      }
      this.backoff.reset();
      const statuses = this.watch(nc);
      this.connectedTo(nc, 'connected');
      const closedWith = await nc.closed();
      await statuses;
      this.nc = undefined;
      this.setConnected(false);
      // A connection nats.js gave up on (e.g. after repeated authentication errors) is replaced by a new one.
      if (!this.closed)
        this.log.error(
          { err: closedWith ? String(closedWith) : undefined },
          'NATS connection closed, connecting again',
        );
    }
  }

  private connectedTo(nc: NatsConnection, type: 'connected' | 'reconnected'): void {
    const server = nc.getServer();
    this.nc = nc;
    this.setConnected(true);
    this.log.info(
      { server, buffered: this.outbox.size },
      type === 'connected' ? 'Connected to NATS' : 'Reconnected to NATS',
    );
    if (type === 'connected') for (const registration of this.registrations) this.activate(registration, nc);
    // The outbox goes first, so messages reach NATS in the order they were published.
    for (const message of this.outbox.drain()) this.publish(message.subject, message.data);
    for (const waiter of this.connectionWaiters.splice(0)) waiter.resolve(nc);
    this.emit({ type, server });
  }

  private async watch(nc: NatsConnection): Promise<void> {
    for await (const status of nc.status()) this.onStatus(nc, status);
  }

  private onStatus(nc: NatsConnection, status: Status): void {
    switch (status.type) {
      case 'disconnect':
        this.setConnected(false);
        this.log.info({ server: status.server }, 'Disconnected from NATS; buffering messages until it returns');
        this.emit({ type: 'disconnected', server: status.server });
        break;
      case 'reconnect':
        this.backoff.reset();
        this.connectedTo(nc, 'reconnected');
        break;
      case 'error':
        this.onServerError(status.error);
        break;
      case 'ldm':
        this.log.info({ server: status.server }, 'NATS server is shutting down (lame duck mode)');
        break;
      case 'staleConnection':
        this.log.info('NATS connection is stale, reconnecting');
        break;
      case 'slowConsumer':
        this.log.error({ subject: status.sub.getSubject(), pending: status.pending }, 'Slow NATS consumer');
        break;
      default:
        this.log.debug({ status: status.type }, 'NATS status');
    }
  }

  private onServerError(error: Error): void {
    if (error instanceof PermissionViolationError) {
      if (error.operation === 'publish') this.metrics.dropped.inc({ reason: 'permission-denied' });
      this.log.error({ operation: error.operation, subject: error.subject }, 'NATS permission denied');
      this.emit({ type: 'permission-denied', operation: error.operation, subject: error.subject });
      return;
    }
    this.log.error({ err: error }, 'NATS error');
    this.emit({ type: 'error', error });
  }

  private activate(registration: Registration, nc: NatsConnection): void {
    registration.active = nc.subscribe(registration.subject, {
      queue: registration.queue,
      callback: (err, msg) => {
        if (err) this.log.error({ err, subject: registration.subject }, 'NATS subscription failed');
        else registration.handler(msg);
      },
    });
  }

  private setConnected(connected: boolean): void {
    if (connected !== this.isConnected) this.metrics.connected.inc(connected ? 1 : -1);
    this.isConnected = connected;
  }

  private drop(reason: DropReason, subject: string, err?: unknown): 'dropped' {
    this.metrics.dropped.inc({ reason });
    this.log.debug({ reason, subject, err: err ? String(err) : undefined }, 'Dropped a message');
    return 'dropped';
  }

  private emit(event: ClientEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (err) {
        this.log.error({ err }, 'Messaging event listener failed');
      }
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.cancelSleep = done;
    });
  }
}
