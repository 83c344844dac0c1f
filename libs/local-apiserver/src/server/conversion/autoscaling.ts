// autoscaling/v1 <-> autoscaling/v2 HorizontalPodAutoscaler, as kube's pkg/apis/autoscaling/v1 conversion (v2 is the
// storage version and has the internal type's shape). v1 only has `targetCPUUtilizationPercentage` (a Resource cpu
// Utilization metric) and `currentCPUUtilizationPercentage`; what else v2 holds travels in the v1 object's
// `autoscaling.alpha.kubernetes.io/*` annotations — the other metrics and every current metric in v1's metric shape
// (metricName, targetAverageValue, ...), the behavior as Go marshals the internal type (field names, no json tags),
// and the conditions — and comes back when a v1 object is converted to v2, so a v1 client's read-modify-write keeps
// them. Works on JSON: fields absent on one side stay absent, except Go's non-pointer quantities, written as "0".
import type { KubeObject } from '../../storage/types.js';

export const METRIC_SPECS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/metrics';
export const METRIC_STATUSES_ANNOTATION = 'autoscaling.alpha.kubernetes.io/current-metrics';
export const CONDITIONS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/conditions';
export const BEHAVIOR_ANNOTATION = 'autoscaling.alpha.kubernetes.io/behavior';
/** kube's DropRoundTripHorizontalPodAutoscalerAnnotations also drops the tolerance annotations of v2beta2. */
const ROUND_TRIP_ANNOTATIONS = [
  METRIC_SPECS_ANNOTATION,
  BEHAVIOR_ANNOTATION,
  'autoscaling.alpha.kubernetes.io/scale-down-tolerance',
  'autoscaling.alpha.kubernetes.io/scale-up-tolerance',
  METRIC_STATUSES_ANNOTATION,
  CONDITIONS_ANNOTATION,
];
/** The CPU utilization v1 objects without a target get (autoscaling.DefaultCPUUtilization). */
const DEFAULT_CPU_UTILIZATION = 80;

type Obj = KubeObject;

