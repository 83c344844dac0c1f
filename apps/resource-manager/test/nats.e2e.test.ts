// End to end: with a `nats` block the built app publishes ManagedResource condition transitions to a real
// nats-server; a subscriber decodes them with the messaging library's protobuf types.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeEnvelope, MessagingClient, type Envelope } from '@gardener-ts/messaging';
import { startNatsServer, type NatsServer } from '@gardener-ts/testing';
import { b64, startLandscape, waitFor, type Landscape } from './harness.js';

let land: Landscape;
let nats: NatsServer;
let subscriber: MessagingClient;
const received: Array<{ subject: string; envelope: Envelope }> = [];

beforeAll(async () => {
  nats = await startNatsServer();
  land = await startLandscape((config) => {
    config.nats = { servers: nats.url, seed: 'local' };
  });
  subscriber = new MessagingClient({ servers: nats.url, name: 'e2e-subscriber' }).start();
  subscriber.subscribe('gardener.v1.events.>', (msg) => {
    received.push({ subject: msg.subject, envelope: decodeEnvelope(msg.data) });
  });
  await land.start();
}, 60_000);

afterAll(async () => {
  await subscriber?.close();
  await land?.stop();
  await nats?.stop();
});

describe('NATS condition transitions', () => {
  it('publishes ResourcesApplied → True as a ConditionTransition of the ManagedResource', async () => {
    await land.src.create({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'nats-objects', namespace: 'default' },
      data: {
        'cm.yaml': b64(
          'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-nats-test\n  namespace: default\ndata:\n  a: b\n',
        ),
      },
    });
    await land.src.create({
      apiVersion: 'resources.gardener.cloud/v1alpha1',
      kind: 'ManagedResource',
      metadata: { name: 'nats-mr', namespace: 'default' },
      spec: { secretRefs: [{ name: 'nats-objects' }] },
    });

    const applied = await waitFor(
      'ConditionTransition ResourcesApplied → True',
      () =>
        received.find(
          (m) =>
            m.envelope.payload === 'conditionTransition' &&
            m.envelope.conditionTransition?.type === 'ResourcesApplied' &&
            m.envelope.conditionTransition.newStatus === 'CONDITION_STATUS_TRUE',
        ),
      { timeoutMs: 20_000 },
    );

    expect(applied.subject).toBe('gardener.v1.events.local.ManagedResource.default.nats-mr');
    expect(applied.envelope.conditionTransition).toMatchObject({
      reason: 'ApplySucceeded',
      message: 'All resources are applied.',
    });
    expect(applied.envelope.metadata).toMatchObject({
      source: 'gardener-resource-manager',
      seed: 'local',
      object: { kind: 'ManagedResource', namespace: 'default', name: 'nats-mr' },
    });
    expect(applied.envelope.metadata?.id).not.toBe('');
    // The first status write of the condition counts as a transition from unspecified (or from Progressing).
    expect(['CONDITION_STATUS_UNSPECIFIED', 'CONDITION_STATUS_PROGRESSING']).toContain(
      applied.envelope.conditionTransition?.oldStatus,
    );
  });
});
