// The event recorder against the local API server: Events are written, repeats aggregate, hot loops are throttled.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/queue/clock.js';
import { EventKind, EventRecorder } from '../../src/events/index.js';
import type { ApiClient, ConfigMap } from '../../src/index.js';
import { configMap, useTestCluster } from '../fixtures.js';
import { proxiedClient } from './proxied-client.js';

const env = useTestCluster();
let client: ApiClient;
let cm: ConfigMap;

beforeAll(async () => {
  client = env.client;
  cm = await client.create(configMap('subject'));
});

const recorders: EventRecorder[] = [];
afterAll(async () => {
  await Promise.all(recorders.map((r) => r.stop()));
});

function recorder(options: Partial<ConstructorParameters<typeof EventRecorder>[1]> = {}): EventRecorder {
  const r = new EventRecorder(client, { component: 'test-controller', host: 'test-host', ...options });
  recorders.push(r);
  return r;
}

async function eventsFor(name: string, reason: string) {
  const list = await client.list(EventKind, { namespace: 'default' });
  return list.items.filter((e) => e.involvedObject.name === name && e.reason === reason);
}

describe('EventRecorder', () => {
  it('writes a core/v1 Event naming the object, reason, message, type and source', async () => {
    const r = recorder();
    r.event(cm, 'Normal', 'Reconciled', 'all good');
    await r.flush();
    const [event, ...more] = await eventsFor('subject', 'Reconciled');
    expect(more).toHaveLength(0);
    expect(event).toMatchObject({
      type: 'Normal',
      message: 'all good',
      count: 1,
      source: { component: 'test-controller', host: 'test-host' },
      involvedObject: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        namespace: 'default',
        name: 'subject',
        uid: cm.metadata!.uid,
      },
    });
    expect(event.metadata!.name).toMatch(/^subject\.[0-9a-f]+$/);
    expect(Date.parse(event.firstTimestamp)).toBeGreaterThan(0);
  });

  it('aggregates repeats within the window into one Event with a count, and starts a new one after it', async () => {
    const clock = new FakeClock();
    const r = recorder({ clock });
    for (let i = 0; i < 3; i++) r.event(cm, 'Warning', 'Failing', 'cannot reach the thing');
    await r.flush();
    let events = await eventsFor('subject', 'Failing');
    expect(events.map((e) => e.count)).toEqual([3]);

    clock.advance(10 * 60_000 + 1);
    r.event(cm, 'Warning', 'Failing', 'cannot reach the thing');
    await r.flush();
    events = await eventsFor('subject', 'Failing');
    expect(events.map((e) => e.count).sort()).toEqual([1, 3]);
  });

  it('throttles a hot loop per object without blocking the caller', async () => {
    const clock = new FakeClock();
    const r = recorder({ clock, burst: 5, refillMs: 60_000 });
    const started = performance.now();
    for (let i = 0; i < 500; i++) r.event(cm, 'Normal', 'HotLoop', `iteration ${i}`);
    expect(performance.now() - started).toBeLessThan(5000); // enqueueing only: a blocked caller would wait the 60 s refill
    await r.flush();
    expect(await eventsFor('subject', 'HotLoop')).toHaveLength(5);

    clock.advance(60_000); // one token back
    r.event(cm, 'Normal', 'HotLoop', 'after the refill');
    r.event(cm, 'Normal', 'HotLoop', 'still too soon');
    await r.flush();
    expect((await eventsFor('subject', 'HotLoop')).map((e) => e.message)).toContain('after the refill');
    expect(await eventsFor('subject', 'HotLoop')).toHaveLength(6);
  });

  it('retries while the API server is unreachable and writes the event once it is back', async () => {
    const { client: proxied, proxy } = await proxiedClient(env.cluster);
    const r = new EventRecorder(proxied, { component: 'test-controller', retryDelayMs: 200, maxAttempts: 8 });
    try {
      proxy.pause();
      r.event(cm, 'Warning', 'WhileDown', 'written after the outage');
      await new Promise((resolve) => setTimeout(resolve, 300)); // at least one attempt fails
      expect(await eventsFor('subject', 'WhileDown')).toHaveLength(0);
      proxy.resume();
      await r.flush();
      expect((await eventsFor('subject', 'WhileDown')).map((e) => e.count)).toEqual([1]);
    } finally {
      await r.stop();
      proxied.close();
      await proxy.close();
    }
  });

  it('never throws into the caller: bad input is dropped, API failures are logged', async () => {
    const r = recorder();
    expect(() => r.event({ kind: 'ConfigMap', metadata: {} }, 'Normal', 'NoName', 'x')).not.toThrow();
    expect(() => r.event(cm, 'Fatal' as 'Normal', 'BadType', 'x')).not.toThrow();
    // The namespace does not exist: the API server refuses the Event.
    r.event({ ...cm, metadata: { ...cm.metadata, namespace: 'missing' } }, 'Normal', 'Nowhere', 'x');
    r.event(cm, 'Normal', 'AfterFailure', 'the loop survives a failed write');
    await r.flush();
    expect(await eventsFor('subject', 'AfterFailure')).toHaveLength(1);
    expect(await eventsFor('', 'NoName')).toHaveLength(0);
    expect(await eventsFor('subject', 'BadType')).toHaveLength(0);
    expect(() => new EventRecorder(client, { component: '' })).toThrow(/component/);
  });
});
