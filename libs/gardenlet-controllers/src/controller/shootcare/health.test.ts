import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { initCondition, updatedCondition, type Condition } from '@gardener-ts/controller-runtime';
import {
  checkAPIServerAvailability,
  checkControlPlane,
  checkManagedResource,
  checkNodes,
  checkObservabilityComponents,
  checkSystemComponents,
  conditionList,
  goDuration,
  hibernatedConditions,
  kubeletVersionMismatch,
  pardonConditions,
  requiredControlPlaneDeployments,
  shootConditions,
  apiServerDownConditions,
  type CheckContext,
  type DeploymentLike,
  type EtcdLike,
  type LeaseLike,
  type ManagedResourceLike,
  type NodeLike,
} from './health.js';

const T0 = Date.parse('2026-01-01T00:00:00Z');
function clockAt(ms = T0) {
  let now = ms;
  return { now: () => new Date(now), set: (t: number) => (now = t), advance: (d: number) => (now += d) };
}
const ctx = (thresholds: Record<string, number> = {}, clock = clockAt()): CheckContext => ({ clock, thresholds });
const healthy = (type: string, clock = clockAt()): Condition =>
  updatedCondition(initCondition(type, clock), 'True', 'Fine', 'fine', { clock });

const NS = 'shoot--local--local';
const deployment = (name: string, available = 'True'): DeploymentLike => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: NS, generation: 2 },
  spec: { replicas: 1 },
  status: {
    observedGeneration: 2,
    conditions: [
      { type: 'Available', status: available, reason: 'MinimumReplicasAvailable', message: 'has minimum availability' },
      { type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable', message: 'rolled out' },
    ],
  },
});
const etcd = (name: string, ready = true): EtcdLike => ({
  apiVersion: 'druid.gardener.cloud/v1alpha1',
  kind: 'Etcd',
  metadata: { name, namespace: NS },
  status: { ready },
});
const mr = (
  name: string,
  conditions: [string, string, string?][],
  extra: Partial<ManagedResourceLike> = {},
): ManagedResourceLike => ({
  apiVersion: 'resources.gardener.cloud/v1alpha1',
  kind: 'ManagedResource',
  metadata: { name, namespace: NS, generation: 1 },
  spec: { class: 'seed' },
  status: {
    observedGeneration: 1,
    conditions: conditions.map(([type, status, lastTransitionTime]) => ({
      type,
      status,
      reason: `${type}Reason`,
      message: `${type} of ${name}`,
      lastTransitionTime: lastTransitionTime ?? '2026-01-01T00:00:00Z',
    })),
  },
  ...extra,
});
const goodMR: [string, string][] = [
  ['ResourcesApplied', 'True'],
  ['ResourcesHealthy', 'True'],
  ['ResourcesProgressing', 'False'],
];
const controlPlane = ['gardener-resource-manager', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler'].map(
  (n) => deployment(n),
);
const etcds = [etcd('etcd-main'), etcd('etcd-events')];

describe('APIServerAvailable', () => {
  it('is True when /healthz answers 200', () => {
    const c = checkAPIServerAvailability(ctx(), healthy('APIServerAvailable'), { statusCode: 200, body: 'ok' });
    expect(c).toMatchObject({
      status: 'True',
      reason: 'HealthzRequestSucceeded',
      message: 'API server /healthz endpoint responded with success status code.',
    });
  });

  it('reports a failed request and a non-200 answer with Gardener reasons', () => {
    expect(
      checkAPIServerAvailability(ctx(), healthy('APIServerAvailable'), { error: 'connect ECONNREFUSED 127.0.0.1:1' }),
    ).toMatchObject({
      status: 'False',
      reason: 'HealthzRequestFailed',
      message: 'Request to API server /healthz endpoint failed. (connect ECONNREFUSED 127.0.0.1:1)',
    });
    expect(
      checkAPIServerAvailability(ctx({ APIServerAvailable: 60_000 }), healthy('APIServerAvailable'), {
        statusCode: 500,
        body: '[-]etcd failed',
      }),
    ).toMatchObject({
      status: 'Progressing',
      reason: 'HealthzRequestError',
      message: 'API server /healthz endpoint check returned a non ok status code 500. ([-]etcd failed)',
    });
  });
});

