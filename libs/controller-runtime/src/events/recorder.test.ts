// Unit tests of the events.k8s.io/v1 mode against a fake client: the Event body, the EventSeries and the default.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../client/api-error.js';
import { FakeClock } from '../queue/clock.js';
import { EventRecorder, eventsV1Body, microTime } from './recorder.js';
import type { KubernetesObject } from '../client/types.js';

interface Call {
  op: 'create' | 'patch';
  apiVersion: string;
  body: Record<string, unknown>;
  key?: { namespace?: string; name: string };
}

function fakeClient(opts: { patchNotFound?: boolean } = {}) {
  const calls: Call[] = [];
  const client = {
    create: async (obj: KubernetesObject) => {
      calls.push({ op: 'create', apiVersion: obj.apiVersion!, body: obj as Record<string, unknown> });
      return obj;
    },
    patch: async (
      k: { group: string; version: string },
      key: { namespace?: string; name: string },
      p: { patch: unknown },
    ) => {
      if (opts.patchNotFound) throw new ApiError(404, 'NotFound', 'gone');
      calls.push({
        op: 'patch',
        apiVersion: k.group ? `${k.group}/${k.version}` : k.version,
        key,
        body: p.patch as Record<string, unknown>,
      });
      return {};
    },
  };
  return { client: client as unknown as ConstructorParameters<typeof EventRecorder>[0], calls };
}

const cm: KubernetesObject = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'subject', namespace: 'ns1', uid: 'u-1', resourceVersion: '7' },
};
const pod: KubernetesObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns1', uid: 'u-2' } };

describe('microTime', () => {
  it('has six fractional digits', () => {
    expect(microTime(new Date('2026-01-02T03:04:05.678Z'))).toBe('2026-01-02T03:04:05.678000Z');
  });
});

describe('eventsV1Body', () => {
  it('builds an events.k8s.io/v1 Event with regarding, note, action and reporter, without series', () => {
    const at = new Date('2026-01-02T03:04:05.678Z');
    const body = eventsV1Body(
      { ref: { kind: 'ConfigMap', name: 'subject' }, type: 'Warning', reason: 'Failing', message: 'oops', at },
      { namespace: 'default', name: 'subject.1', reportingController: 'ctrl', reportingInstance: 'ctrl-host' },
    );
    expect(body).toEqual({
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: 'subject.1', namespace: 'default' },
      eventTime: '2026-01-02T03:04:05.678000Z',
      reportingController: 'ctrl',
      reportingInstance: 'ctrl-host',
      action: 'Failing',
      reason: 'Failing',
      regarding: { kind: 'ConfigMap', name: 'subject' },
      note: 'oops',
      type: 'Warning',
    });
  });
});