const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** An object with the given entries, leaving out undefined and null values (Go's omitempty on pointers). */
function fields(entries: Array<[string, unknown]>): Obj {
  const out: Obj = {};
  for (const [k, v] of entries) if (v !== undefined && v !== null) out[k] = v;
  return out;
}

/** A Go non-pointer resource.Quantity: its zero value marshals as "0". */
const quantity = (v: unknown) => v ?? '0';

function crossVersionRef(r: Obj | undefined): Obj {
  return fields([
    ['kind', r?.kind ?? ''],
    ['name', r?.name ?? ''],
    ['apiVersion', r?.apiVersion],
  ]);
}

const isCpuResource = (m: Obj) => m?.type === 'Resource' && isObject(m.resource) && m.resource.name === 'cpu';

// Metric specs and statuses: v2 (internal) shape <-> v1's (v2beta1-like) shape, in Go's field order.

function metricSpecToV1(m: Obj): Obj {
  const t = (src: Obj | undefined) => (isObject(src?.target) ? src.target : {});
  const o = m.object,
    p = m.pods,
    r = m.resource,
    c = m.containerResource,
    e = m.external;
  return fields([
    ['type', m.type ?? ''],
    [
      'object',
      isObject(o)
        ? fields([
            ['target', crossVersionRef(o.describedObject)],
            ['metricName', o.metric?.name ?? ''],
            ['targetValue', quantity(t(o).value)],
            ['selector', o.metric?.selector],
            ['averageValue', t(o).averageValue],
          ])
        : undefined,
    ],
    [
      'pods',
      isObject(p)
        ? fields([
            ['metricName', p.metric?.name ?? ''],
            ['targetAverageValue', quantity(t(p).averageValue)],
            ['selector', p.metric?.selector],
          ])
        : undefined,
    ],
    [
      'resource',
      isObject(r)
        ? fields([
            ['name', r.name ?? ''],
            ['targetAverageUtilization', t(r).averageUtilization],
            ['targetAverageValue', t(r).averageValue],
          ])
        : undefined,
    ],
    [
      'containerResource',
      isObject(c)
        ? fields([
            ['name', c.name ?? ''],
            ['targetAverageUtilization', t(c).averageUtilization],
            ['targetAverageValue', t(c).averageValue],
            ['container', c.container ?? ''],
          ])
        : undefined,
    ],
    [
      'external',
      isObject(e)
        ? fields([
            ['metricName', e.metric?.name ?? ''],
            ['metricSelector', e.metric?.selector],
            ['targetValue', t(e).value],
            ['targetAverageValue', t(e).averageValue],
          ])
        : undefined,
    ],
  ]);
}

function metricSpecToV2(m: Obj): Obj {
  const o = m.object,
    p = m.pods,
    r = m.resource,
    c = m.containerResource,
    e = m.external;
  const resourceTarget = (s: Obj) =>
    fields([
      ['type', s.targetAverageUtilization == null ? 'AverageValue' : 'Utilization'],
      ['averageValue', s.targetAverageValue],
      ['averageUtilization', s.targetAverageUtilization],
    ]);
  return fields([
    ['type', m.type ?? ''],
    [
      'object',
      isObject(o)
        ? {
            describedObject: crossVersionRef(o.target),
            target: fields([
              ['type', o.averageValue == null ? 'Value' : 'AverageValue'],
              ['value', quantity(o.targetValue)],
              ['averageValue', o.averageValue],
            ]),
            metric: fields([
              ['name', o.metricName ?? ''],
              ['selector', o.selector],
            ]),
          }
        : undefined,
    ],
    [
      'pods',
      isObject(p)
        ? {
            metric: fields([
              ['name', p.metricName ?? ''],
              ['selector', p.selector],
            ]),
            target: { type: 'AverageValue', averageValue: quantity(p.targetAverageValue) },
          }
        : undefined,
    ],
    ['resource', isObject(r) ? { name: r.name ?? '', target: resourceTarget(r) } : undefined],
    [
      'containerResource',
      isObject(c) ? { name: c.name ?? '', target: resourceTarget(c), container: c.container ?? '' } : undefined,
    ],
    [
      'external',
      isObject(e)
        ? {
            metric: fields([
              ['name', e.metricName ?? ''],
              ['selector', e.metricSelector],
            ]),
            target: fields([
              ['type', e.targetValue == null ? 'AverageValue' : 'Value'],
              ['value', e.targetValue],
              ['averageValue', e.targetAverageValue],
            ]),
          }
        : undefined,
    ],
  ]);
}

function metricStatusToV1(m: Obj): Obj {
  const cur = (src: Obj | undefined) => (isObject(src?.current) ? src.current : {});
  const o = m.object,
    p = m.pods,
    r = m.resource,
    c = m.containerResource,
    e = m.external;
  return fields([
    ['type', m.type ?? ''],
    [
      'object',
      isObject(o)
        ? fields([
            ['target', crossVersionRef(o.describedObject)],
            ['metricName', o.metric?.name ?? ''],
            ['currentValue', quantity(cur(o).value)],
            ['selector', o.metric?.selector],
            ['averageValue', cur(o).averageValue],
          ])
        : undefined,
    ],
    [
      'pods',
      isObject(p)
        ? fields([
            ['metricName', p.metric?.name ?? ''],
            ['currentAverageValue', quantity(cur(p).averageValue)],
            ['selector', p.metric?.selector],
          ])
        : undefined,
    ],
    [
      'resource',
      isObject(r)
        ? fields([
            ['name', r.name ?? ''],
            ['currentAverageUtilization', cur(r).averageUtilization],
            ['currentAverageValue', quantity(cur(r).averageValue)],
          ])
        : undefined,
    ],
    [
      'containerResource',
      isObject(c)
        ? fields([
            ['name', c.name ?? ''],
            ['currentAverageUtilization', cur(c).averageUtilization],
            ['currentAverageValue', quantity(cur(c).averageValue)],
            ['container', c.container ?? ''],
          ])
        : undefined,
    ],
    [
      'external',
      isObject(e)
        ? fields([
            ['metricName', e.metric?.name ?? ''],
            ['metricSelector', e.metric?.selector],
            ['currentValue', quantity(cur(e).value)],
            ['currentAverageValue', cur(e).averageValue],
          ])
        : undefined,
    ],
  ]);
}

function metricStatusToV2(m: Obj): Obj {
  const o = m.object,
    p = m.pods,
    r = m.resource,
    c = m.containerResource,
    e = m.external;
  const resourceCurrent = (s: Obj) =>
    fields([
      ['averageValue', quantity(s.currentAverageValue)],
      ['averageUtilization', s.currentAverageUtilization],
    ]);
  return fields([
    ['type', m.type ?? ''],
    [
      'object',
      isObject(o)
        ? {
            metric: fields([
              ['name', o.metricName ?? ''],
              ['selector', o.selector],
            ]),
            current: fields([
              ['value', quantity(o.currentValue)],
              ['averageValue', o.averageValue],
            ]),
            describedObject: crossVersionRef(o.target),
          }
        : undefined,
    ],
    [
      'pods',
      isObject(p)
        ? {
            metric: fields([
              ['name', p.metricName ?? ''],
              ['selector', p.selector],
            ]),
            current: { averageValue: quantity(p.currentAverageValue) },
          }
        : undefined,
    ],
    ['resource', isObject(r) ? { name: r.name ?? '', current: resourceCurrent(r) } : undefined],
    [
      'containerResource',
      isObject(c) ? { name: c.name ?? '', current: resourceCurrent(c), container: c.container ?? '' } : undefined,
    ],
    [
      'external',
      isObject(e)
        ? {
            metric: fields([
              ['name', e.metricName ?? ''],
              ['selector', e.metricSelector],
            ]),
            current: fields([
              ['value', quantity(e.currentValue)],
              ['averageValue', e.currentAverageValue],
            ]),
          }
        : undefined,
    ],
  ]);
}

// The behavior annotation: Go's json.Marshal of the internal HorizontalPodAutoscalerBehavior (no json tags, so Go
// field names and null for nil pointers), read back with encoding/json's case-insensitive key matching.

const RULE_FIELDS = ['stabilizationWindowSeconds', 'selectPolicy', 'policies', 'tolerance'] as const;
const POLICY_FIELDS = ['type', 'value', 'periodSeconds'] as const;
const goName = (f: string) => f[0].toUpperCase() + f.slice(1);

function behaviorToGoJson(behavior: Obj): string {
  const rules = (r: unknown) => {
    if (!isObject(r)) return null;
    const out: Obj = {};
    for (const f of RULE_FIELDS) {
      out[goName(f)] =
        f === 'policies'
          ? Array.isArray(r.policies)
            ? r.policies.map((p: Obj) => ({
                Type: p?.type ?? '',
                Value: p?.value ?? 0,
                PeriodSeconds: p?.periodSeconds ?? 0,
              }))
            : null
          : (r[f] ?? null);
    }
    return out;
  };
  return JSON.stringify({ ScaleUp: rules(behavior.scaleUp), ScaleDown: rules(behavior.scaleDown) });
}

/** A key of a Go-marshalled object, matched as encoding/json does: exactly, else ignoring case. */
function goField(o: Obj, name: string): unknown {
  if (name in o) return o[name];
  const key = Object.keys(o).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : o[key];
}

function behaviorFromGoJson(raw: string): Obj | undefined {
  const parsed = parseJson(raw);
  if (!isObject(parsed)) return undefined;
  const rules = (r: unknown) => {
    if (!isObject(r)) return undefined;
    const out: Obj = {};
    for (const f of RULE_FIELDS) {
      const v = goField(r, goName(f));
      if (v === undefined || v === null) continue;
      out[f] =
        f === 'policies' && Array.isArray(v)
          ? v.map((p) =>
              Object.fromEntries(
                POLICY_FIELDS.map((pf) => [
                  pf,
                  (isObject(p) ? goField(p, goName(pf)) : undefined) ?? (pf === 'type' ? '' : 0),
                ]),
              ),
            )
          : v;
    }
    return out;
  };
  const behavior = fields([
    ['scaleUp', rules(goField(parsed, 'ScaleUp'))],
    ['scaleDown', rules(goField(parsed, 'ScaleDown'))],
  ]);
  // kube keeps the behavior only when it is not the zero value.
  return Object.keys(behavior).length > 0 ? behavior : undefined;
}

function parseJson(raw: unknown): unknown {
  if (typeof raw !== 'string') return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    return undefined; // kube ignores round-trip annotations it cannot decode
  }
}

