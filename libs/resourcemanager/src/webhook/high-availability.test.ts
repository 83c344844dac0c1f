import { describe, expect, it } from 'vitest';
import type { AdmissionRequest, KubernetesObject } from '@gardener-ts/controller-runtime';
import { highAvailabilityConfig, type HighAvailabilityInput } from './high-availability.js';

const TYPE = 'high-availability-config.resources.gardener.cloud/type';
const FTT = 'high-availability-config.resources.gardener.cloud/failure-tolerance-type';
const ZONES = 'high-availability-config.resources.gardener.cloud/zones';

const ns = (annotations: Record<string, string> = {}) => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name: 'ha', annotations },
});

function deployment(
  replicas: number | undefined,
  labels: Record<string, string> = {},
  annotations: Record<string, string> = {},
): KubernetesObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'app', namespace: 'ha', labels, annotations },
    spec: {
      ...(replicas === undefined ? {} : { replicas }),
      selector: { matchLabels: { app: 'a' } },
      template: { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'c' }] } },
    },
  } as KubernetesObject;
}

const req = (object: KubernetesObject, kind = 'Deployment', group = 'apps', version = 'v1'): AdmissionRequest => ({
  uid: '1',
  kind: { group, version, kind },
  resource: { group, version, resource: `${kind.toLowerCase()}s` },
  name: object.metadata?.name,
  namespace: 'ha',
  operation: 'CREATE',
  userInfo: {},
  object,
});

function run(object: KubernetesObject, input: Partial<HighAvailabilityInput> = {}, kind?: string, group?: string) {
  const result = highAvailabilityConfig(req(object, kind, group, kind === 'HorizontalPodAutoscaler' ? 'v2' : 'v1'), {
    namespace: ns(),
    ...input,
  });
  if (!result.allowed) throw new Error(`denied: ${result.message}`);
  return result.patched as any;
}

describe('high-availability-config: replicas', () => {
  it.each([
    // [failure tolerance type annotation (undefined: unset), component type, expected replicas] — the seed's table
    [undefined, 'controller', 2],
    ['', 'controller', 1],
    ['zone', 'controller', 2],
    [undefined, 'server', 2],
    ['', 'server', 2],
    ['node', 'server', 2],
  ])('failure tolerance %j, type %s → %i replicas', (ftt, type, expected) => {
    const namespace = ns(ftt === undefined ? {} : { [FTT]: ftt });
    expect(run(deployment(3, { [TYPE]: type }), { namespace }).spec.replicas).toBe(expected);
  });

  it('leaves the replicas of a resource without type label alone', () => {
    expect(run(deployment(3)).spec.replicas).toBe(3);
  });

  it('takes the replicas annotation as overwrite, and refuses a non-number', () => {
    expect(
      run(deployment(1, { [TYPE]: 'server' }, { 'high-availability-config.resources.gardener.cloud/replicas': '5' }))
        .spec.replicas,
    ).toBe(5);
    const bad = highAvailabilityConfig(
      req(
        deployment(1, { [TYPE]: 'server' }, { 'high-availability-config.resources.gardener.cloud/replicas': 'many' }),
      ),
      { namespace: ns() },
    );
    expect(bad.allowed).toBe(false);
  });

  it('does not scale up hibernated (0 replicas) resources', () => {
    expect(run(deployment(0, { [TYPE]: 'server' })).spec.replicas).toBe(0);
  });

  it('keeps a higher replica count of a horizontally scaled resource, raises a lower one', () => {
    expect(run(deployment(4, { [TYPE]: 'server' }), { scaledUpTo: 6 }).spec.replicas).toBe(4);
    expect(run(deployment(1, { [TYPE]: 'server' }), { scaledUpTo: 6 }).spec.replicas).toBe(2);
  });
});