describe('EventRecorder with api events.k8s.io/v1', () => {
  const recorder = (client: ConstructorParameters<typeof EventRecorder>[0], clock = new FakeClock()) =>
    new EventRecorder(client, { component: 'ctrl', host: 'host', api: 'events.k8s.io/v1', clock });

  it('creates an Event named <object>.<hex timestamp> with regarding, related and action', async () => {
    const { client, calls } = fakeClient();
    const r = recorder(client);
    r.actionEvent(cm, pod, 'Normal', 'Scheduled', 'Binding', 'bound it');
    await r.flush();
    expect(calls).toHaveLength(1);
    const [{ op, body }] = calls;
    expect(op).toBe('create');
    expect(body).toMatchObject({
      apiVersion: 'events.k8s.io/v1',
      metadata: { namespace: 'ns1' },
      regarding: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        namespace: 'ns1',
        name: 'subject',
        uid: 'u-1',
        resourceVersion: '7',
      },
      related: { kind: 'Pod', name: 'p', uid: 'u-2' },
      reason: 'Scheduled',
      action: 'Binding',
      note: 'bound it',
      type: 'Normal',
      reportingController: 'ctrl',
      reportingInstance: 'ctrl-host',
    });
    expect(body.series).toBeUndefined();
    expect((body.metadata as { name: string }).name).toMatch(/^subject\.[0-9a-f]+$/);
    expect(body.eventTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(body).not.toHaveProperty('count');
  });

  it('turns repeats into an EventSeries patched onto the first Event (count 2, then 3), note not in the key', async () => {
    const { client, calls } = fakeClient();
    const r = recorder(client);
    r.event(cm, 'Warning', 'Failing', 'first');
    r.event(cm, 'Warning', 'Failing', 'second note, same series');
    r.event(cm, 'Warning', 'Failing', 'third');
    await r.flush();
    expect(calls.map((c) => c.op)).toEqual(['create', 'patch', 'patch']);
    const name = (calls[0].body.metadata as { name: string }).name;
    expect(calls[1]).toMatchObject({
      apiVersion: 'events.k8s.io/v1',
      key: { namespace: 'ns1', name },
      body: { series: { count: 2 } },
    });
    expect(calls[2]).toMatchObject({ key: { name }, body: { series: { count: 3 } } });
    expect((calls[2].body.series as { lastObservedTime: string }).lastObservedTime).toMatch(/\.\d{6}Z$/);
    expect(Object.keys(calls[2].body)).toEqual(['series']);
  });

  it('keeps different actions, types or related objects apart', async () => {
    const { client, calls } = fakeClient();
    const r = recorder(client);
    r.actionEvent(cm, undefined, 'Normal', 'R', 'A', 'n');
    r.actionEvent(cm, undefined, 'Normal', 'R', 'B', 'n');
    r.actionEvent(cm, pod, 'Normal', 'R', 'A', 'n');
    r.actionEvent(cm, undefined, 'Warning', 'R', 'A', 'n');
    await r.flush();
    expect(calls.map((c) => c.op)).toEqual(['create', 'create', 'create', 'create']);
  });

  it('starts a new Event after the aggregation window, or when the series Event is gone', async () => {
    const clock = new FakeClock();
    const { client, calls } = fakeClient();
    const r = recorder(client, clock);
    r.event(cm, 'Normal', 'R', 'n');
    await r.flush();
    clock.advance(10 * 60_000 + 1);
    r.event(cm, 'Normal', 'R', 'n');
    await r.flush();
    expect(calls.map((c) => c.op)).toEqual(['create', 'create']);

    const gone = fakeClient({ patchNotFound: true });
    const r2 = recorder(gone.client);
    r2.event(cm, 'Normal', 'R', 'n');
    r2.event(cm, 'Normal', 'R', 'n');
    await r2.flush();
    expect(gone.calls.map((c) => c.op)).toEqual(['create', 'create']);
    expect(gone.calls[1].body.series).toBeUndefined();
  });

  it('shares the per-object throttling with core/v1', async () => {
    const { client, calls } = fakeClient();
    const r = new EventRecorder(client, {
      component: 'ctrl',
      host: 'host',
      api: 'events.k8s.io/v1',
      clock: new FakeClock(),
      burst: 2,
    });
    for (let i = 0; i < 10; i++) r.actionEvent(cm, undefined, 'Normal', 'Hot', `a${i}`, 'n');
    await r.flush();
    expect(calls).toHaveLength(2);
  });
});

describe('EventRecorder default (core/v1)', () => {
  it('still writes core/v1 Events with count and no events.k8s.io fields', async () => {
    const { client, calls } = fakeClient();
    const r = new EventRecorder(client, { component: 'ctrl', host: 'host', clock: new FakeClock() });
    r.event(cm, 'Normal', 'R', 'm');
    r.event(cm, 'Normal', 'R', 'm');
    await r.flush();
    expect(calls[0]).toMatchObject({
      op: 'create',
      apiVersion: 'v1',
      body: {
        count: 1,
        involvedObject: { name: 'subject' },
        source: { component: 'ctrl', host: 'host' },
        reportingInstance: 'host',
      },
    });
    expect(calls[0].body).not.toHaveProperty('action');
    expect(calls[0].body).not.toHaveProperty('series');
    expect(calls[1]).toMatchObject({ op: 'patch', apiVersion: 'v1', body: { count: 2 } });
  });
});