/** The annotations without kube's round-trip ones; undefined when none are left (Go omits an empty map). */
function dropRoundTripAnnotations(annotations: Obj | undefined): Obj | undefined {
  if (!annotations || !ROUND_TRIP_ANNOTATIONS.some((k) => k in annotations)) return annotations;
  const out = { ...annotations };
  for (const k of ROUND_TRIP_ANNOTATIONS) delete out[k];
  return Object.keys(out).length > 0 ? out : undefined;
}

function withAnnotations(object: Obj, annotations: Obj | undefined): Obj {
  const metadata = { ...(object.metadata ?? {}) };
  if (annotations) metadata.annotations = annotations;
  else delete metadata.annotations;
  return { ...object, metadata };
}

/** An autoscaling/v2 HorizontalPodAutoscaler as autoscaling/v1. */
export function hpaV2ToV1(hpa: Obj): Obj {
  const spec: Obj = isObject(hpa.spec) ? hpa.spec : {};
  const metrics: Obj[] = Array.isArray(spec.metrics) ? spec.metrics : [];
  const isCpuUtilization = (m: Obj) => isCpuResource(m) && m.resource.target?.averageUtilization != null;
  // The first cpu Resource metric gives the target, if it is a utilization; every cpu utilization metric is left out
  // of the annotation.
  const cpu = metrics.find(isCpuResource);
  const others = metrics.filter((m) => !isCpuUtilization(m)).map(metricSpecToV1);
  const v1Spec = fields([
    ['scaleTargetRef', crossVersionRef(spec.scaleTargetRef)],
    ['minReplicas', spec.minReplicas],
    ['maxReplicas', spec.maxReplicas ?? 0],
    ['targetCPUUtilizationPercentage', cpu?.resource.target?.averageUtilization],
  ]);

  const out: Obj = { ...hpa, apiVersion: 'autoscaling/v1', spec: v1Spec };
  const annotations: Obj = { ...(dropRoundTripAnnotations(hpa.metadata?.annotations) ?? {}) };
  if (others.length > 0) annotations[METRIC_SPECS_ANNOTATION] = JSON.stringify(others);
  if (isObject(spec.behavior)) annotations[BEHAVIOR_ANNOTATION] = behaviorToGoJson(spec.behavior);

  if (isObject(hpa.status)) {
    const status = hpa.status;
    const current: Obj[] = Array.isArray(status.currentMetrics) ? status.currentMetrics : [];
    let currentCpu: unknown;
    for (const m of current)
      if (isCpuResource(m) && m.resource.current?.averageUtilization != null)
        currentCpu = m.resource.current.averageUtilization;
    out.status = fields([
      ['observedGeneration', status.observedGeneration],
      ['lastScaleTime', status.lastScaleTime],
      ['currentReplicas', status.currentReplicas],
      ['desiredReplicas', status.desiredReplicas],
      ['currentCPUUtilizationPercentage', currentCpu],
    ]);
    // Every current metric is kept, even the cpu one v1 shows, for its raw value.
    if (current.length > 0) annotations[METRIC_STATUSES_ANNOTATION] = JSON.stringify(current.map(metricStatusToV1));
    if (Array.isArray(status.conditions) && status.conditions.length > 0)
      annotations[CONDITIONS_ANNOTATION] = JSON.stringify(status.conditions);
  }
  return withAnnotations(out, Object.keys(annotations).length > 0 ? annotations : undefined);
}

