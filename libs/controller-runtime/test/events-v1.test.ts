// The event recorder writing events.k8s.io/v1 Events against the real local API server: one Event, repeats as a series.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectl } from '@gardener-ts/testing';
import { EventRecorder, EventsV1EventKind } from '../src/events/index.js';
import type { ApiClient, ConfigMap } from '../src/index.js';
import { configMap, useTestCluster } from './fixtures.js';

const env = useTestCluster();
let client: ApiClient;
let cm: ConfigMap;
let recorder: EventRecorder;

beforeAll(async () => {
  client = env.client;
  cm = await client.create(configMap('v1-subject'));
  recorder = new EventRecorder(client, { component: 'test-controller', host: 'test-host', api: 'events.k8s.io/v1' });
});

afterAll(async () => {
  await recorder?.stop();
});

describe('EventRecorder with api events.k8s.io/v1', () => {
  it('writes one events.k8s.io/v1 Event for three repeats, with series.count 3', async () => {
    for (let i = 0; i < 3; i++) recorder.event(cm, 'Warning', 'Failing', 'cannot reach the thing');
    await recorder.flush();

    const list = await client.list(EventsV1EventKind, { namespace: 'default' });
    const events = list.items.filter((e) => e.regarding?.name === 'v1-subject' && e.reason === 'Failing');
    expect(events).toHaveLength(1);
    const [event] = events;
    expect(event).toMatchObject({
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      type: 'Warning',
      reason: 'Failing',
      action: 'Failing',
      note: 'cannot reach the thing',
      reportingController: 'test-controller',
      reportingInstance: 'test-controller-test-host',
      regarding: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        namespace: 'default',
        name: 'v1-subject',
        uid: cm.metadata!.uid,
      },
      series: { count: 3 },
    });
    expect(event.metadata!.name).toMatch(/^v1-subject\.[0-9a-f]+$/);
    expect(Date.parse(event.eventTime)).toBeGreaterThan(0);
    expect(Date.parse(event.series!.lastObservedTime)).toBeGreaterThanOrEqual(Date.parse(event.eventTime));

    // kube prints Events without a NAME column; `-o wide` adds it last.
    const table = await kubectl(env.cluster.kubeconfigPath, [
      'get',
      'events.v1.events.k8s.io',
      '-n',
      'default',
      event.metadata!.name!,
      '-o',
      'wide',
    ]);
    expect(table).toContain('configmap/v1-subject');
    expect(table).toContain(event.metadata!.name!);
  });
});
