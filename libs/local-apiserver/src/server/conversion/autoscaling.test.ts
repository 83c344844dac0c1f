// autoscaling/v1 <-> autoscaling/v2 HorizontalPodAutoscaler conversion, as kube's pkg/apis/autoscaling/v1.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../storage/types.js';
import {
  BEHAVIOR_ANNOTATION,
  CONDITIONS_ANNOTATION,
  hpaV1ToV2,
  hpaV2ToV1,
  METRIC_SPECS_ANNOTATION,
  METRIC_STATUSES_ANNOTATION,
} from './autoscaling.js';
import { convertBuiltin } from './builtin.js';

const TARGET = { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' };
const cpu = (averageUtilization: number) => ({
  type: 'Resource',
  resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization } },
});
const memory = {
  type: 'Resource',
  resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '500Mi' } },
};
const v2 = (spec: KubeObject, extra: KubeObject = {}): KubeObject => ({
  apiVersion: 'autoscaling/v2',
  kind: 'HorizontalPodAutoscaler',
  metadata: { name: 'web', namespace: 'default' },
  spec: { scaleTargetRef: TARGET, minReplicas: 1, maxReplicas: 5, ...spec },
  ...extra,
});

describe('HorizontalPodAutoscaler conversion', () => {
  it('turns targetCPUUtilizationPercentage into a Resource cpu Utilization metric and back', () => {
    const v1 = {
      apiVersion: 'autoscaling/v1',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'web' },
      spec: { scaleTargetRef: TARGET, maxReplicas: 5, targetCPUUtilizationPercentage: 60 },
    };
    const stored = hpaV1ToV2(v1);
    expect(stored).toEqual({
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'web' },
      spec: { scaleTargetRef: TARGET, maxReplicas: 5, metrics: [cpu(60)] },
    });
    expect(hpaV2ToV1(stored)).toEqual(v1);
  });

  it("gives a v1 object without a target kube's default of 80% cpu", () => {
    const stored = hpaV1ToV2({
      apiVersion: 'autoscaling/v1',
      kind: 'HorizontalPodAutoscaler',
      metadata: {},
      spec: { scaleTargetRef: TARGET, maxReplicas: 2 },
    });
    expect(stored.spec.metrics).toEqual([cpu(80)]);
  });

  it('keeps the other metrics, the behavior and the conditions of a v2 object in annotations, in v1 shape', () => {
    const behavior = {
      scaleDown: { stabilizationWindowSeconds: 300, policies: [{ type: 'Percent', value: 10, periodSeconds: 60 }] },
    };
    const conditions = [
      { type: 'AbleToScale', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'ReadyForNewScale' },
    ];
    const currentMetrics = [
      { type: 'Resource', resource: { name: 'cpu', current: { averageValue: '250m', averageUtilization: 42 } } },
    ];
    const original = v2(
      { metrics: [memory, cpu(70)], behavior },
      { status: { currentReplicas: 2, desiredReplicas: 3, currentMetrics, conditions } },
    );
    const v1 = hpaV2ToV1(original);
    expect(v1.apiVersion).toBe('autoscaling/v1');
    expect(v1.spec).toEqual({
      scaleTargetRef: TARGET,
      minReplicas: 1,
      maxReplicas: 5,
      targetCPUUtilizationPercentage: 70,
    });
    expect(v1.status).toEqual({ currentReplicas: 2, desiredReplicas: 3, currentCPUUtilizationPercentage: 42 });
    const annotations = v1.metadata.annotations;
    expect(JSON.parse(annotations[METRIC_SPECS_ANNOTATION])).toEqual([
      { type: 'Resource', resource: { name: 'memory', targetAverageValue: '500Mi' } },
    ]);
    expect(JSON.parse(annotations[METRIC_STATUSES_ANNOTATION])).toEqual([
      { type: 'Resource', resource: { name: 'cpu', currentAverageUtilization: 42, currentAverageValue: '250m' } },
    ]);
    // Go's json.Marshal of the internal type: field names, null for what is unset.
    expect(JSON.parse(annotations[BEHAVIOR_ANNOTATION])).toEqual({
      ScaleUp: null,
      ScaleDown: {
        StabilizationWindowSeconds: 300,
        SelectPolicy: null,
        Policies: [{ Type: 'Percent', Value: 10, PeriodSeconds: 60 }],
        Tolerance: null,
      },
    });
    expect(JSON.parse(annotations[CONDITIONS_ANNOTATION])).toEqual(conditions);
    // Written back as v1, nothing is lost and the annotations are gone.
    expect(hpaV1ToV2(v1)).toEqual(original);
  });

  it('drops stale round-trip annotations and keeps the others', () => {
    const stored = v2({ metrics: [cpu(50)] });
    stored.metadata.annotations = { keep: 'me', [METRIC_SPECS_ANNOTATION]: '[]' };
    expect(hpaV2ToV1(stored).metadata.annotations).toEqual({ keep: 'me' });
    expect(hpaV1ToV2(hpaV2ToV1(stored)).metadata.annotations).toEqual({ keep: 'me' });
  });

  it('ignores round-trip annotations it cannot decode, as kube does', () => {
    const v1 = {
      apiVersion: 'autoscaling/v1',
      kind: 'HorizontalPodAutoscaler',
      metadata: { annotations: { [METRIC_SPECS_ANNOTATION]: '{not json' } },
      spec: { maxReplicas: 1, targetCPUUtilizationPercentage: 10 },
    };
    const stored = hpaV1ToV2(v1);
    expect(stored.spec.metrics).toEqual([cpu(10)]);
    expect(stored.metadata).toEqual({});
  });

  it('takes the target from the first cpu Resource metric only, as kube does (a later cpu utilization is lost)', () => {
    const averageValueFirst = v2({
      metrics: [
        { type: 'Resource', resource: { name: 'cpu', target: { type: 'AverageValue', averageValue: '1' } } },
        cpu(50),
      ],
    });
    const v1 = hpaV2ToV1(averageValueFirst);
    expect(v1.spec.targetCPUUtilizationPercentage).toBeUndefined();
    expect(JSON.parse(v1.metadata.annotations[METRIC_SPECS_ANNOTATION])).toEqual([
      { type: 'Resource', resource: { name: 'cpu', targetAverageValue: '1' } },
    ]);
  });

  it('converts through convertBuiltin', () => {
    expect(convertBuiltin(v2({ metrics: [cpu(33)] }), 'autoscaling/v1').spec.targetCPUUtilizationPercentage).toBe(33);
  });

  // Generators: v1 objects, and v2 objects whose metrics kube round-trips unchanged (other metrics first, at most one
  // cpu utilization metric, last; object targets with a value, pods targets with an averageValue).
  const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
  const quantity = fc.constantFrom('1', '250m', '500Mi', '2Gi', '0');
  const small = fc.integer({ min: 0, max: 1000 });
  const selector = optional(fc.record({ matchLabels: fc.dictionary(fc.constantFrom('a', 'b'), fc.string()) }));
  const ident = fc.record({ name: fc.string(), selector }).map(clean);
  const ref = fc.record({ kind: fc.string(), name: fc.string(), apiVersion: optional(fc.string()) }).map(clean);
  const resourceTarget = fc
    .oneof(
      fc.record({ type: fc.constant('Utilization'), averageValue: optional(quantity), averageUtilization: small }),
      fc.record({ type: fc.constant('AverageValue'), averageValue: quantity }),
    )
    .map(clean);
  const otherMetric = fc
    .oneof(
      fc.record({
        type: fc.constant('Resource'),
        resource: fc.record({ name: fc.constantFrom('memory', 'ephemeral-storage'), target: resourceTarget }),
      }),
      fc.record({
        type: fc.constant('Resource'),
        resource: fc.record({
          name: fc.constant('cpu'),
          target: fc.record({ type: fc.constant('AverageValue'), averageValue: quantity }),
        }),
      }),
      fc.record({
        type: fc.constant('ContainerResource'),
        containerResource: fc.record({ name: fc.constant('cpu'), target: resourceTarget, container: fc.string() }),
      }),
      fc.record({
        type: fc.constant('Pods'),
        pods: fc.record({
          metric: ident,
          target: fc.record({ type: fc.constant('AverageValue'), averageValue: quantity }),
        }),
      }),
      fc.record({
        type: fc.constant('Object'),
        object: fc.record({
          describedObject: ref,
          target: fc.oneof(
            fc.record({ type: fc.constant('Value'), value: quantity }),
            fc.record({ type: fc.constant('AverageValue'), value: quantity, averageValue: quantity }),
          ),
          metric: ident,
        }),
      }),
      fc.record({
        type: fc.constant('External'),
        external: fc.record({
          metric: ident,
          target: fc.oneof(
            fc.record({ type: fc.constant('Value'), value: quantity, averageValue: optional(quantity) }),
            fc.record({ type: fc.constant('AverageValue'), averageValue: quantity }),
          ),
        }),
      }),
    )
    .map(clean);
  const metricStatus = fc
    .oneof(
      fc.record({
        type: fc.constant('Resource'),
        resource: fc.record({
          name: fc.constantFrom('cpu', 'memory'),
          current: fc.record({ averageValue: quantity, averageUtilization: optional(small) }),
        }),
      }),
      fc.record({
        type: fc.constant('Pods'),
        pods: fc.record({ metric: ident, current: fc.record({ averageValue: quantity }) }),
      }),
      fc.record({
        type: fc.constant('Object'),
        object: fc.record({
          metric: ident,
          current: fc.record({ value: quantity, averageValue: optional(quantity) }),
          describedObject: ref,
        }),
      }),
      fc.record({
        type: fc.constant('External'),
        external: fc.record({
          metric: ident,
          current: fc.record({ value: quantity, averageValue: optional(quantity) }),
        }),
      }),
    )
    .map(clean);
  const rules = fc.record(
    {
      stabilizationWindowSeconds: small,
      selectPolicy: fc.constantFrom('Max', 'Min', 'Disabled'),
      policies: fc.array(fc.record({ type: fc.constantFrom('Pods', 'Percent'), value: small, periodSeconds: small })),
      tolerance: quantity,
    },
    { requiredKeys: [] },
  );
  const behavior = fc
    .record({ scaleUp: rules, scaleDown: rules }, { requiredKeys: [] })
    .filter((b) => Object.keys(b).length > 0);
  const condition = fc
    .record({
      type: fc.constantFrom('AbleToScale', 'ScalingActive'),
      status: fc.constantFrom('True', 'False'),
      lastTransitionTime: fc.constant('2026-01-01T00:00:00Z'),
      reason: optional(fc.string()),
    })
    .map(clean);
  const status = fc.record(
    {
      observedGeneration: small,
      currentReplicas: small,
      desiredReplicas: small,
      lastScaleTime: fc.constant('2026-01-01T00:00:00Z'),
      currentMetrics: fc.array(metricStatus, { minLength: 1 }),
      conditions: fc.array(condition, { minLength: 1 }),
    },
    { requiredKeys: [] },
  );
  const annotations = optional(
    fc.dictionary(fc.constantFrom('a', 'example.com/b'), fc.string()).filter((a) => Object.keys(a).length > 0),
  );

  const v2Object = fc
    .record({
      others: fc.array(otherMetric, { maxLength: 3 }),
      cpuTarget: optional(small),
      behavior: optional(behavior),
      status: optional(status),
      annotations,
      minReplicas: optional(small),
    })
    .filter((o) => o.others.length > 0 || o.cpuTarget !== undefined)
    // A cpu AverageValue metric before the cpu utilization one hides it from v1 (see the test above).
    .filter((o) => o.cpuTarget === undefined || !o.others.some((m: KubeObject) => m.resource?.name === 'cpu'))
    .map((o) =>
      clean({
        apiVersion: 'autoscaling/v2',
        kind: 'HorizontalPodAutoscaler',
        metadata: clean({ name: 'web', namespace: 'default', annotations: o.annotations }),
        spec: clean({
          scaleTargetRef: TARGET,
          minReplicas: o.minReplicas,
          maxReplicas: 10,
          metrics: [...o.others, ...(o.cpuTarget === undefined ? [] : [cpu(o.cpuTarget)])],
          behavior: o.behavior,
        }),
        status: o.status,
      }),
    );

  const v1Object = fc
    .record({
      annotations,
      spec: fc.record(
        { scaleTargetRef: ref, minReplicas: small, maxReplicas: small, targetCPUUtilizationPercentage: small },
        { requiredKeys: ['scaleTargetRef', 'maxReplicas'] },
      ),
      status: optional(
        fc.record(
          {
            observedGeneration: small,
            lastScaleTime: fc.constant('2026-01-01T00:00:00Z'),
            currentReplicas: small,
            desiredReplicas: small,
            currentCPUUtilizationPercentage: small,
          },
          { requiredKeys: [] },
        ),
      ),
    })
    .map((o) =>
      clean({
        apiVersion: 'autoscaling/v1',
        kind: 'HorizontalPodAutoscaler',
        metadata: clean({ name: 'web', annotations: o.annotations }),
        spec: o.spec,
        status: o.status,
      }),
    );

  it('v2 -> v1 -> v2 keeps every field of a v2 object', () => {
    fc.assert(
      fc.property(v2Object, (o) => {
        expect(hpaV1ToV2(hpaV2ToV1(o))).toEqual(o);
      }),
    );
  });

  it('v1 -> v2 -> v1 keeps a v1 object (a missing target becomes 80%, a current cpu utilization is also kept raw)', () => {
    fc.assert(
      fc.property(v1Object, (o) => {
        const back = hpaV2ToV1(hpaV1ToV2(o));
        const expected = structuredClone(o);
        expected.spec.targetCPUUtilizationPercentage ??= 80;
        const current = o.status?.currentCPUUtilizationPercentage;
        if (current !== undefined) {
          expected.metadata.annotations = {
            ...expected.metadata.annotations,
            [METRIC_STATUSES_ANNOTATION]: JSON.stringify([
              {
                type: 'Resource',
                resource: { name: 'cpu', currentAverageUtilization: current, currentAverageValue: '0' },
              },
            ]),
          };
        }
        expect(back).toEqual(expected);
        // And from there on it is stable.
        expect(hpaV2ToV1(hpaV1ToV2(back))).toEqual(back);
      }),
    );
  });
});

/** The object without undefined values. */
function clean<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
