// Publish/subscribe of every message type, credentials and per-component permissions against a real nats-server.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createUser } from '@nats-io/nkeys';
import { startNatsServer, waitFor, type NatsServer } from '@gardener-ts/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  Publisher,
  eventFilter,
  fromTimestamp,
  seedPermissions,
  subscribeEnvelopes,
  subscribeEvents,
  subscribeHeartbeats,
  subscribeWakeUps,
  type ClientEvent,
  type Envelope,
} from '../src/index.js';
import { closeTestClients, testClient } from './clients.js';
import { metricValue } from './metric-value.js';

const shoot = { kind: 'Shoot', namespace: 'garden-dev', name: 'alpha', uid: 'u-1', generation: 3 };

describe('publish and subscribe', () => {
  let nats: NatsServer;
  beforeAll(async () => {
    nats = await startNatsServer();
  });
  afterAll(() => nats?.stop());
  afterEach(closeTestClients);

  it('round-trips each message type with the envelope header and the subject', async () => {
    const { client: receiver } = testClient(nats.url);
    const received: { subject: string; envelope: Envelope }[] = [];
    const collect = (envelope: Envelope, subject: string) => void received.push({ subject, envelope });
    subscribeEvents(receiver, { seed: 'seed-a' }, collect);
    subscribeHeartbeats(receiver, { seed: 'seed-a' }, collect);
    subscribeWakeUps(receiver, { seed: 'seed-a', kind: 'WorkerPool' }, collect);
    await receiver.connection();
    await receiver.flush();

    const { client: sender } = testClient(nats.url);
    await sender.connection();
    const now = new Date('2026-11-23T10:00:00.250Z');
    const publisher = new Publisher(sender, { source: 'gardenlet', seed: 'seed-a' }, { now: () => now });
    expect(
      publisher.operationProgress(shoot, {
        type: 'LAST_OPERATION_TYPE_CREATE',
        state: 'LAST_OPERATION_STATE_PROCESSING',
        progress: 10,
        task: { id: 'Deploying namespace', phase: 'TASK_PHASE_STARTED' },
      }),
    ).toBe('sent');
    publisher.conditionTransition(shoot, {
      type: 'APIServerAvailable',
      oldStatus: 'CONDITION_STATUS_UNKNOWN',
      newStatus: 'CONDITION_STATUS_TRUE',
      reason: 'HealthzOK',
    });
    publisher.schedulingDecision(shoot, { seed: 'seed-a', candidates: [{ seed: 'seed-a' }], reason: 'SameRegion' });
    publisher.heartbeat({
      component: 'gardenlet',
      identity: 'gardenlet-0',
      lease: { namespace: 'garden', name: 'gardenlet' },
      leaseDurationSeconds: 40,
    });
    publisher.wakeUp(
      { kind: 'WorkerPool', namespace: 'shoot--dev--alpha', name: 'pool-a' },
      'OperatingSystemConfigChanged',
    );

    await waitFor('five messages', () => received.length === 5);
    expect(received.map((r) => r.subject)).toEqual([
      'gardener.v1.events.seed-a.Shoot.garden-dev.alpha',
      'gardener.v1.events.seed-a.Shoot.garden-dev.alpha',
      'gardener.v1.events.seed-a.Shoot.garden-dev.alpha',
      'gardener.v1.heartbeats.seed-a.gardenlet.gardenlet-0',
      'gardener.v1.wakeups.seed-a.WorkerPool.shoot--dev--alpha.pool-a',
    ]);
    expect(received.map((r) => r.envelope.payload)).toEqual([
      'operationProgress',
      'conditionTransition',
      'schedulingDecision',
      'heartbeat',
      'wakeUp',
    ]);
    const [progress, condition, decision, heartbeat, wakeUp] = received.map((r) => r.envelope);
    expect(progress.metadata).toMatchObject({
      source: 'gardenlet',
      seed: 'seed-a',
      generation: 3,
      object: { kind: 'Shoot', namespace: 'garden-dev', name: 'alpha', uid: 'u-1' },
    });
    expect(fromTimestamp(progress.metadata!.time!)).toEqual(now);
    expect(new Set(received.map((r) => r.envelope.metadata!.id)).size).toBe(5);
    expect(progress.operationProgress).toMatchObject({
      type: 'LAST_OPERATION_TYPE_CREATE',
      progress: 10,
      task: { id: 'Deploying namespace', phase: 'TASK_PHASE_STARTED' },
    });
    expect(condition.conditionTransition).toMatchObject({
      oldStatus: 'CONDITION_STATUS_UNKNOWN',
      newStatus: 'CONDITION_STATUS_TRUE',
    });
    expect(decision.schedulingDecision).toMatchObject({ seed: 'seed-a', reason: 'SameRegion' });
    expect(heartbeat.heartbeat).toMatchObject({
      component: 'gardenlet',
      lease: { name: 'gardenlet' },
      leaseDurationSeconds: 40,
    });
    expect(wakeUp.wakeUp).toEqual({
      target: { kind: 'WorkerPool', namespace: 'shoot--dev--alpha', name: 'pool-a', uid: '' },
      reason: 'OperatingSystemConfigChanged',
    });
  });

  it('counts invalid messages as dropped instead of throwing into the caller', async () => {
    const { client, registry } = testClient(nats.url);
    await client.connection();
    const publisher = new Publisher(client, { source: 'gardenlet', seed: 'seed-a' });
    expect(publisher.operationProgress({ kind: 'Shoot', namespace: 'a.b', name: 'x' }, {})).toBe('dropped');
    expect(publisher.conditionTransition(shoot, { newStatus: 'Healthy' as never })).toBe('dropped');
    expect(await metricValue(registry, 'gardener_messaging_dropped_total', { reason: 'invalid' })).toBe(2);
  });

  it('never hands undecodable or unexpected messages to a handler, and counts them', async () => {
    const { client, registry } = testClient(nats.url);
    const received: Envelope[] = [];
    subscribeEnvelopes(client, eventFilter({ seed: 'seed-x' }), ['operationProgress'], (e) => void received.push(e));
    await client.connection();
    await client.flush();
    const subject = 'gardener.v1.events.seed-x.Shoot.ns.n';
    client.publish(subject, new TextEncoder().encode('not protobuf at all'));
    new Publisher(client, { source: 't', seed: 'seed-x' }).conditionTransition(
      { kind: 'Shoot', namespace: 'ns', name: 'n' },
      {},
    );
    new Publisher(client, { source: 't', seed: 'seed-x' }).operationProgress(
      { kind: 'Shoot', namespace: 'ns', name: 'n' },
      { progress: 1 },
    );
    await waitFor('the valid message', () => received.length === 1);
    expect(received[0].operationProgress?.progress).toBe(1);
    expect(await metricValue(registry, 'gardener_messaging_received_invalid_total')).toBe(2);
  });

  it('keeps a handler failure away from the connection', async () => {
    const { client, logged } = testClient(nats.url);
    let calls = 0;
    subscribeWakeUps(client, {}, () => {
      calls++;
      throw new Error('handler bug');
    });
    await client.connection();
    await client.flush();
    const publisher = new Publisher(client, { source: 't', seed: 'seed-a' });
    publisher.wakeUp({ kind: 'WorkerPool', name: 'p' }, 'r');
    publisher.wakeUp({ kind: 'WorkerPool', name: 'p' }, 'r');
    await waitFor('both wake-ups', () => calls === 2);
    expect(logged()).toContain('Message handler failed');
    expect(client.connected).toBe(true);
  });
});

