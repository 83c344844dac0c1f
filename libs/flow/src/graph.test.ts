import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GraphValidationError } from './errors.js';
import { Graph } from './graph.js';

const noop = () => {};

describe('Graph', () => {
  it('compiles tasks added in any order into a plan with dependencies first', () => {
    const g = new Graph('Shoot cluster reconciliation');
    g.add({ name: 'Deploying control plane', fn: noop, dependencies: ['Deploying Shoot namespace in Seed'] });
    g.add({ name: 'Deploying Shoot namespace in Seed', fn: noop });
    const flow = g.compile();
    expect(flow.plan.tasks.map((t) => t.id)).toEqual(['Deploying Shoot namespace in Seed', 'Deploying control plane']);
    expect(flow.size).toBe(2);
    expect(flow.name).toBe('Shoot cluster reconciliation');
  });

  it('rejects a task added twice', () => {
    const g = new Graph('f');
    g.add({ name: 'a', fn: noop });
    expect(() => g.add({ name: 'a', fn: noop })).toThrow('flow "f": task "a" already exists');
  });

  it('rejects an unknown dependency, naming both tasks', () => {
    const g = new Graph('f');
    g.add({ name: 'Waiting until infrastructure is ready', fn: noop, dependencies: ['Deploying infrastructure'] });
    let error: unknown;
    try {
      g.compile();
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(GraphValidationError);
    expect((error as Error).message).toBe(
      'flow "f": task "Waiting until infrastructure is ready" depends on unknown task "Deploying infrastructure"',
    );
    expect((error as GraphValidationError).taskIds).toEqual([
      'Waiting until infrastructure is ready',
      'Deploying infrastructure',
    ]);
  });

  it('rejects a cycle, naming the tasks in it and not the others', () => {
    const g = new Graph('f');
    g.add({ name: 'root', fn: noop });
    g.add({ name: 'a', fn: noop, dependencies: ['root', 'c'] });
    g.add({ name: 'b', fn: noop, dependencies: ['a'] });
    g.add({ name: 'c', fn: noop, dependencies: ['b'] });
    g.add({ name: 'leaf', fn: noop, dependencies: ['c'] });
    expect(() => g.compile()).toThrow('flow "f": dependency cycle: "a" -> "b" -> "c" -> "a"');
  });

  it('rejects a task depending on itself', () => {
    const g = new Graph('f');
    g.add({ name: 'a', fn: noop, dependencies: ['a'] });
    expect(() => g.compile()).toThrow('flow "f": dependency cycle: "a" -> "a"');
  });

  it('adds a group: every task gets the group dependencies and skip condition, the ids form one dependency', () => {
    const g = new Graph('f');
    const ns = g.add({ name: 'namespace', fn: noop });
    const group = g.addGroup(
      [
        { name: 'etcd-main', fn: noop },
        { name: 'etcd-events', fn: noop, skipIf: false },
      ],
      { dependencies: [ns], skipIf: true },
    );
    g.add({ name: 'kube-apiserver', fn: noop, dependencies: [group] });
    const plan = g.compile().plan;
    expect(plan.tasks).toEqual([
      { id: 'namespace', dependencies: [], skip: false },
      { id: 'etcd-main', dependencies: ['namespace'], skip: true },
      { id: 'etcd-events', dependencies: ['namespace'], skip: true },
      { id: 'kube-apiserver', dependencies: ['etcd-main', 'etcd-events'], skip: false },
    ]);
  });

  it('orders any DAG added in any order topologically, and names a real cycle when there is one', () => {
    const arbitrary = fc.integer({ min: 1, max: 12 }).chain((n) =>
      fc.record({
        deps: fc.tuple(...Array.from({ length: n }, (_, i) => fc.subarray(Array.from({ length: i }, (_, j) => j)))),
        order: fc.shuffledSubarray(
          Array.from({ length: n }, (_, i) => i),
          { minLength: n, maxLength: n },
        ),
        backEdge: fc.option(fc.tuple(fc.nat(), fc.nat()), { nil: undefined }),
      }),
    );
    fc.assert(
      fc.property(arbitrary, ({ deps, order, backEdge }) => {
        const depLists = (deps as number[][]).map((d) => [...d]);
        const n = depLists.length;
        // An added edge "from depends on to" (to >= from) closes a cycle exactly when `to` already depends on `from`
        // (transitively) or is `from` itself.
        let cyclic = false;
        if (backEdge) {
          const from = backEdge[0] % n;
          const to = from + (backEdge[1] % (n - from));
          const dependsOnFrom = new Set([from]);
          for (let i = from + 1; i < n; i++) if (depLists[i].some((d) => dependsOnFrom.has(d))) dependsOnFrom.add(i);
          cyclic = dependsOnFrom.has(to);
          depLists[from].push(to);
        }
        const g = new Graph('prop');
        for (const i of order) g.add({ name: `t${i}`, fn: noop, dependencies: depLists[i].map((d) => `t${d}`) });
        if (!cyclic) {
          const position = new Map(g.compile().plan.tasks.map((t, k) => [t.id, k]));
          depLists.forEach((ds, i) =>
            ds.forEach((d) => expect(position.get(`t${d}`)!).toBeLessThan(position.get(`t${i}`)!)),
          );
          return;
        }
        let error: unknown;
        try {
          g.compile();
        } catch (err) {
          error = err;
        }
        expect(error).toBeInstanceOf(GraphValidationError);
        const cycle = (error as GraphValidationError).taskIds;
        expect(cycle[0]).toBe(cycle.at(-1));
        // Every step of the named cycle is a real edge: the next task depends on the previous one.
        for (let k = 1; k < cycle.length; k++) {
          const dependant = Number(cycle[k].slice(1));
          expect(depLists[dependant]).toContain(Number(cycle[k - 1].slice(1)));
        }
      }),
    );
  });
});
