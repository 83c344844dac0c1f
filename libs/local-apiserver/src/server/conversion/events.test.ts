// core/v1 <-> events.k8s.io/v1 Event conversion: kube's field mapping, and round trips that keep every field.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../storage/types.js';
import { convertBuiltin } from './builtin.js';
import { coreToEventsV1, eventsV1ToCore } from './events.js';

const REF = {
  kind: 'Pod',
  namespace: 'default',
  name: 'web-0',
  uid: 'u-1',
  apiVersion: 'v1',
  resourceVersion: '7',
  fieldPath: 'spec.containers{web}',
};

const CORE: KubeObject = {
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name: 'web-0.1', namespace: 'default', labels: { a: 'b' } },
  involvedObject: REF,
  reason: 'Started',
  message: 'Started container web',
  source: { component: 'kubelet', host: 'node-1' },
  firstTimestamp: '2026-01-01T00:00:00Z',
  lastTimestamp: '2026-01-01T00:01:00Z',
  count: 3,
  type: 'Normal',
  eventTime: '2026-01-01T00:00:00.123456Z',
  series: { count: 2, lastObservedTime: '2026-01-01T00:01:00.000001Z' },
  action: 'Start',
  related: { kind: 'Node', name: 'node-1', apiVersion: 'v1' },
  reportingComponent: 'kubelet',
  reportingInstance: 'node-1',
};

describe('Event conversion', () => {
  it('maps core/v1 fields to events.k8s.io/v1 as kube does', () => {
    const { involvedObject, message, source, firstTimestamp, lastTimestamp, count, reportingComponent, ...unchanged } =
      CORE;
    const modern = coreToEventsV1(CORE);
    expect(modern).toEqual({
      ...unchanged,
      apiVersion: 'events.k8s.io/v1',
      regarding: involvedObject,
      note: message,
      deprecatedSource: source,
      deprecatedFirstTimestamp: firstTimestamp,
      deprecatedLastTimestamp: lastTimestamp,
      deprecatedCount: count,
      reportingController: reportingComponent,
    });
    // eventTime, series, action, reason, related, reportingInstance and type keep their names and values.
    expect(Object.keys(unchanged).sort()).toEqual([
      'action',
      'apiVersion',
      'eventTime',
      'kind',
      'metadata',
      'reason',
      'related',
      'reportingInstance',
      'series',
      'type',
    ]);
  });

  it('stores an events.k8s.io/v1 Event in core shape: regarding is involvedObject, note is message, reportingController is reportingComponent', () => {
    const core = eventsV1ToCore({
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: 'x' },
      regarding: REF,
      note: 'hi',
      reportingController: 'ctrl',
      reportingInstance: 'ctrl-host',
      eventTime: 't',
      action: 'Do',
      reason: 'Done',
    });
    expect(core).toEqual({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'x' },
      involvedObject: REF,
      message: 'hi',
      reportingComponent: 'ctrl',
      reportingInstance: 'ctrl-host',
      eventTime: 't',
      action: 'Do',
      reason: 'Done',
    });
    expect(core.source).toBeUndefined(); // reportingInstance is not source.host
  });

  it('converts through convertBuiltin in both directions and leaves an object in the wanted version alone', () => {
    expect(convertBuiltin(CORE, 'events.k8s.io/v1').note).toBe(CORE.message);
    expect(convertBuiltin(coreToEventsV1(CORE), 'v1')).toEqual(CORE);
    expect(convertBuiltin(CORE, 'v1')).toBe(CORE);
  });

  const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
  const ref = fc.record(
    {
      kind: fc.string(),
      namespace: fc.string(),
      name: fc.string(),
      uid: fc.string(),
      apiVersion: fc.string(),
      resourceVersion: fc.string(),
      fieldPath: fc.string(),
    },
    { requiredKeys: [] },
  );
  const coreEvent = fc
    .record({
      metadata: fc.record(
        { name: fc.string(), namespace: fc.string(), annotations: fc.dictionary(fc.string(), fc.string()) },
        { requiredKeys: ['name'] },
      ),
      involvedObject: ref,
      reason: optional(fc.string()),
      message: optional(fc.string()),
      source: optional(fc.record({ component: fc.string(), host: fc.string() }, { requiredKeys: [] })),
      firstTimestamp: optional(fc.string()),
      lastTimestamp: optional(fc.string()),
      count: optional(fc.integer()),
      type: optional(fc.constantFrom('Normal', 'Warning')),
      eventTime: optional(fc.string()),
      series: optional(fc.record({ count: fc.integer(), lastObservedTime: fc.string() })),
      action: optional(fc.string()),
      related: optional(ref),
      reportingComponent: optional(fc.string()),
      reportingInstance: optional(fc.string()),
    })
    .map((e) => JSON.parse(JSON.stringify({ apiVersion: 'v1', kind: 'Event', ...e })) as KubeObject);

  it('core -> events.k8s.io -> core keeps every field', () => {
    fc.assert(
      fc.property(coreEvent, (e) => {
        expect(eventsV1ToCore(coreToEventsV1(e))).toEqual(e);
      }),
    );
  });

  it('events.k8s.io -> core -> events.k8s.io keeps every field', () => {
    fc.assert(
      fc.property(coreEvent, (e) => {
        const modern = coreToEventsV1(e);
        expect(coreToEventsV1(eventsV1ToCore(modern))).toEqual(modern);
        for (const old of [
          'involvedObject',
          'message',
          'source',
          'firstTimestamp',
          'lastTimestamp',
          'count',
          'reportingComponent',
        ])
          expect(modern).not.toHaveProperty(old);
      }),
    );
  });
});
