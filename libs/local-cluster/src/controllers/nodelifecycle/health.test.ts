import { describe, expect, it } from 'vitest';
import type { Lease, Node, Pod } from '../shared/kinds.js';
import { rfc3339 } from '../shared/time.js';
import {
  gracePeriodFor,
  lastHeardOf,
  lifecycleTaints,
  msUntilSilent,
  needsNoExecuteTaint,
  notReadyConditions,
  silentNodeConditions,
  TAINT_NOT_READY,
  TAINT_UNREACHABLE,
  withoutNoExecuteLifecycleTaints,
} from './health.js';

const T0 = Date.parse('2024-05-01T10:00:00Z');
const node = (ready: string | undefined, heartbeat = T0, taints: NonNullable<Node['spec']>['taints'] = []): Node => ({
  metadata: { name: 'n', creationTimestamp: rfc3339(T0 - 60_000) },
  spec: { taints },
  status: {
    conditions:
      ready === undefined
        ? []
        : [
            {
              type: 'Ready',
              status: ready,
              reason: 'KubeletReady',
              lastHeartbeatTime: rfc3339(heartbeat),
              lastTransitionTime: rfc3339(T0 - 30_000),
            },
          ],
  },
});
const lease = (renewed: number): Lease => ({
  metadata: { name: 'n', namespace: 'kube-node-lease' },
  spec: { renewTime: new Date(renewed).toISOString().replace('Z', '000Z') },
});

describe('lastHeardOf and msUntilSilent', () => {
  it('takes the later of the status heartbeat and the lease renewal', () => {
    expect(lastHeardOf(node('True'), lease(T0 + 5_500))).toBe(T0 + 5_500);
    expect(lastHeardOf(node('True', T0 + 9_000), lease(T0))).toBe(T0 + 9_000);
    expect(lastHeardOf(node('True'), undefined)).toBe(T0);
  });

  it('falls back to the creation time for a node that never posted Ready', () => {
    expect(lastHeardOf(node(undefined), undefined)).toBe(T0 - 60_000);
  });

  it('counts a node silent only past the grace period', () => {
    expect(msUntilSilent(node('True'), undefined, 40_000, T0 + 40_000)).toBe(1);
    expect(msUntilSilent(node('True'), undefined, 40_000, T0 + 40_001)).toBe(0);
    expect(msUntilSilent(node('True'), lease(T0 + 30_000), 40_000, T0 + 40_001)).toBe(30_000);
  });
});

describe('silentNodeConditions', () => {
  it('sets monitored conditions Unknown, keeps heartbeats and other conditions, adds missing ones as never updated', () => {
    const n = node('True');
    n.status!.conditions!.push(
      {
        type: 'MemoryPressure',
        status: 'False',
        reason: 'KubeletHasSufficientMemory',
        lastHeartbeatTime: rfc3339(T0),
        lastTransitionTime: rfc3339(T0),
      },
      {
        type: 'NetworkUnavailable',
        status: 'False',
        reason: 'RouteCreated',
        lastHeartbeatTime: rfc3339(T0),
        lastTransitionTime: rfc3339(T0),
      },
    );
    const now = T0 + 50_000;
    const conditions = silentNodeConditions(n, now)!;
    const byType = new Map(conditions.map((c) => [c.type, c]));
    expect(byType.get('Ready')).toEqual({
      type: 'Ready',
      status: 'Unknown',
      reason: 'NodeStatusUnknown',
      message: 'Kubelet stopped posting node status.',
      lastHeartbeatTime: rfc3339(T0),
      lastTransitionTime: rfc3339(now),
    });
    expect(byType.get('MemoryPressure')).toMatchObject({
      status: 'Unknown',
      reason: 'NodeStatusUnknown',
      lastHeartbeatTime: rfc3339(T0),
    });
    expect(byType.get('NetworkUnavailable')).toMatchObject({ status: 'False', reason: 'RouteCreated' });
    expect(byType.get('DiskPressure')).toMatchObject({
      status: 'Unknown',
      reason: 'NodeStatusNeverUpdated',
      message: 'Kubelet never posted node status.',
      lastHeartbeatTime: rfc3339(T0 - 60_000),
    });
    expect(byType.get('PIDPressure')).toMatchObject({ status: 'Unknown', reason: 'NodeStatusNeverUpdated' });
    expect(n.status!.conditions![0].status).toBe('True');
  });

  it('changes nothing on a node already Unknown', () => {
    const n = { ...node('True'), status: { conditions: silentNodeConditions(node('True'), T0 + 50_000) } };
    expect(silentNodeConditions(n, T0 + 90_000)).toBeUndefined();
  });
});

describe('gracePeriodFor', () => {
  it('gives a node that never posted Ready the startup grace, any other the monitor grace', () => {
    expect(gracePeriodFor(node(undefined), 40_000, 60_000)).toBe(60_000);
    expect(gracePeriodFor(node('True'), 40_000, 60_000)).toBe(40_000);
    expect(gracePeriodFor(node('Unknown'), 40_000, 60_000)).toBe(40_000);
  });
});

