import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Condition, WallClock } from '@gardener-ts/controller-runtime';
import { conditionFromResults, type CheckOutcome } from './result.js';

const at = (iso: string): WallClock => ({ now: () => new Date(iso) });
const T0 = '2026-01-01T10:00:00Z';

describe('conditionFromResults', () => {
  it('is True when every check passes', () => {
    const c = conditionFromResults(
      'ControlPlaneHealthy',
      undefined,
      [{ result: { status: 'True' } }, { result: { status: 'True' } }],
      at(T0),
    );
    expect(c).toMatchObject({ type: 'ControlPlaneHealthy', status: 'True', reason: 'HealthCheckSuccessful' });
  });

  it('reports the failing deployment and its codes', () => {
    const c = conditionFromResults(
      'ControlPlaneHealthy',
      undefined,
      [
        { result: { status: 'True' } },
        {
          result: {
            status: 'False',
            detail: 'deployment cloud-controller-manager is unhealthy',
            codes: ['ERR_CONFIGURATION_PROBLEM'],
          },
        },
      ],
      at(T0),
    );
    expect(c).toMatchObject({
      status: 'False',
      reason: 'HealthCheckUnsuccessful',
      message: 'deployment cloud-controller-manager is unhealthy',
      codes: ['ERR_CONFIGURATION_PROBLEM'],
    });
  });

  it('stays Progressing within the threshold and turns False after it', () => {
    const progressing: CheckOutcome = {
      result: { status: 'Progressing', detail: 'rolling out', progressingThresholdMs: 60_000 },
    };
    const first = conditionFromResults('ControlPlaneHealthy', undefined, [progressing], at(T0));
    expect(first.status).toBe('Progressing');
    const within = conditionFromResults('ControlPlaneHealthy', first, [progressing], at('2026-01-01T10:00:59Z'));
    expect(within.status).toBe('Progressing');
    const after = conditionFromResults('ControlPlaneHealthy', within, [progressing], at('2026-01-01T10:01:01Z'));
    expect(after.status).toBe('False');
  });

  it('is Unknown when a check could not run, whatever the others say', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('True', 'False', 'Progressing') as fc.Arbitrary<'True' | 'False' | 'Progressing'>),
        (statuses) => {
          const outcomes: CheckOutcome[] = [
            ...statuses.map((status) => ({ result: { status } })),
            { error: new Error('forbidden') },
          ];
          return conditionFromResults('X', undefined, outcomes, at(T0)).status === 'Unknown';
        },
      ),
    );
  });

  it('keeps lastTransitionTime while the status stays the same', () => {
    const old: Condition = {
      type: 'X',
      status: 'True',
      reason: 'HealthCheckSuccessful',
      message: 'All health checks successful',
      lastTransitionTime: T0,
      lastUpdateTime: T0,
    };
    const c = conditionFromResults('X', old, [{ result: { status: 'True' } }], at('2026-01-01T11:00:00Z'));
    expect(c.lastTransitionTime).toBe(T0);
  });
});