describe('credentials and permissions', () => {
  let nats: NatsServer;
  const nkey = createUser();
  const permissions = (p: object) => JSON.stringify(p);
  beforeAll(async () => {
    nats = await startNatsServer({
      config: `authorization {
        users = [
          { user: "gardenlet-seed-a", password: "pw-a", permissions: ${permissions(seedPermissions('seed-a'))} }
          { user: "observer", password: "pw-o", permissions: { publish: { allow: ["_INBOX.>"] }, subscribe: { allow: ["gardener.v1.>", "_INBOX.>"] } } }
          { nkey: "${nkey.getPublicKey()}" }
        ]
      }`,
    });
  });
  afterAll(() => nats?.stop());
  afterEach(closeTestClients);

  it('lets a gardenlet publish for its seed only; publishing for another seed is refused, surfaced and counted', async () => {
    const { client: observer } = testClient(nats.url, { credentials: { user: 'observer', password: 'pw-o' } });
    const seen: string[] = [];
    observer.subscribe('gardener.v1.>', (msg) => void seen.push(msg.subject));
    await observer.connection();
    await observer.flush();

    const { client: gardenlet, registry } = testClient(nats.url, {
      credentials: { user: 'gardenlet-seed-a', password: 'pw-a' },
    });
    const events: ClientEvent[] = [];
    gardenlet.onEvent((e) => events.push(e));
    await gardenlet.connection();
    const ownSeed = new Publisher(gardenlet, { source: 'gardenlet', seed: 'seed-a' });
    const otherSeed = new Publisher(gardenlet, { source: 'gardenlet', seed: 'seed-b' });

    expect(otherSeed.operationProgress(shoot, { progress: 5 })).toBe('sent'); // refused asynchronously by the server
    await waitFor('the permission error', () => events.some((e) => e.type === 'permission-denied'));
    expect(events).toContainEqual({
      type: 'permission-denied',
      operation: 'publish',
      subject: 'gardener.v1.events.seed-b.Shoot.garden-dev.alpha',
    });
    expect(await metricValue(registry, 'gardener_messaging_dropped_total', { reason: 'permission-denied' })).toBe(1);

    // The connection survives, and the gardenlet's own subjects still work; the refused message never arrived.
    expect(ownSeed.operationProgress(shoot, { progress: 6 })).toBe('sent');
    ownSeed.heartbeat({ component: 'gardenlet', identity: 'g-0' });
    await waitFor('own-seed messages', () => seen.length === 2);
    expect(seen).toEqual([
      'gardener.v1.events.seed-a.Shoot.garden-dev.alpha',
      'gardener.v1.heartbeats.seed-a.gardenlet.g-0',
    ]);
    expect(gardenlet.connected).toBe(true);
  });

  it("refuses a gardenlet's subscription to another seed's wake-ups", async () => {
    const { client: gardenlet } = testClient(nats.url, { credentials: { user: 'gardenlet-seed-a', password: 'pw-a' } });
    const events: ClientEvent[] = [];
    gardenlet.onEvent((e) => events.push(e));
    subscribeWakeUps(gardenlet, { seed: 'seed-b' }, () => {});
    await waitFor('the permission error', () => events.find((e) => e.type === 'permission-denied'));
    expect(events).toContainEqual({
      type: 'permission-denied',
      operation: 'subscription',
      subject: 'gardener.v1.wakeups.seed-b.*.*.*',
    });
  });

  it('authenticates with an nkey seed file', async () => {
    const seedFile = join(nats.dir, 'user.nk');
    await writeFile(seedFile, new TextDecoder().decode(nkey.getSeed()) + '\n', { mode: 0o600 });
    const { client, logged } = testClient(nats.url, { credentials: { nkeySeedFile: seedFile } });
    await client.connection();
    expect(client.connected).toBe(true);
    expect(logged()).toContain('Connected to NATS');
  });

  it('keeps trying with wrong credentials without throwing, buffering what is published', async () => {
    const { client, logged } = testClient(nats.url, { credentials: { user: 'observer', password: 'wrong' } });
    await waitFor('a failed attempt', () => logged().includes('NATS is unreachable, retrying'));
    expect(client.publish('gardener.v1.events.x.Shoot.ns.n', new Uint8Array([1]))).toBe('buffered');
    expect(client.connected).toBe(false);
  });
});

describe('token credentials', () => {
  let nats: NatsServer;
  beforeAll(async () => {
    nats = await startNatsServer({ config: 'authorization { token: "s3cret-token" }' });
  });
  afterAll(() => nats?.stop());
  afterEach(closeTestClients);

  it('connects with the token', async () => {
    const { client } = testClient(nats.url, { credentials: { token: 's3cret-token' } });
    await client.connection();
    expect(client.connected).toBe(true);
  });
});
