import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeShootStatus, orWorse, type ShootStatus } from './status.js';

const condition = (status: string) => ({ status });

describe('computeShootStatus', () => {
  it("follows Gardener's rules for new, created, deleted, processing and finished shoots", () => {
    expect(computeShootStatus({})).toBe('healthy');
    expect(computeShootStatus({ lastOperation: { type: 'Create', state: 'Processing' } })).toBe('healthy');
    expect(computeShootStatus({ lastOperation: { type: 'Create', state: 'Error' }, lastErrors: [{}] })).toBe(
      'unhealthy',
    );
    expect(
      computeShootStatus({ lastOperation: { type: 'Delete', state: 'Processing' }, conditions: [condition('False')] }),
    ).toBe('healthy');
    expect(
      computeShootStatus({
        lastOperation: { type: 'Reconcile', state: 'Succeeded' },
        conditions: [condition('True'), condition('Progressing')],
      }),
    ).toBe('progressing');
    expect(
      computeShootStatus({
        lastOperation: { type: 'Reconcile', state: 'Succeeded' },
        conditions: [condition('Unknown'), condition('Progressing')],
      }),
    ).toBe('unknown');
    expect(
      computeShootStatus({
        lastOperation: { type: 'Reconcile', state: 'Processing' },
        conditions: [condition('True')],
        lastErrors: [{}],
      }),
    ).toBe('unhealthy');
    expect(
      computeShootStatus({ lastOperation: { type: 'Reconcile', state: 'Failed' }, conditions: [condition('True')] }),
    ).toBe('unhealthy');
  });

  it('never reports a shoot better than its worst condition once reconciled (property)', () => {
    const statuses = ['True', 'False', 'Unknown', 'Progressing'];
    const asLabel: Record<string, ShootStatus> = {
      True: 'healthy',
      False: 'unhealthy',
      Unknown: 'unknown',
      Progressing: 'progressing',
    };
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...statuses), { maxLength: 6 }),
        fc.constantFrom('Succeeded', 'Processing', 'Failed'),
        (conds, state) => {
          const got = computeShootStatus({
            lastOperation: { type: 'Reconcile', state },
            conditions: conds.map(condition),
          });
          const worst = conds.map((c) => asLabel[c]!).reduce<ShootStatus>(orWorse, 'healthy');
          expect(orWorse(got, worst)).toBe(got);
        },
      ),
    );
  });
});
