import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planRollingUpdate, resolveFenceposts, type MachineSetCounts, type RollingUpdateInput } from './rolling.js';

const intOrPercent = fc.oneof(fc.integer({ min: 0, max: 5 }), fc.constantFrom('0%', '25%', '50%', '100%'));
const setArb = (name: string) =>
  fc
    .record({ replicas: fc.integer({ min: 0, max: 8 }), unavailable: fc.integer({ min: 0, max: 8 }) })
    .map(({ replicas, unavailable }): MachineSetCounts => ({
      name,
      replicas,
      available: Math.max(0, replicas - unavailable),
    }));

const inputArb: fc.Arbitrary<RollingUpdateInput> = fc.record({
  replicas: fc.integer({ min: 0, max: 10 }),
  maxSurge: intOrPercent,
  maxUnavailable: intOrPercent,
  newSet: setArb('new'),
  oldSets: fc
    .integer({ min: 0, max: 3 })
    .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => setArb(`old-${i}`)))),
});

/** Replicas of every set after the plan. */
function after(input: RollingUpdateInput) {
  const plan = planRollingUpdate(input);
  return {
    plan,
    newReplicas: plan.newReplicas,
    old: input.oldSets.map((s) => ({ ...s, next: plan.oldReplicas[s.name] ?? s.replicas })),
  };
}

describe('resolveFenceposts', () => {
  it('rounds maxSurge up and maxUnavailable down, and never lets both be 0', () => {
    expect(resolveFenceposts('25%', '25%', 3)).toEqual({ surge: 1, unavailable: 0 });
    expect(resolveFenceposts(0, 0, 5)).toEqual({ surge: 0, unavailable: 1 });
    expect(resolveFenceposts(undefined, undefined, 4)).toEqual({ surge: 1, unavailable: 1 });
    expect(() => resolveFenceposts('a lot', 0, 1)).toThrow('invalid value "a lot"');
  });
});

describe('planRollingUpdate', () => {
  it('never creates more machines than replicas + maxSurge (or what there is already)', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const { surge } = resolveFenceposts(input.maxSurge, input.maxUnavailable, input.replicas);
        const { newReplicas, old } = after(input);
        const before = input.newSet.replicas + input.oldSets.reduce((n, s) => n + s.replicas, 0);
        const total = newReplicas + old.reduce((n, s) => n + s.next, 0);
        expect(total).toBeLessThanOrEqual(Math.max(before, input.replicas + surge));
        expect(newReplicas).toBeLessThanOrEqual(Math.max(input.replicas, 0));
        for (const s of old) expect(s.next).toBeLessThanOrEqual(s.replicas);
        for (const s of old) expect(s.next).toBeGreaterThanOrEqual(0);
      }),
    );
  });

  it('keeps replicas - maxUnavailable machines available (when that many are), removing unavailable ones first', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const { unavailable } = resolveFenceposts(input.maxSurge, input.maxUnavailable, input.replicas);
        const { old } = after(input);
        const availableBefore = input.newSet.available + input.oldSets.reduce((n, s) => n + s.available, 0);
        // A MachineSet that shrinks deletes its unavailable machines first.
        const availableAfter = input.newSet.available + old.reduce((n, s) => n + Math.min(s.available, s.next), 0);
        expect(availableAfter).toBeGreaterThanOrEqual(Math.min(availableBefore, input.replicas - unavailable));
      }),
    );
  });

  it('converges: with machines becoming available, the new set reaches replicas and old sets reach zero', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        let state = structuredClone(input);
        for (let step = 0; step < 100; step++) {
          const plan = planRollingUpdate(state);
          // The world: every machine the plan keeps or creates becomes available before the next step.
          state = {
            ...state,
            newSet: { ...state.newSet, replicas: plan.newReplicas, available: plan.newReplicas },
            oldSets: state.oldSets.map((s) => {
              const next = plan.oldReplicas[s.name] ?? s.replicas;
              return { ...s, replicas: next, available: next };
            }),
          };
        }
        expect(state.newSet.replicas).toBe(input.replicas);
        for (const s of state.oldSets) expect(s.replicas).toBe(0);
      }),
    );
  });

  it('rolls one machine at a time with maxSurge 1, maxUnavailable 0 (Gardener’s default for worker pools)', () => {
    const input = {
      replicas: 2,
      maxSurge: 1,
      maxUnavailable: 0,
      newSet: { name: 'new', replicas: 0, available: 0 },
      oldSets: [{ name: 'old', replicas: 2, available: 2 }],
    };
    expect(planRollingUpdate(input)).toEqual({ newReplicas: 1, oldReplicas: {} });
    // The new machine is not ready yet: nothing more happens.
    expect(planRollingUpdate({ ...input, newSet: { name: 'new', replicas: 1, available: 0 } })).toEqual({
      newReplicas: 1,
      oldReplicas: {},
    });
    // It is ready: one old machine goes.
    expect(planRollingUpdate({ ...input, newSet: { name: 'new', replicas: 1, available: 1 } })).toEqual({
      newReplicas: 1,
      oldReplicas: { old: 1 },
    });
  });
});
