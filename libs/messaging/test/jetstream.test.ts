// The events stream and late subscribers against a real nats-server with JetStream.
import { jetstreamManager } from '@nats-io/jetstream';
import { startNatsServer, waitFor, type NatsServer } from '@gardener-ts/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  EVENTS_STREAM,
  Publisher,
  ensureEventsStream,
  replayEvents,
  type Replay,
  type ReplayedEvent,
} from '../src/index.js';
import { closeTestClients, testClient } from './clients.js';

const limits = { maxAgeMs: 60 * 60_000, maxBytes: 16 * 1024 * 1024, storage: 'memory' as const };

describe('events stream', () => {
  let nats: NatsServer;
  beforeAll(async () => {
    nats = await startNatsServer({ jetstream: true });
  });
  afterAll(() => nats?.stop());
  afterEach(closeTestClients);

  it('is created once, left alone when unchanged and updated when its limits change', async () => {
    const { client } = testClient(nats.url);
    const nc = await client.connection();
    const name = 'IDEMPOTENT_EVENTS';
    const created = await ensureEventsStream(nc, { ...limits, name });
    expect(created.action).toBe('created');
    expect(created.info.config).toMatchObject({
      subjects: ['gardener.v1.events.>'],
      max_bytes: limits.maxBytes,
      discard: 'old',
      max_age: limits.maxAgeMs * 1_000_000,
    });
    expect((await ensureEventsStream(nc, { ...limits, name })).action).toBe('unchanged');
    const updated = await ensureEventsStream(nc, {
      ...limits,
      name,
      maxBytes: 1024 * 1024,
      subjects: ['gardener.v1.events.seed-a.>'],
    });
    expect(updated.action).toBe('updated');
    const info = await (await jetstreamManager(nc)).streams.info(name);
    expect(info.config).toMatchObject({ max_bytes: 1024 * 1024, subjects: ['gardener.v1.events.seed-a.>'] });
    await expect(ensureEventsStream(nc, { ...limits, name, storage: 'file' })).rejects.toThrow('storage cannot change');
    await expect(ensureEventsStream(nc, { ...limits, name, maxAgeMs: 0 })).rejects.toThrow(
      'maxAgeMs must be a positive integer',
    );
    await (await jetstreamManager(nc)).streams.delete(name);
  });

  it('discards the oldest events beyond its byte limit', async () => {
    const { client } = testClient(nats.url);
    const nc = await client.connection();
    const name = 'SMALL_EVENTS';
    await ensureEventsStream(nc, { ...limits, name, maxBytes: 4096, subjects: ['gardener.v1.events.seed-small.>'] });
    const publisher = new Publisher(client, { source: 'gardenlet', seed: 'seed-small' });
    for (let i = 0; i < 200; i++)
      publisher.operationProgress(
        { kind: 'Shoot', namespace: 'ns', name: 'n' },
        { progress: i % 100, description: 'x'.repeat(50) },
      );
    await client.flush();
    const jsm = await jetstreamManager(nc);
    const state = await waitFor('the stream to hold the last message', async () => {
      const s = (await jsm.streams.info(name)).state;
      return s.last_seq === 200 ? s : undefined;
    });
    expect(state.bytes).toBeLessThanOrEqual(4096);
    expect(state.first_seq).toBeGreaterThan(1);
    await jsm.streams.delete(name);
  });

  it('replays history to a late subscriber from a point in time, then delivers live events', async () => {
    const { client } = testClient(nats.url);
    const nc = await client.connection();
    await ensureEventsStream(nc, limits);
    const publisher = new Publisher(client, { source: 'gardenlet', seed: 'seed-a' });
    const shoot = (name: string) => ({ kind: 'Shoot', namespace: 'garden-dev', name });

    publisher.operationProgress(shoot('before'), { progress: 1 });
    await client.flush();
    // Stream timestamps come from the server clock; leave a clear gap around the start time.
    await new Promise((r) => setTimeout(r, 50));
    const since = new Date();
    await new Promise((r) => setTimeout(r, 50));
    publisher.operationProgress(shoot('alpha'), { progress: 10 });
    publisher.conditionTransition(shoot('alpha'), { type: 'APIServerAvailable', newStatus: 'CONDITION_STATUS_TRUE' });
    publisher.heartbeat({ component: 'gardenlet', identity: 'g-0' }); // not an event: not in the events stream
    publisher.operationProgress(shoot('beta'), { progress: 20 });
    await client.flush();

    const { client: late } = testClient(nats.url);
    const replayed: { event: ReplayedEvent; sequence: number; storedAt: Date }[] = [];
    let replay: Replay | undefined;
    try {
      replay = await replayEvents(
        await late.connection(),
        { since, filter: { name: 'alpha' } },
        (event, info) => void replayed.push({ event, ...info }),
      );
      await waitFor('the two alpha events', () => replayed.length === 2);
      expect(replayed.map((r) => r.event.payload)).toEqual(['operationProgress', 'conditionTransition']);
      expect(replayed[0].event.metadata?.object?.name).toBe('alpha');
      expect(replayed[0].sequence).toBeLessThan(replayed[1].sequence);
      expect(replayed[0].storedAt.getTime()).toBeGreaterThanOrEqual(since.getTime() - 1000);

      publisher.operationProgress(shoot('alpha'), { progress: 100, state: 'LAST_OPERATION_STATE_SUCCEEDED' });
      await waitFor('the live alpha event', () => replayed.length === 3);
      expect(replayed[2].event.operationProgress).toMatchObject({
        progress: 100,
        state: 'LAST_OPERATION_STATE_SUCCEEDED',
      });
    } finally {
      await replay?.stop();
    }
    const count = replayed.length;
    publisher.operationProgress(shoot('alpha'), { progress: 100 });
    await client.flush();
    await late.flush();
    expect(replayed.length).toBe(count);
    expect((await (await jetstreamManager(nc)).streams.info(EVENTS_STREAM)).state.messages).toBe(6); // events only, no heartbeat
  });
});
