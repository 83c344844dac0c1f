import { describe, expect, it } from 'vitest';
import {
  ConditionBuilder,
  buildConditions,
  conditionsNeedUpdate,
  failedCondition,
  getOrInitCondition,
  initCondition,
  mergeConditions,
  newConditionOrError,
  updatedCondition,
  updatedConditionUnknownError,
  type WallClock,
} from './index.js';

/** A wall clock that moves only when told to. */
function manualClock(start = '2026-01-01T00:00:00Z'): WallClock & { advance(ms: number): void } {
  let t = Date.parse(start);
  return { now: () => new Date(t), advance: (ms) => (t += ms) };
}

describe('condition timestamps', () => {
  it('initializes as Unknown with both timestamps now', () => {
    const clock = manualClock();
    expect(initCondition('APIServerAvailable', clock)).toEqual({
      type: 'APIServerAvailable',
      status: 'Unknown',
      lastTransitionTime: '2026-01-01T00:00:00Z',
      lastUpdateTime: '2026-01-01T00:00:00Z',
      reason: 'ConditionInitialized',
      message: 'The condition has been initialized but its semantic check has not been performed yet.',
    });
  });

  it('moves lastTransitionTime only on a status change and lastUpdateTime only on a reason, message or codes change', () => {
    const clock = manualClock();
    const c0 = updatedCondition(initCondition('Ready', clock), 'True', 'Healthy', 'all good', { clock });
    clock.advance(60_000);
    const sameAgain = updatedCondition(c0, 'True', 'Healthy', 'all good', { clock });
    expect(sameAgain).toEqual(c0);

    clock.advance(60_000);
    const newMessage = updatedCondition(c0, 'True', 'Healthy', 'still good', { clock });
    expect(newMessage.lastTransitionTime).toBe(c0.lastTransitionTime);
    expect(newMessage.lastUpdateTime).toBe('2026-01-01T00:02:00Z');

    clock.advance(60_000);
    const failed = updatedCondition(newMessage, 'False', 'Unhealthy', 'down', {
      clock,
      codes: ['ERR_INFRA_UNAUTHORIZED'],
    });
    expect(failed).toMatchObject({
      status: 'False',
      lastTransitionTime: '2026-01-01T00:03:00Z',
      lastUpdateTime: '2026-01-01T00:03:00Z',
      codes: ['ERR_INFRA_UNAUTHORIZED'],
    });

    clock.advance(60_000);
    const statusOnly = updatedCondition(failed, 'Progressing', 'Unhealthy', 'down', {
      clock,
      codes: ['ERR_INFRA_UNAUTHORIZED'],
    });
    expect(statusOnly.lastTransitionTime).toBe('2026-01-01T00:04:00Z');
    expect(statusOnly.lastUpdateTime).toBe(failed.lastUpdateTime);

    const codesCleared = updatedCondition(failed, 'False', 'Unhealthy', 'down', { clock });
    expect(codesCleared.codes).toBeUndefined();
    expect(codesCleared.lastUpdateTime).toBe('2026-01-01T00:04:00Z');
    expect(codesCleared.lastTransitionTime).toBe('2026-01-01T00:03:00Z');
  });

  it('builder keeps old reason and message when not given and reports whether anything changed', () => {
    const clock = manualClock();
    const old = updatedCondition(initCondition('Ready', clock), 'True', 'Healthy', 'ok', { clock });
    clock.advance(1000);
    const unchanged = new ConditionBuilder('Ready').withOldCondition(old).withClock(clock).build();
    expect(unchanged).toEqual({ condition: old, updated: false });
    const emptyReason = new ConditionBuilder('Ready').withOldCondition(old).withReason('').withClock(clock).build();
    expect(emptyReason.condition.reason).toBe('Unspecified');
    expect(emptyReason.updated).toBe(true);
    expect(() => new ConditionBuilder('')).toThrow(/type/);
  });

  it('reports a failed check as Unknown with ConditionCheckError', () => {
    const clock = manualClock();
    const c = initCondition('Ready', clock);
    expect(updatedConditionUnknownError(c, new Error('cannot list pods'), { clock })).toMatchObject({
      status: 'Unknown',
      reason: 'ConditionCheckError',
      message: 'cannot list pods',
    });
    const ok = updatedCondition(c, 'True', 'Fine', 'fine', { clock });
    expect(newConditionOrError(c, ok, undefined, clock)).toBe(ok);
    expect(newConditionOrError(c, undefined, undefined, clock).message).toBe('unknown');
  });
});