describe('ControlPlaneHealthy', () => {
  const input = (over: Partial<Parameters<typeof checkControlPlane>[2]> = {}) => ({
    deployments: controlPlane,
    etcds,
    managedResources: [],
    extensionConditions: [],
    workerless: false,
    ...over,
  });

  it('is True when every required Etcd and Deployment is there and healthy', () => {
    expect(checkControlPlane(ctx(), healthy('ControlPlaneHealthy'), input())).toMatchObject({
      status: 'True',
      reason: 'ControlPlaneRunning',
      message: 'All control plane components are healthy.',
    });
  });

  it('names the missing Etcds and Deployments', () => {
    expect(checkControlPlane(ctx(), healthy('ControlPlaneHealthy'), input({ etcds: [etcds[0]!] }))).toMatchObject({
      status: 'False',
      reason: 'EtcdMissing',
      message: 'Missing required etcds: [etcd-events]',
    });
    const onlyAPIServer = input({ deployments: [deployment('kube-apiserver')] });
    expect(checkControlPlane(ctx(), healthy('ControlPlaneHealthy'), onlyAPIServer)).toMatchObject({
      reason: 'DeploymentMissing',
      message: 'Missing required deployments: [gardener-resource-manager kube-controller-manager kube-scheduler]',
    });
  });

  it('does not require kube-scheduler for a workerless shoot', () => {
    expect(requiredControlPlaneDeployments(true)).toEqual([
      'gardener-resource-manager',
      'kube-apiserver',
      'kube-controller-manager',
    ]);
    const withoutScheduler = controlPlane.filter((d) => d.metadata?.name !== 'kube-scheduler');
    expect(
      checkControlPlane(
        ctx(),
        healthy('ControlPlaneHealthy'),
        input({ deployments: withoutScheduler, workerless: true }),
      ).status,
    ).toBe('True');
  });

  it('reports an Etcd that is not ready and an unavailable Deployment', () => {
    expect(
      checkControlPlane(ctx(), healthy('ControlPlaneHealthy'), input({ etcds: [etcd('etcd-main', false), etcds[1]!] })),
    ).toMatchObject({
      reason: 'EtcdUnhealthy',
      message: 'Etcd extension resource "etcd-main" is unhealthy: etcd "etcd-main" is not ready yet',
    });
    const down = controlPlane.map((d) =>
      d.metadata?.name === 'kube-apiserver' ? deployment('kube-apiserver', 'False') : d,
    );
    expect(checkControlPlane(ctx(), healthy('ControlPlaneHealthy'), input({ deployments: down }))).toMatchObject({
      reason: 'DeploymentUnhealthy',
      message:
        'Deployment "kube-apiserver" is unhealthy: condition "Available" has invalid status False (expected True) due to MinimumReplicasAvailable: has minimum availability',
    });
  });

  it('checks only the seed-side ManagedResources', () => {
    const broken = mr('kube-apiserver-rbac', [['ResourcesApplied', 'False'], ...goodMR.slice(1)]);
    expect(
      checkControlPlane(ctx(), healthy('ControlPlaneHealthy'), input({ managedResources: [broken] })),
    ).toMatchObject({ reason: 'ResourcesAppliedReason', message: 'ResourcesApplied of kube-apiserver-rbac' });
    const shootSide = { ...broken, spec: {} };
    expect(
      checkControlPlane(ctx(), healthy('ControlPlaneHealthy'), input({ managedResources: [shootSide] })).status,
    ).toBe('True');
  });

  it('takes an extension report first and tells a stale report apart', () => {
    const clock = clockAt();
    const report = {
      condition: {
        type: 'ControlPlaneHealthy',
        status: 'False',
        message: 'machine-controller down',
        codes: ['ERR_INFRA_QUOTA_EXCEEDED'],
      },
      extensionType: 'ControlPlane',
      extensionName: 'local',
      extensionNamespace: NS,
      lastHeartbeatTime: new Date(T0 - 30_000).toISOString(),
    };
    expect(
      checkControlPlane(
        ctx({}, clock),
        healthy('ControlPlaneHealthy', clock),
        input({
          extensionConditions: [report],
          staleThresholdMs: 300_000,
        }),
      ),
    ).toMatchObject({
      status: 'False',
      reason: 'ControlPlaneUnhealthyReport',
      message: `ControlPlane extension (${NS}/local) reports failing health check: machine-controller down`,
      codes: ['ERR_INFRA_QUOTA_EXCEEDED'],
    });
    const stale = { ...report, lastHeartbeatTime: new Date(T0 - 10 * 60_000).toISOString() };
    const c = checkControlPlane(
      ctx({}, clock),
      healthy('ControlPlaneHealthy', clock),
      input({
        extensionConditions: [stale],
        staleThresholdMs: 300_000,
      }),
    );
    expect(c).toMatchObject({ status: 'Unknown', reason: 'ControlPlaneOutdatedHealthCheckReport' });
    expect(c.message).toContain('reports an outdated health status (last updated: 10m0s ago');
  });
});

