// The executor against real promises: ordering, the parallelism bound, failures of independent branches,
// cancellation, retries and progress events, with task functions written the way the shoot flows write them.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FlowCanceledError, FlowFailedError, flowCauses, flowErrors, TaskError, wasCanceled } from './errors.js';
import { Graph } from './graph.js';
import type { ProgressEvent } from './progress.js';

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

async function runCatching(p: Promise<void>): Promise<unknown> {
  try {
    await p;
    return undefined;
  } catch (err) {
    return err;
  }
}

describe('Flow.run', () => {
  it('runs every task after its dependencies and reports each one', async () => {
    const log: string[] = [];
    const g = new Graph('Shoot cluster reconciliation');
    const ns = g.add({ name: 'Deploying Shoot namespace in Seed', fn: () => void log.push('ns') });
    const infra = g.add({
      name: 'Deploying Shoot infrastructure',
      dependencies: [ns],
      fn: async () => {
        await tick();
        log.push('infra');
      },
    });
    const dns = g.add({
      name: 'Deploying internal domain DNS record',
      dependencies: [ns],
      fn: () => void log.push('dns'),
    });
    g.add({
      name: 'Waiting until shoot infrastructure has been reconciled',
      dependencies: [infra, dns],
      fn: () => void log.push('wait'),
    });
    const events: ProgressEvent[] = [];
    await g.compile().run({ reporter: { report: (e) => void events.push(e) } });
    expect(log[0]).toBe('ns');
    expect(log.at(-1)).toBe('wait');
    expect(log.sort()).toEqual(['dns', 'infra', 'ns', 'wait']);
    expect(events[0]).toMatchObject({ type: 'flow-started', stats: { progressPercent: 0 } });
    expect(events.filter((e) => e.type === 'task-succeeded')).toHaveLength(4);
    expect(events.at(-1)).toMatchObject({ type: 'flow-finished', stats: { progressPercent: 100 } });
    expect((events.at(-1) as { error?: unknown }).error).toBeUndefined();
  });

  it('keeps running independent branches after a failure and reports every failed task with its cause', async () => {
    const ran: string[] = [];
    const g = new Graph('Shoot cluster deletion');
    const cause = new Error('infrastructure quota exceeded', { cause: new Error('HTTP 403') });
    const a = g.add({ name: 'Destroying infrastructure', fn: () => Promise.reject(cause) });
    g.add({
      name: 'Waiting until infrastructure has been destroyed',
      dependencies: [a],
      fn: () => void ran.push('wait'),
    });
    const b = g.add({ name: 'Deleting DNS record', fn: () => void ran.push('dns') });
    g.add({
      name: 'Deleting kube-apiserver',
      dependencies: [b],
      fn: () => {
        throw new Error('still in use');
      },
    });
    g.add({ name: 'Deleting etcd', fn: () => void ran.push('etcd') });
    const err = await runCatching(g.compile().run());
    expect(err).toBeInstanceOf(FlowFailedError);
    expect(ran.sort()).toEqual(['dns', 'etcd']);
    expect((err as FlowFailedError).failedTaskIds.sort()).toEqual([
      'Deleting kube-apiserver',
      'Destroying infrastructure',
    ]);
    expect((err as Error).message).toContain('flow "Shoot cluster deletion" encountered task errors: [');
    expect((err as Error).message).toContain('task "Destroying infrastructure" failed: infrastructure quota exceeded');
    expect(flowErrors(err).every((e) => e instanceof TaskError)).toBe(true);
    expect(flowCauses(err)).toContain(cause);
    expect(wasCanceled(err)).toBe(false);
  });

  it('skips a task with skipIf but runs its dependants', async () => {
    const ran: string[] = [];
    const g = new Graph('f');
    const a = g.add({ name: 'Hibernating control plane', skipIf: true, fn: () => void ran.push('a') });
    g.add({ name: 'Deploying worker', dependencies: [a], fn: () => void ran.push('b') });
    const events: ProgressEvent[] = [];
    await g.compile().run({ reporter: { report: (e) => void events.push(e) } });
    expect(ran).toEqual(['b']);
    expect(events.map((e) => e.type)).toEqual([
      'flow-started',
      'task-skipped',
      'task-started',
      'task-succeeded',
      'flow-finished',
    ]);
  });

  it('stops starting tasks on cancellation, awaits running ones and reports the cancellation', async () => {
    const controller = new AbortController();
    const ran: string[] = [];
    let sawAbort = false;
    const g = new Graph('f');
    const a = g.add({
      name: 'a',
      fn: async ({ signal }) => {
        ran.push('a');
        controller.abort(new Error('shoot reconciliation canceled'));
        await tick();
        sawAbort = signal.aborted;
        throw new Error('aborted');
      },
    });
    g.add({ name: 'b', dependencies: [a], fn: () => void ran.push('b') });
    const err = await runCatching(g.compile().run({ signal: controller.signal }));
    expect(err).toBeInstanceOf(FlowCanceledError);
    expect(wasCanceled(err)).toBe(true);
    expect(sawAbort).toBe(true);
    expect(ran).toEqual(['a']);
    expect((err as Error).message).toBe(
      'flow "f" was canceled: shoot reconciliation canceled. Encountered task errors: [task "a" failed: aborted]',
    );
    expect((err as Error).cause).toEqual(new Error('shoot reconciliation canceled'));
  });

  it('retries a task with retryUntilTimeout and reports each retry', async () => {
    let attempts = 0;
    const g = new Graph('f');
    g.add({
      name: 'Waiting until the kube-apiserver is healthy',
      retryUntilTimeout: { interval: 1, timeout: 30_000 },
      fn: () => {
        if (++attempts < 3) throw new Error(`not healthy (${attempts})`);
      },
    });
    const retries: unknown[] = [];
    await g.compile().run({
      reporter: {
        report: (e) => void (e.type === 'task-retrying' && retries.push([e.attempt, (e.error as Error).message])),
      },
    });
    expect(attempts).toBe(3);
    expect(retries).toEqual([
      [1, 'not healthy (1)'],
      [2, 'not healthy (2)'],
    ]);
  });

  it('clears the last error of a task that succeeds again', async () => {
    const cleared: string[] = [];
    const g = new Graph('f');
    g.add({ name: 'Deploying kube-apiserver', fn: () => {} });
    g.add({ name: 'Deploying etcd', fn: () => {} });
    await g.compile().run({ lastErrorTaskIds: ['Deploying etcd'], onErrorCleared: (id) => void cleared.push(id) });
    expect(cleared).toEqual(['Deploying etcd']);
  });

  it('is not failed by a failing progress reporter; the failure is logged', async () => {
    const errors: string[] = [];
    const logger = { debug: () => {}, info: () => {}, error: (_: object, msg?: string) => void errors.push(msg ?? '') };
    const g = new Graph('f');
    g.add({ name: 'a', fn: () => {} });
    await g.compile().run({
      logger,
      reporter: {
        report: async () => {
          throw new Error('nats down');
        },
      },
    });
    await tick();
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.every((m) => m === 'Progress reporter failed')).toBe(true);
  });

  it('rejects a bound below one', async () => {
    const g = new Graph('f');
    await expect(g.compile().run({ maxParallel: 0 })).rejects.toThrow(RangeError);
  });

  it('respects edges and the bound, and fails exactly the failing tasks and blocks only their dependants', async () => {
    const arbitrary = fc.integer({ min: 1, max: 10 }).chain((n) =>
      fc.record({
        deps: fc.tuple(...Array.from({ length: n }, (_, i) => fc.subarray(Array.from({ length: i }, (_, j) => j)))),
        fail: fc.array(fc.integer({ min: 0, max: 4 }), { minLength: n, maxLength: n }),
        skip: fc.array(fc.integer({ min: 0, max: 4 }), { minLength: n, maxLength: n }),
        ticks: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: n, maxLength: n }),
        bound: fc.integer({ min: 1, max: 3 }),
      }),
    );
    await fc.assert(
      fc.asyncProperty(arbitrary, async ({ deps, fail, skip, ticks, bound }) => {
        const depLists = deps as number[][];
        const finished = new Set<string>();
        const violations: string[] = [];
        let active = 0;
        let maxActive = 0;
        const g = new Graph('prop');
        depLists.forEach((ds, i) => {
          g.add({
            name: `t${i}`,
            dependencies: ds.map((d) => `t${d}`),
            skipIf: skip[i] === 0,
            fn: async () => {
              active++;
              maxActive = Math.max(maxActive, active);
              for (const d of ds) if (!finished.has(`t${d}`)) violations.push(`t${i} before t${d}`);
              for (let k = 0; k < ticks[i]; k++) await tick();
              active--;
              finished.add(`t${i}`);
              if (fail[i] === 0) throw new Error(`t${i} broke`);
            },
          });
        });
        // Oracle: what each task must end as, whatever the timing.
        const expected = new Map<string, 'ok' | 'failed' | 'blocked'>();
        depLists.forEach((ds, i) => {
          const blocked = ds.some((d) => expected.get(`t${d}`) !== 'ok');
          expected.set(`t${i}`, blocked ? 'blocked' : skip[i] === 0 || fail[i] !== 0 ? 'ok' : 'failed');
        });
        // Skipped tasks count as done for their dependants, so mark them finished for the edge check.
        depLists.forEach((_, i) => skip[i] === 0 && expected.get(`t${i}`) === 'ok' && finished.add(`t${i}`));
        const err = await runCatching(g.compile().run({ maxParallel: bound }));
        expect(violations).toEqual([]);
        expect(maxActive).toBeLessThanOrEqual(bound);
        const failed = [...expected].filter(([, s]) => s === 'failed').map(([id]) => id);
        expect(
          flowErrors(err)
            .map((e) => e.taskId)
            .sort(),
        ).toEqual(failed.sort());
        const ranOrSkipped = [...expected].filter(([, s]) => s !== 'blocked').map(([id]) => id);
        for (const id of ranOrSkipped) expect(finished.has(id)).toBe(true);
        for (const [id, s] of expected) if (s === 'blocked') expect(finished.has(id)).toBe(false);
      }),
      { numRuns: 60 },
    );
  });
});
