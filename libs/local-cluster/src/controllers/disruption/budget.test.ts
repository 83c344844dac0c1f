import { describe, expect, it } from 'vitest';
import type { Pod, PodDisruptionBudget } from '../shared/kinds.js';
import { rfc3339 } from '../shared/time.js';
import {
  budgetStatus,
  countHealthy,
  DELETION_TIMEOUT_MS,
  disruptedPods,
  disruptionsAllowed,
  expectedAndDesired,
  failSafeStatus,
  scaledUp,
} from './budget.js';

const T0 = Date.parse('2024-05-01T10:00:00Z');
type Spec = NonNullable<PodDisruptionBudget['spec']>;

const pod = (name: string, ready: boolean, deleting = false): Pod => ({
  metadata: { name, namespace: 'default', ...(deleting ? { deletionTimestamp: rfc3339(T0) } : {}) },
  status: { phase: 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
});

describe('scaledUp', () => {
  it.each([
    [2, 10, 2],
    ['50%', 3, 2],
    ['50%', 4, 2],
    ['34%', 3, 2],
    ['33%', 3, 1],
    ['1%', 1, 1],
    ['0%', 5, 0],
    ['100%', 7, 7],
    ['10%', 0, 0],
  ] as const)('%s of %i is %i', (value, total, want) => {
    expect(scaledUp(value, total)).toBe(want);
  });

  it('rejects a string that is not a percentage', () => {
    expect(() => scaledUp('5', 10)).toThrow(/not a percentage/);
  });
});

describe('expectedAndDesired', () => {
  const scale5 = () => 5;
  const noScale = () => {
    throw new Error('scale must not be read');
  };
  it.each<[string, Spec, number, () => number, number, number]>([
    ['minAvailable int: every selected pod expected', { minAvailable: 2 }, 3, noScale, 3, 2],
    ['minAvailable int above the pods', { minAvailable: 4 }, 3, noScale, 3, 4],
    ['minAvailable percent rounds up', { minAvailable: '50%' }, 3, scale5, 5, 3],
    ['minAvailable 100%', { minAvailable: '100%' }, 3, scale5, 5, 5],
    ['maxUnavailable int', { maxUnavailable: 1 }, 3, scale5, 5, 4],
    ['maxUnavailable percent rounds up', { maxUnavailable: '30%' }, 3, scale5, 5, 3],
    ['maxUnavailable above the scale: desired 0', { maxUnavailable: 7 }, 3, scale5, 5, 0],
    ['maxUnavailable 0%', { maxUnavailable: '0%' }, 3, scale5, 5, 5],
    ['neither field', {}, 3, noScale, 0, 0],
  ])('%s', (_name, spec, selected, scale, expectedPods, desiredHealthy) => {
    expect(expectedAndDesired(spec, selected, scale)).toEqual({ expectedPods, desiredHealthy });
  });

  it('passes on the error of a pod without known controller', () => {
    expect(() =>
      expectedAndDesired({ maxUnavailable: 1 }, 1, () => {
        throw new Error('found no controllers for pod "p"');
      }),
    ).toThrow('found no controllers for pod "p"');
  });
});

describe('disruptionsAllowed', () => {
  it.each([
    [3, 2, 3, 1],
    [2, 2, 3, 0],
    [1, 2, 3, 0],
    [3, 0, 0, 0],
    [5, 2, 5, 3],
  ])('healthy %i desired %i expected %i allows %i', (healthy, desired, expected, want) => {
    expect(disruptionsAllowed(healthy, desired, expected)).toBe(want);
  });
});

describe('disrupted pods and healthy count', () => {
  it('keeps recent entries of selected pods, drops expired, deleted and unknown ones, and rechecks at the first expiry', () => {
    const pods = [pod('a', true), pod('b', true), pod('c', true, true), pod('d', true)];
    const recorded = {
      a: rfc3339(T0 - 30_000),
      b: rfc3339(T0 - DELETION_TIMEOUT_MS - 1000),
      c: rfc3339(T0),
      gone: rfc3339(T0),
      d: rfc3339(T0 - 10_000),
    };
    const result = disruptedPods(recorded, pods, T0);
    expect(result.active).toEqual({ a: recorded.a, d: recorded.d });
    expect(result.expired.map((p) => p.metadata?.name)).toEqual(['b']);
    expect(result.recheckAt).toBe(T0 - 30_000 + DELETION_TIMEOUT_MS);
  });

  it('counts ready pods that are neither being deleted nor recently disrupted', () => {
    const pods = [pod('a', true), pod('b', true), pod('c', true, true), pod('d', false), pod('e', true)];
    expect(countHealthy(pods, {}, T0)).toBe(3);
    expect(countHealthy(pods, { a: rfc3339(T0 - 1000) }, T0)).toBe(2);
  });
});

describe('budgetStatus and failSafeStatus', () => {
  const pdb = (status?: PodDisruptionBudget['status']): PodDisruptionBudget => ({
    metadata: { name: 'b', namespace: 'default', generation: 3 },
    spec: { minAvailable: 2 },
    status,
  });

  it('writes the counts, observedGeneration and DisruptionAllowed True with SufficientPods', () => {
    const status = budgetStatus(
      pdb(),
      { expectedPods: 3, desiredHealthy: 2, currentHealthy: 3, disruptedPods: {} },
      T0,
    )!;
    expect(status).toEqual({
      currentHealthy: 3,
      desiredHealthy: 2,
      expectedPods: 3,
      disruptionsAllowed: 1,
      observedGeneration: 3,
      conditions: [
        {
          type: 'DisruptionAllowed',
          status: 'True',
          reason: 'SufficientPods',
          message: '',
          observedGeneration: 3,
          lastTransitionTime: rfc3339(T0),
        },
      ],
    });
    expect(
      budgetStatus(
        pdb(status),
        { expectedPods: 3, desiredHealthy: 2, currentHealthy: 3, disruptedPods: {} },
        T0 + 5000,
      ),
    ).toBeUndefined();
  });

  it('turns the condition False with InsufficientPods, moving lastTransitionTime only on a change of status', () => {
    const allowed = budgetStatus(
      pdb(),
      { expectedPods: 3, desiredHealthy: 2, currentHealthy: 3, disruptedPods: {} },
      T0,
    )!;
    const blocked = budgetStatus(
      pdb(allowed),
      { expectedPods: 3, desiredHealthy: 2, currentHealthy: 2, disruptedPods: {} },
      T0 + 1000,
    )!;
    expect(blocked.disruptionsAllowed).toBe(0);
    expect(blocked.conditions).toEqual([
      {
        type: 'DisruptionAllowed',
        status: 'False',
        reason: 'InsufficientPods',
        message: '',
        observedGeneration: 3,
        lastTransitionTime: rfc3339(T0 + 1000),
      },
    ]);
    const fewer = budgetStatus(
      pdb(blocked),
      { expectedPods: 3, desiredHealthy: 2, currentHealthy: 1, disruptedPods: {} },
      T0 + 2000,
    )!;
    expect(fewer.conditions![0].lastTransitionTime).toBe(rfc3339(T0 + 1000));
  });

  it('fails safe: no disruptions, SyncFailed with the error, observedGeneration kept', () => {
    const allowed = budgetStatus(
      pdb(),
      { expectedPods: 3, desiredHealthy: 2, currentHealthy: 3, disruptedPods: {} },
      T0,
    )!;
    const failed = failSafeStatus(
      { ...pdb(allowed), metadata: { name: 'b', generation: 4 } },
      'found no controllers for pod "x"',
      T0 + 1000,
    )!;
    expect(failed).toMatchObject({ disruptionsAllowed: 0, currentHealthy: 3, observedGeneration: 3 });
    expect(failed.conditions).toEqual([
      {
        type: 'DisruptionAllowed',
        status: 'False',
        reason: 'SyncFailed',
        message: 'found no controllers for pod "x"',
        observedGeneration: 3,
        lastTransitionTime: rfc3339(T0 + 1000),
      },
    ]);
    expect(failSafeStatus(pdb(failed), 'found no controllers for pod "x"', T0 + 2000)).toBeUndefined();
  });
});