describe('ManagedResource checks', () => {
  const c = () => healthy('SystemComponentsHealthy');

  it('accepts a rollout in progress until the progressing threshold, then reports it stuck', () => {
    const clock = clockAt(T0 + 60_000);
    const progressing = mr('shoot-core', [
      goodMR[0]!,
      goodMR[1]!,
      ['ResourcesProgressing', 'True', '2026-01-01T00:00:00Z'],
    ]);
    expect(checkManagedResource(ctx({}, clock), c(), progressing, 120_000)).toBeUndefined();
    clock.set(T0 + 121_000);
    expect(checkManagedResource(ctx({}, clock), c(), progressing, 120_000)).toMatchObject({
      reason: 'ProgressingRolloutStuck',
      message: 'ManagedResource shoot-core is progressing for more than 2m0s',
    });
    expect(checkManagedResource(ctx({}, clock), c(), progressing, undefined)?.reason).toBe(
      'ResourcesProgressingReason',
    );
  });

  it('reports an outdated status, a failed apply and missing conditions', () => {
    const outdated = mr('shoot-core', goodMR, { metadata: { name: 'shoot-core', namespace: NS, generation: 3 } });
    expect(checkManagedResource(ctx(), c(), outdated, undefined)).toMatchObject({
      reason: 'OutdatedStatus',
      message: `observed generation of managed resource '${NS}/shoot-core' outdated (1/3)`,
    });
    const applyFailed: ManagedResourceLike = {
      ...outdated,
      status: {
        observedGeneration: 1,
        conditions: [{ type: 'ResourcesApplied', status: 'False', reason: 'ApplyFailed', message: 'forbidden' }],
      },
    };
    expect(checkManagedResource(ctx(), c(), applyFailed, undefined)).toMatchObject({
      reason: 'ApplyFailed',
      message: 'forbidden',
    });
    expect(checkManagedResource(ctx(), c(), mr('shoot-core', [goodMR[0]!]), undefined)).toMatchObject({
      reason: 'MissingManagedResourceCondition',
      message:
        'ManagedResource shoot-core is missing the following condition(s), [ResourcesHealthy ResourcesProgressing]',
    });
  });

  it('routes ManagedResources by class and care label', () => {
    const shootSide = mr('shoot-core', [['ResourcesHealthy', 'False'], goodMR[0]!, goodMR[2]!], { spec: {} });
    const input = { managedResources: [shootSide], extensionConditions: [] };
    expect(checkSystemComponents(ctx(), c(), input).status).toBe('False');
    expect(checkObservabilityComponents(ctx(), healthy('ObservabilityComponentsHealthy'), input)).toMatchObject({
      status: 'True',
      reason: 'ObservabilityComponentsRunning',
    });
    const labelled = {
      ...shootSide,
      metadata: {
        ...shootSide.metadata,
        labels: { 'care.gardener.cloud/condition-type': 'ObservabilityComponentsHealthy' },
      },
    };
    expect(
      checkObservabilityComponents(ctx(), healthy('ObservabilityComponentsHealthy'), {
        managedResources: [labelled],
        extensionConditions: [],
      }).status,
    ).toBe('False');
  });
});

