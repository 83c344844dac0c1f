// What a component sees while NATS is down: publishing returns at once and never throws, messages wait in a bounded
// outbox and arrive when NATS returns, and what does not fit is dropped and counted.
import { jetstreamManager } from '@nats-io/jetstream';
import { startNatsServer, waitFor, type NatsServer } from '@gardener-ts/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EVENTS_STREAM, Publisher, ensureEventsStream, replayEvents, type ReplayedEvent } from '../src/index.js';
import { closeTestClients, testClient } from './clients.js';
import { metricValue } from './metric-value.js';

const shoot = { kind: 'Shoot', namespace: 'garden-dev', name: 'alpha' };

describe('when NATS is down', () => {
  let nats: NatsServer;
  beforeEach(async () => {
    nats = await startNatsServer({ jetstream: true });
    // The stream stores what reaches the server, whether or not a subscriber is connected at that moment.
    const { client } = testClient(nats.url);
    await ensureEventsStream(await client.connection(), { maxAgeMs: 3_600_000, maxBytes: 64 * 1024 * 1024 });
    await client.close();
  });
  afterEach(async () => {
    await closeTestClients();
    await nats?.stop();
  });

  /** Every stored event, oldest first. */
  async function storedEvents(expected: number): Promise<ReplayedEvent[]> {
    const { client } = testClient(nats.url);
    const events: ReplayedEvent[] = [];
    const replay = await replayEvents(await client.connection(), { since: new Date(0) }, (e) => void events.push(e));
    try {
      await waitFor(
        `${expected} stored events`,
        async () => {
          const stored = (await (await jetstreamManager(await client.connection())).streams.info(EVENTS_STREAM)).state
            .messages;
          return stored === expected && events.length === expected;
        },
        { timeoutMs: 20_000 },
      );
    } finally {
      await replay.stop();
    }
    return events;
  }

  it('buffers without blocking or throwing, and delivers in order after NATS returns on the same port', async () => {
    const { client, registry, logged } = testClient(nats.url);
    await client.connection();
    const publisher = new Publisher(client, { source: 'gardenlet', seed: 'seed-a' });
    expect(publisher.operationProgress(shoot, { progress: 0 })).toBe('sent');
    await client.flush();

    await nats.halt();
    await waitFor('the client to notice', () => !client.connected);
    const started = performance.now();
    const results = Array.from({ length: 100 }, (_, i) => publisher.operationProgress(shoot, { progress: i + 1 }));
    const elapsedMs = performance.now() - started;
    console.log(`100 publishes while NATS is down took ${elapsedMs.toFixed(1)} ms`);
    expect(new Set(results)).toEqual(new Set(['buffered']));
    expect(elapsedMs).toBeLessThan(1000);
    expect(client.buffered).toBe(100);
    expect(await metricValue(registry, 'gardener_messaging_buffered_messages')).toBe(100);
    expect(await metricValue(registry, 'gardener_messaging_connected')).toBe(0);

    await nats.restart();
    await waitFor('the client to reconnect', () => client.connected, { timeoutMs: 20_000 });
    const events = await storedEvents(101);
    expect(events.map((e) => e.operationProgress?.progress)).toEqual(Array.from({ length: 101 }, (_, i) => i));
    expect(client.buffered).toBe(0);
    expect(await metricValue(registry, 'gardener_messaging_buffered_messages')).toBe(0);
    expect(await metricValue(registry, 'gardener_messaging_connected')).toBe(1);
    expect(await metricValue(registry, 'gardener_messaging_dropped_total', { reason: 'buffer-full' })).toBe(0);
    expect(logged()).toEqual(
      expect.arrayContaining([
        'Connected to NATS',
        'Disconnected from NATS; buffering messages until it returns',
        'Reconnected to NATS',
      ]),
    );
  });

  it('keeps only the newest messages beyond the bound, counting the dropped ones', async () => {
    const { client, registry } = testClient(nats.url, { buffer: { maxMessages: 10 } });
    await client.connection();
    await nats.halt();
    await waitFor('the client to notice', () => !client.connected);
    const publisher = new Publisher(client, { source: 'gardenlet', seed: 'seed-a' });
    for (let i = 0; i < 25; i++) expect(publisher.operationProgress(shoot, { progress: i })).toBe('buffered');
    expect(await metricValue(registry, 'gardener_messaging_dropped_total', { reason: 'buffer-full' })).toBe(15);
    expect(await metricValue(registry, 'gardener_messaging_buffered_messages')).toBe(10);

    await nats.restart();
    const events = await storedEvents(10);
    expect(events.map((e) => e.operationProgress?.progress)).toEqual(Array.from({ length: 10 }, (_, i) => 15 + i));
  });

  it('buffers from the start when NATS is not there yet, and delivers once it is', async () => {
    await nats.halt();
    const { client, logged } = testClient(nats.url);
    const publisher = new Publisher(client, { source: 'gardenlet', seed: 'seed-a' });
    expect(publisher.operationProgress(shoot, { progress: 1 })).toBe('buffered');
    expect(publisher.heartbeat({ component: 'gardenlet', identity: 'g-0' })).toBe('buffered');
    await waitFor('a failed connection attempt', () => logged().includes('NATS is unreachable, retrying'));
    expect(publisher.operationProgress(shoot, { progress: 2 })).toBe('buffered');

    await nats.restart();
    await waitFor('the client to connect', () => client.connected, { timeoutMs: 20_000 });
    const events = await storedEvents(2);
    expect(events.map((e) => e.operationProgress?.progress)).toEqual([1, 2]);
  });

  it('closes promptly while it is still trying to connect', async () => {
    await nats.halt();
    const { client, logged } = testClient(nats.url, { reconnect: { initialDelayMs: 5_000, maxDelayMs: 10_000 } });
    await waitFor('a failed connection attempt', () => logged().includes('NATS is unreachable, retrying'));
    const waiting = client.connection();
    const started = performance.now();
    await client.close();
    await expect(waiting).rejects.toThrow('the messaging client is closed');
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(client.connected).toBe(false);
  });

  it('drops and counts what is published after close, without throwing', async () => {
    const { client, registry } = testClient(nats.url);
    await client.connection();
    await nats.halt();
    await waitFor('the client to notice', () => !client.connected);
    client.publish('gardener.v1.events.seed-a.Shoot.ns.a', new Uint8Array([1]));
    await client.close();
    expect(client.publish('gardener.v1.events.seed-a.Shoot.ns.b', new Uint8Array([1]))).toBe('dropped');
    expect(await metricValue(registry, 'gardener_messaging_dropped_total', { reason: 'closed' })).toBe(2);
  });
});