describe('high-availability-config: scheduling', () => {
  it('pins to the zones when a failure tolerance type is set', () => {
    const out = run(deployment(2), { namespace: ns({ [FTT]: 'zone', [ZONES]: 'b,a,,a' }) });
    expect(
      out.spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms,
    ).toEqual([{ matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['a', 'b'] }] }]);
  });

  it('pins with zone-pinning=true, and not without it or a failure tolerance type', () => {
    expect(
      run(deployment(2), {
        namespace: ns({ [ZONES]: 'a', 'high-availability-config.resources.gardener.cloud/zone-pinning': 'true' }),
      }).spec.template.spec.affinity,
    ).toBeDefined();
    expect(run(deployment(2), { namespace: ns({ [ZONES]: 'a' }) }).spec.template.spec.affinity).toBeUndefined();
  });

  it('spreads over nodes (best effort) with one zone', () => {
    const out = run(deployment(2), { namespace: ns({ [ZONES]: 'a' }) });
    expect(out.spec.template.spec.topologySpreadConstraints).toEqual([
      {
        topologyKey: 'kubernetes.io/hostname',
        maxSkew: 1,
        whenUnsatisfiable: 'ScheduleAnyway',
        labelSelector: { matchLabels: { app: 'a' } },
      },
    ]);
  });

  it('spreads over zones with two or more zones; minDomains and maxSkew follow the replicas', () => {
    const out = run(deployment(3), { namespace: ns({ [ZONES]: 'a,b,c' }) });
    expect(out.spec.template.spec.topologySpreadConstraints[1]).toEqual({
      topologyKey: 'topology.kubernetes.io/zone',
      minDomains: 3,
      maxSkew: 1,
      whenUnsatisfiable: 'DoNotSchedule',
      labelSelector: { matchLabels: { app: 'a' } },
    });
    const two = run(deployment(2), { namespace: ns({ [ZONES]: 'a,b,c' }) }).spec.template.spec
      .topologySpreadConstraints[1];
    expect(two.minDomains).toBe(2);
    const many = run(deployment(5), { namespace: ns({ [ZONES]: 'a,b' }) }).spec.template.spec
      .topologySpreadConstraints[1];
    expect(many.maxSkew).toBe(2);
  });

  it('enforces the node spread when the failure tolerance type is non-empty', () => {
    const out = run(deployment(2), { namespace: ns({ [FTT]: 'node', [ZONES]: 'a' }) });
    expect(out.spec.template.spec.topologySpreadConstraints[0].whenUnsatisfiable).toBe('DoNotSchedule');
  });

  it('adds no spread constraints for a single replica', () => {
    expect(run(deployment(1)).spec.template.spec.topologySpreadConstraints).toBeUndefined();
  });

  it('adds the eviction tolerations from the configuration unless present', () => {
    const out = run(deployment(1), { defaultNotReadyTolerationSeconds: 60, defaultUnreachableTolerationSeconds: 90 });
    expect(out.spec.template.spec.tolerations).toEqual([
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 90 },
    ]);
    const own = deployment(1) as any;
    own.spec.template.spec.tolerations = [
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', tolerationSeconds: 5 },
    ];
    expect(run(own, { defaultNotReadyTolerationSeconds: 60 }).spec.template.spec.tolerations).toEqual([
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', tolerationSeconds: 5 },
    ]);
  });
});

describe('high-availability-config: HorizontalPodAutoscaler', () => {
  const hpa = (minReplicas: number | undefined, maxReplicas: number) =>
    ({
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'h', labels: { [TYPE]: 'server' } },
      spec: { scaleTargetRef: { kind: 'Deployment', name: 'app' }, minReplicas, maxReplicas },
    }) as KubernetesObject;

  it('raises minReplicas (and maxReplicas below it)', () => {
    expect(run(hpa(1, 1), {}, 'HorizontalPodAutoscaler', 'autoscaling').spec).toMatchObject({
      minReplicas: 2,
      maxReplicas: 2,
    });
    expect(run(hpa(3, 5), {}, 'HorizontalPodAutoscaler', 'autoscaling').spec).toMatchObject({
      minReplicas: 3,
      maxReplicas: 5,
    });
  });
});