describe('EveryNodeReady', () => {
  const pools = [{ name: 'local', minimum: 1, kubernetesVersion: '1.33.1' }];
  const node = (name: string, over: Partial<NodeLike['status']> = {}): NodeLike => ({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'worker.gardener.cloud/pool': 'local' } },
    status: {
      conditions: [
        { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' },
        { type: 'MemoryPressure', status: 'False', reason: 'KubeletHasSufficientMemory', message: 'ok' },
      ],
      nodeInfo: { kubeletVersion: 'v1.33.1' },
      ...over,
    },
  });
  const lease = (nodeName: string, renewTime = new Date(T0 - 10_000).toISOString()): LeaseLike => ({
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name: `gardener-node-agent-${nodeName}`, namespace: 'kube-system' },
    spec: { renewTime, leaseDurationSeconds: 40 },
  });

  it('reports a shoot with workers but no nodes yet as missing nodes', () => {
    expect(
      checkNodes(ctx(), healthy('EveryNodeReady'), { pools, nodes: [], leases: [], extensionConditions: [] }),
    ).toMatchObject({
      status: 'False',
      reason: 'MissingNodes',
      message:
        'Not enough worker nodes registered in worker pool "local" to meet minimum desired machine count. (0/1).',
    });
  });

  it('is True for ready nodes with their node-agent running', () => {
    expect(
      checkNodes(ctx(), healthy('EveryNodeReady'), {
        pools,
        nodes: [node('machine-0')],
        leases: [lease('machine-0')],
        extensionConditions: [],
      }),
    ).toMatchObject({ status: 'True', reason: 'EveryNodeReady', message: 'All nodes are ready.' });
  });

  it('reports an unhealthy node, with ERR_CONFIGURATION_PROBLEM for kubelet pressure', () => {
    const pressured = node('machine-0', {
      conditions: [
        { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'ready' },
        { type: 'MemoryPressure', status: 'True', reason: 'KubeletHasInsufficientMemory', message: 'low memory' },
      ],
    });
    expect(
      checkNodes(ctx(), healthy('EveryNodeReady'), { pools, nodes: [pressured], leases: [], extensionConditions: [] }),
    ).toMatchObject({
      reason: 'NodeUnhealthy',
      message:
        'Node "machine-0" in worker group "local" is unhealthy: condition "MemoryPressure" has invalid status True (expected False) due to KubeletHasInsufficientMemory: low memory',
      codes: ['ERR_CONFIGURATION_PROBLEM'],
    });
  });

  it('reports a missing or stopped node-agent and an old kubelet', () => {
    const nodes = [node('machine-0')];
    expect(
      checkNodes(ctx(), healthy('EveryNodeReady'), { pools, nodes, leases: [], extensionConditions: [] }),
    ).toMatchObject({
      reason: 'NodeAgentUnhealthy',
      message: 'gardener-node-agent is not running on node "machine-0"',
    });
    const old = lease('machine-0', new Date(T0 - 41_000).toISOString());
    expect(
      checkNodes(ctx(), healthy('EveryNodeReady'), { pools, nodes, leases: [old], extensionConditions: [] }).message,
    ).toBe('gardener-node-agent stopped running on node "machine-0"');
    const oldKubelet = node('machine-0', { nodeInfo: { kubeletVersion: 'v1.33.0' } });
    expect(
      checkNodes(ctx(), healthy('EveryNodeReady'), { pools, nodes: [oldKubelet], leases: [], extensionConditions: [] }),
    ).toMatchObject({ reason: 'KubeletVersionMismatch' });
  });

  it('compares kubelet versions as Gardener does (same minor, older patch)', () => {
    expect(kubeletVersionMismatch('v1.33.0', '1.33.1')).toBe(true);
    expect(kubeletVersionMismatch('v1.33.2', '1.33.1')).toBe(false);
    expect(kubeletVersionMismatch('v1.32.9', '1.33.1')).toBe(false);
    expect(kubeletVersionMismatch('v1.33.1', '1.33.1')).toBe(false);
  });
});

