// Property tests of the pure scheduler: random DAGs, random bounds, random completion orders and failures, checked
// against an order-independent oracle of what each task's final status must be.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  apply,
  blockedByFailure,
  decide,
  finish,
  initialState,
  isSettled,
  progressPercent,
  type Plan,
  type SchedulerState,
  type TaskStatus,
} from './scheduler.js';

interface Model {
  plan: Plan;
  fails: Set<string>;
  bound: number;
  choices: number[];
}

// Task i may depend on any task before it, so every generated graph is acyclic and the plan order topological.
const model: fc.Arbitrary<Model> = fc
  .integer({ min: 0, max: 14 })
  .chain((n) =>
    fc.record({
      deps: fc.tuple(...Array.from({ length: n }, (_, i) => fc.subarray(Array.from({ length: i }, (_, j) => j)))),
      skip: fc.array(fc.boolean(), { minLength: n, maxLength: n }),
      fail: fc.array(fc.integer({ min: 0, max: 5 }), { minLength: n, maxLength: n }),
      bound: fc.integer({ min: 1, max: 4 }),
      choices: fc.array(fc.nat(), { minLength: 1, maxLength: 40 }),
    }),
  )
  .map(({ deps, skip, fail, bound, choices }) => {
    const tasks = (deps as number[][]).map((ds, i) => ({
      id: `t${i}`,
      dependencies: ds.map((d) => `t${d}`),
      skip: skip[i],
    }));
    const fails = new Set(tasks.filter((_, i) => fail[i] === 0).map((t) => t.id));
    return { plan: { name: 'test', tasks }, fails, bound, choices };
  });

// What every task ends as, whatever the order: dependants of a failure never start; everything else runs or is skipped.
function expectedStatus(m: Model): Map<string, TaskStatus> {
  const out = new Map<string, TaskStatus>();
  for (const t of m.plan.tasks) {
    if (t.dependencies.some((d) => out.get(d) === 'failed' || out.get(d) === 'pending')) out.set(t.id, 'pending');
    else if (t.skip) out.set(t.id, 'skipped');
    else out.set(t.id, m.fails.has(t.id) ? 'failed' : 'succeeded');
  }
  return out;
}

function running(state: SchedulerState): string[] {
  return [...state].filter(([, s]) => s === 'running').map(([id]) => id);
}

interface Trace {
  state: SchedulerState;
  percents: number[];
  maxRunning: number;
  violations: string[];
}

function simulate(m: Model, cancelAfterStep = Infinity): Trace {
  let state = initialState(m.plan);
  const percents = [progressPercent(m.plan, state)];
  const violations: string[] = [];
  const deps = new Map(m.plan.tasks.map((t) => [t.id, t.dependencies]));
  let maxRunning = 0;
  for (let step = 0; ; step++) {
    const canceled = step >= cancelAfterStep;
    const decision = decide(m.plan, state, { maxParallel: m.bound, canceled });
    const skippedNow = new Set<string>();
    for (const id of decision.skip) {
      if (!deps.get(id)!.every((d) => ['succeeded', 'skipped'].includes(state.get(d)!) || skippedNow.has(d))) {
        violations.push(`${id} skipped before its dependencies were done`);
      }
      skippedNow.add(id);
    }
    for (const id of decision.start) {
      if (!deps.get(id)!.every((d) => ['succeeded', 'skipped'].includes(state.get(d)!) || skippedNow.has(d))) {
        violations.push(`${id} started before its dependencies were done`);
      }
    }
    if (canceled && (decision.skip.length > 0 || decision.start.length > 0)) violations.push('started after cancel');
    state = apply(state, decision);
    percents.push(progressPercent(m.plan, state));
    const now = running(state);
    maxRunning = Math.max(maxRunning, now.length);
    if (now.length === 0) break;
    const pick = now[m.choices[step % m.choices.length] % now.length];
    state = finish(state, pick, m.fails.has(pick) ? 'failed' : 'succeeded');
    percents.push(progressPercent(m.plan, state));
  }
  return { state, percents, maxRunning, violations };
}

describe('scheduler', () => {
  it('starts a task only after all its dependencies succeeded or were skipped', () => {
    fc.assert(
      fc.property(model, (m) => {
        expect(simulate(m).violations).toEqual([]);
      }),
    );
  });

  it('never runs more tasks at once than the bound', () => {
    fc.assert(
      fc.property(model, (m) => {
        expect(simulate(m).maxRunning).toBeLessThanOrEqual(m.bound);
      }),
    );
  });

  it('stops exactly the transitive dependants of a failure; every other task runs or is skipped', () => {
    fc.assert(
      fc.property(model, (m) => {
        const { state } = simulate(m);
        expect(new Map(state)).toEqual(expectedStatus(m));
        const blocked = [...expectedStatus(m)].filter(([, s]) => s === 'pending').map(([id]) => id);
        expect(blockedByFailure(m.plan, state).sort()).toEqual(blocked.sort());
        expect(isSettled(m.plan, state, { maxParallel: m.bound })).toBe(true);
      }),
    );
  });

  it('reports monotonic progress that ends at 100 exactly when nothing failed', () => {
    fc.assert(
      fc.property(model, (m) => {
        const { state, percents } = simulate(m);
        for (let i = 1; i < percents.length; i++) expect(percents[i]).toBeGreaterThanOrEqual(percents[i - 1]);
        const anyFailed = [...state.values()].includes('failed');
        expect(percents.at(-1) === 100).toBe(!anyFailed);
      }),
    );
  });

  it('counts skipped tasks as done and runs their dependants', () => {
    const plan: Plan = {
      name: 'skips',
      tasks: [
        { id: 'a', dependencies: [], skip: true },
        { id: 'b', dependencies: ['a'], skip: true },
        { id: 'c', dependencies: ['b'], skip: false },
      ],
    };
    const state = apply(initialState(plan), decide(plan, initialState(plan), { maxParallel: 1 }));
    expect(Object.fromEntries(state)).toEqual({ a: 'skipped', b: 'skipped', c: 'running' });
    expect(progressPercent(plan, state)).toBe(66);
    expect(progressPercent(plan, finish(state, 'c', 'succeeded'))).toBe(100);
  });

  it('starts nothing once canceled, and settles when the running tasks finished', () => {
    fc.assert(
      fc.property(model, fc.nat({ max: 10 }), (m, cancelAt) => {
        const { state, violations } = simulate(m, cancelAt);
        expect(violations).toEqual([]);
        expect(running(state)).toEqual([]);
      }),
    );
  });

  it('treats an empty flow as complete', () => {
    const plan: Plan = { name: 'empty', tasks: [] };
    expect(progressPercent(plan, initialState(plan))).toBe(100);
    expect(isSettled(plan, initialState(plan), { maxParallel: 1 })).toBe(true);
  });

  it('rejects finishing a task that is not running', () => {
    const plan: Plan = { name: 'x', tasks: [{ id: 'a', dependencies: [], skip: false }] };
    expect(() => finish(initialState(plan), 'a', 'succeeded')).toThrow(/task "a" finished but is not running/);
  });
});
