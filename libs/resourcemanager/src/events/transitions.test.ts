import { describe, expect, it } from 'vitest';
import { conditionTransitions, publishTransitions } from './transitions.js';

describe('condition transitions', () => {
  it('reports status changes and new conditions, not reason-only changes', () => {
    const old = [
      { type: 'ResourcesApplied', status: 'Progressing', reason: 'ApplyProgressing' },
      { type: 'ResourcesHealthy', status: 'Unknown', reason: 'ChecksPending' },
    ];
    const next = [
      { type: 'ResourcesApplied', status: 'True', reason: 'ApplySucceeded', message: 'All resources are applied.' },
      { type: 'ResourcesHealthy', status: 'Unknown', reason: 'Other' },
      { type: 'ResourcesProgressing', status: 'False', reason: 'ResourcesRolledOut' },
    ];
    expect(conditionTransitions(old, next)).toEqual([
      {
        type: 'ResourcesApplied',
        oldStatus: 'CONDITION_STATUS_PROGRESSING',
        newStatus: 'CONDITION_STATUS_TRUE',
        reason: 'ApplySucceeded',
        message: 'All resources are applied.',
        codes: [],
      },
      {
        type: 'ResourcesProgressing',
        oldStatus: 'CONDITION_STATUS_UNSPECIFIED',
        newStatus: 'CONDITION_STATUS_FALSE',
        reason: 'ResourcesRolledOut',
        message: '',
        codes: [],
      },
    ]);
  });

  it('never throws into the caller, even if the sink does', () => {
    const sink = {
      conditionTransition: () => {
        throw new Error('nats down');
      },
    };
    expect(() =>
      publishTransitions(sink, { kind: 'ManagedResource', name: 'x' }, [], [{ type: 'A', status: 'True' }]),
    ).not.toThrow();
  });
});