describe('shoot states', () => {
  it('reports every condition True and not checked while hibernated', () => {
    const clock = clockAt();
    const list = conditionList(shootConditions(undefined, false, clock));
    expect(list.map((c) => c.type)).toEqual([
      'APIServerAvailable',
      'ControlPlaneHealthy',
      'ObservabilityComponentsHealthy',
      'EveryNodeReady',
      'SystemComponentsHealthy',
    ]);
    expect(
      hibernatedConditions(list, clock).every((c) => c.status === 'True' && c.reason === 'ConditionNotChecked'),
    ).toBe(true);
    expect(conditionList(shootConditions(undefined, true, clock)).map((c) => c.type)).not.toContain('EveryNodeReady');
  });

  it('reports the API server down and the shoot-side checks Unknown while the control plane is not running', () => {
    const clock = clockAt();
    const c = shootConditions(undefined, false, clock);
    const down = apiServerDownConditions(ctx({}, clock), c, { type: 'Create', state: 'Processing' }, undefined);
    expect(down.apiServerAvailable).toMatchObject({ status: 'False', reason: 'APIServerDown' });
    expect(down.everyNodeReady).toMatchObject({
      status: 'Unknown',
      reason: 'ConditionCheckError',
      message: 'Shoot control plane has not been fully created yet.',
    });
  });

  it('pardons failures while the shoot is created or deleted, not after a successful reconcile', () => {
    const clock = clockAt();
    const failed = updatedCondition(initCondition('ControlPlaneHealthy', clock), 'False', 'EtcdMissing', 'x', {
      clock,
    });
    expect(pardonConditions([failed], { type: 'Create', state: 'Processing' }, undefined, clock)[0]!.status).toBe(
      'Progressing',
    );
    expect(pardonConditions([failed], { type: 'Delete', state: 'Error' }, [{}], clock)[0]!.status).toBe('Progressing');
    expect(pardonConditions([failed], undefined, undefined, clock)[0]!.status).toBe('Progressing');
    expect(pardonConditions([failed], { type: 'Reconcile', state: 'Succeeded' }, undefined, clock)[0]!.status).toBe(
      'False',
    );
    expect(pardonConditions([failed], { type: 'Reconcile', state: 'Processing' }, [{}], clock)[0]!.status).toBe(
      'False',
    );
  });

  it('formats durations as Go does', () => {
    expect([goDuration(300_000), goDuration(30_000), goDuration(5_400_000)]).toEqual(['5m0s', '30s', '1h30m0s']);
  });
});

describe('condition thresholds (property)', () => {
  it('a healthy condition turns False only once a failure has lasted longer than its threshold', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 300 }),
        fc.array(fc.record({ ok: fc.boolean(), dt: fc.integer({ min: 0, max: 120 }) }), {
          minLength: 1,
          maxLength: 30,
        }),
        (thresholdSeconds, steps) => {
          const clock = clockAt();
          const threshold = thresholdSeconds * 1000;
          const context = ctx({ SystemComponentsHealthy: threshold }, clock);
          let condition = healthy('SystemComponentsHealthy', clock);
          let failingSince: number | undefined;
          const broken = mr('shoot-core', [['ResourcesHealthy', 'False'], goodMR[0]!, goodMR[2]!], { spec: {} });
          for (const step of steps) {
            clock.advance(step.dt * 1000);
            const now = clock.now().getTime();
            const input = { managedResources: step.ok ? [] : [broken], extensionConditions: [] };
            condition = checkSystemComponents(context, condition, input);
            if (step.ok) {
              failingSince = undefined;
              expect(condition.status).toBe('True');
              continue;
            }
            failingSince ??= now;
            if (condition.status === 'False') expect(now - failingSince).toBeGreaterThan(threshold);
            else {
              expect(condition.status).toBe('Progressing');
              expect(now - failingSince).toBeLessThanOrEqual(threshold);
            }
          }
        },
      ),
    );
  });

  it('without a threshold a failure is False at once', () => {
    fc.assert(
      fc.property(fc.constantFrom('True', 'Unknown', 'Progressing', 'False'), (status) => {
        const clock = clockAt();
        const old = updatedCondition(initCondition('EveryNodeReady', clock), status as Condition['status'], 'R', 'm', {
          clock,
        });
        expect(
          checkNodes(ctx({}, clock), old, {
            pools: [{ name: 'a', minimum: 1, kubernetesVersion: '1.33.1' }],
            nodes: [],
            leases: [],
            extensionConditions: [],
          }).status,
        ).toBe('False');
      }),
    );
  });
});