describe('condition lists', () => {
  it('merges by type in place, appends new types, removes and detects changes', () => {
    const clock = manualClock();
    const a = initCondition('A', clock);
    const b = initCondition('B', clock);
    const a2 = updatedCondition(a, 'True', 'R', 'M', { clock });
    const c = initCondition('C', clock);
    expect(mergeConditions([a, b], a2, c).map((x) => [x.type, x.status])).toEqual([
      ['A', 'True'],
      ['B', 'Unknown'],
      ['C', 'Unknown'],
    ]);
    expect(buildConditions([a, b], [c], ['A']).map((x) => x.type)).toEqual(['B', 'C']);
    expect(conditionsNeedUpdate([a, b], [a, b])).toBe(false);
    expect(conditionsNeedUpdate([a, b], [a2, b])).toBe(true);
    expect(conditionsNeedUpdate(undefined, [])).toBe(true);
    expect(getOrInitCondition([a2], 'A', clock)).toEqual(a2);
    expect(getOrInitCondition([a2], 'Z', clock).status).toBe('Unknown');
  });
});

describe('failedCondition thresholds', () => {
  const thresholds = { ControlPlaneHealthy: 60_000 };

  it('turns True into Progressing, stays Progressing within the threshold, then turns False', () => {
    const clock = manualClock();
    const healthy = updatedCondition(initCondition('ControlPlaneHealthy', clock), 'True', 'Healthy', 'ok', { clock });
    clock.advance(10_000);
    const p1 = failedCondition(healthy, 'DeploymentUnhealthy', 'kube-apiserver down', { thresholds, clock });
    expect(p1.status).toBe('Progressing');
    clock.advance(60_000);
    const p2 = failedCondition(p1, 'DeploymentUnhealthy', 'kube-apiserver down', { thresholds, clock });
    expect(p2.status).toBe('Progressing'); // exactly at the threshold: not longer than it
    expect(p2.lastTransitionTime).toBe(p1.lastTransitionTime);
    clock.advance(1000);
    expect(failedCondition(p2, 'DeploymentUnhealthy', 'kube-apiserver down', { thresholds, clock }).status).toBe(
      'False',
    );
  });

  it('turns False at once without a threshold for the type', () => {
    const clock = manualClock();
    const healthy = updatedCondition(initCondition('EveryNodeReady', clock), 'True', 'Healthy', 'ok', { clock });
    expect(failedCondition(healthy, 'NodeUnhealthy', 'node down', { thresholds, clock }).status).toBe('False');
  });

  it('goes from False back to Progressing on a new reason or a recently succeeded operation', () => {
    const clock = manualClock();
    const failed = updatedCondition(
      initCondition('ControlPlaneHealthy', clock),
      'False',
      'DeploymentUnhealthy',
      'down',
      { clock },
    );
    clock.advance(120_000);
    expect(failedCondition(failed, 'DeploymentUnhealthy', 'down', { thresholds, clock }).status).toBe('False');
    expect(failedCondition(failed, 'EtcdUnhealthy', 'etcd down', { thresholds, clock }).status).toBe('Progressing');
    const lastOperation = {
      state: 'Succeeded',
      lastUpdateTime: new Date(clock.now().getTime() - 30_000).toISOString(),
    };
    expect(failedCondition(failed, 'DeploymentUnhealthy', 'down', { thresholds, clock, lastOperation }).status).toBe(
      'Progressing',
    );
  });

  it('turns Unknown into False', () => {
    const clock = manualClock();
    expect(failedCondition(initCondition('ControlPlaneHealthy', clock), 'X', 'y', { thresholds, clock }).status).toBe(
      'False',
    );
  });
});