/** An autoscaling/v1 HorizontalPodAutoscaler as autoscaling/v2 (its storage version). */
export function hpaV1ToV2(hpa: Obj): Obj {
  const spec: Obj = isObject(hpa.spec) ? hpa.spec : {};
  const annotations: Obj = hpa.metadata?.annotations ?? {};
  let metrics: Obj[] =
    spec.targetCPUUtilizationPercentage == null
      ? []
      : [
          {
            type: 'Resource',
            resource: {
              name: 'cpu',
              target: { type: 'Utilization', averageUtilization: spec.targetCPUUtilizationPercentage },
            },
          },
        ];
  const others = parseJson(annotations[METRIC_SPECS_ANNOTATION]);
  // The annotation's metrics come first, the one from targetCPUUtilizationPercentage last.
  if (Array.isArray(others)) metrics = [...others.filter(isObject).map(metricSpecToV2), ...metrics];
  if (metrics.length === 0) {
    metrics = [
      {
        type: 'Resource',
        resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: DEFAULT_CPU_UTILIZATION } },
      },
    ];
  }
  const v2Spec = fields([
    ['scaleTargetRef', crossVersionRef(spec.scaleTargetRef)],
    ['minReplicas', spec.minReplicas],
    ['maxReplicas', spec.maxReplicas ?? 0],
    ['metrics', metrics],
    [
      'behavior',
      annotations[BEHAVIOR_ANNOTATION] === undefined ? undefined : behaviorFromGoJson(annotations[BEHAVIOR_ANNOTATION]),
    ],
  ]);
  const out: Obj = { ...hpa, apiVersion: 'autoscaling/v2', spec: v2Spec };

  const currentAnnotation = parseJson(annotations[METRIC_STATUSES_ANNOTATION]);
  const conditions = parseJson(annotations[CONDITIONS_ANNOTATION]);
  if (isObject(hpa.status) || Array.isArray(currentAnnotation) || Array.isArray(conditions)) {
    const status: Obj = isObject(hpa.status) ? hpa.status : {};
    let current: Obj[] | undefined =
      status.currentCPUUtilizationPercentage == null
        ? undefined
        : [
            {
              type: 'Resource',
              resource: { name: 'cpu', current: { averageUtilization: status.currentCPUUtilizationPercentage } },
            },
          ];
    // The annotation's statuses replace the cpu one: they have more information.
    if (Array.isArray(currentAnnotation)) current = currentAnnotation.filter(isObject).map(metricStatusToV2);
    out.status = fields([
      ['observedGeneration', status.observedGeneration],
      ['lastScaleTime', status.lastScaleTime],
      ['currentReplicas', status.currentReplicas],
      ['desiredReplicas', status.desiredReplicas],
      ['currentMetrics', current],
      ['conditions', Array.isArray(conditions) ? conditions : undefined],
    ]);
  }
  return withAnnotations(out, dropRoundTripAnnotations(hpa.metadata?.annotations));
}