describe('lifecycleTaints', () => {
  const foreign = { key: 'example.com/dedicated', value: 'gpu', effect: 'NoSchedule' };

  it('taints an Unknown node unreachable with both effects, keeping foreign taints', () => {
    expect(lifecycleTaints(node('Unknown', T0, [foreign]), T0)).toEqual([
      foreign,
      { key: TAINT_UNREACHABLE, effect: 'NoSchedule', timeAdded: rfc3339(T0) },
      { key: TAINT_UNREACHABLE, effect: 'NoExecute', timeAdded: rfc3339(T0) },
    ]);
  });

  it('swaps unreachable for not-ready on a Ready False node, keeping taints already there as they are', () => {
    const old = { key: TAINT_UNREACHABLE, effect: 'NoExecute', timeAdded: rfc3339(T0 - 5_000) };
    const taints = lifecycleTaints(node('False', T0, [{ key: TAINT_NOT_READY, effect: 'NoSchedule' }, old]), T0);
    expect(taints).toEqual([
      { key: TAINT_NOT_READY, effect: 'NoSchedule' },
      { key: TAINT_NOT_READY, effect: 'NoExecute', timeAdded: rfc3339(T0) },
    ]);
    expect(lifecycleTaints(node('False', T0, taints), T0 + 1000)).toBeUndefined();
  });

  it('removes lifecycle taints from a Ready node and leaves a node without Ready condition alone', () => {
    expect(lifecycleTaints(node('True', T0, [{ key: TAINT_UNREACHABLE, effect: 'NoSchedule' }, foreign]), T0)).toEqual([
      foreign,
    ]);
    expect(lifecycleTaints(node('True', T0, [foreign]), T0)).toBeUndefined();
    expect(
      lifecycleTaints(node(undefined, T0, [{ key: TAINT_UNREACHABLE, effect: 'NoSchedule' }]), T0),
    ).toBeUndefined();
  });
});

describe('NoExecute taints through the zone queue', () => {
  const foreign = { key: 'example.com/maintenance', effect: 'NoExecute' };

  it('adds only NoSchedule when a first NoExecute taint must wait for the queue', () => {
    const n = node('Unknown', T0, [foreign]);
    expect(needsNoExecuteTaint(n)).toBe(true);
    expect(lifecycleTaints(n, T0, false)).toEqual([
      foreign,
      { key: TAINT_UNREACHABLE, effect: 'NoSchedule', timeAdded: rfc3339(T0) },
    ]);
  });

  it('swaps a NoExecute taint of the other key at once', () => {
    const n = node('False', T0, [
      { key: TAINT_UNREACHABLE, effect: 'NoSchedule' },
      { key: TAINT_UNREACHABLE, effect: 'NoExecute' },
    ]);
    expect(needsNoExecuteTaint(n)).toBe(true);
    expect(lifecycleTaints(n, T0, false)).toEqual([
      { key: TAINT_NOT_READY, effect: 'NoSchedule', timeAdded: rfc3339(T0) },
      { key: TAINT_NOT_READY, effect: 'NoExecute', timeAdded: rfc3339(T0) },
    ]);
  });

  it('needs no NoExecute taint on a Ready node, one without Ready condition, or one tainted already', () => {
    expect(needsNoExecuteTaint(node('True'))).toBe(false);
    expect(needsNoExecuteTaint(node(undefined))).toBe(false);
    expect(needsNoExecuteTaint(node('False', T0, [{ key: TAINT_NOT_READY, effect: 'NoExecute' }]))).toBe(false);
  });

  it('removes only the lifecycle NoExecute taints for master disruption', () => {
    const noSchedule = { key: TAINT_UNREACHABLE, effect: 'NoSchedule' };
    expect(
      withoutNoExecuteLifecycleTaints(
        node('Unknown', T0, [noSchedule, { key: TAINT_UNREACHABLE, effect: 'NoExecute' }, foreign]),
      ),
    ).toEqual([noSchedule, foreign]);
    expect(withoutNoExecuteLifecycleTaints(node('Unknown', T0, [noSchedule, foreign]))).toBeUndefined();
  });
});

describe('notReadyConditions', () => {
  const pod = (ready?: string): Pod => ({
    metadata: { name: 'p' },
    status: {
      conditions: [
        { type: 'ContainersReady', status: 'True', lastTransitionTime: rfc3339(T0 - 9_000) },
        ...(ready
          ? [
              {
                type: 'Ready',
                status: ready,
                reason: 'Kept',
                message: 'as written',
                lastTransitionTime: rfc3339(T0 - 9_000),
              },
            ]
          : []),
      ],
    },
  });

  it('sets only Ready to False, moving its transition time and keeping reason and message', () => {
    expect(notReadyConditions(pod('True'), T0)).toEqual([
      { type: 'ContainersReady', status: 'True', lastTransitionTime: rfc3339(T0 - 9_000) },
      { type: 'Ready', status: 'False', reason: 'Kept', message: 'as written', lastTransitionTime: rfc3339(T0) },
    ]);
    expect(notReadyConditions(pod('Unknown'), T0)?.[1]).toMatchObject({ status: 'False' });
  });

  it('leaves a pod alone that is not ready already or has no Ready condition', () => {
    expect(notReadyConditions(pod('False'), T0)).toBeUndefined();
    expect(notReadyConditions(pod(), T0)).toBeUndefined();
  });
});
