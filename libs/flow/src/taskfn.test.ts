import { describe, expect, it, vi } from 'vitest';
import type { TaskContext } from './task.js';
import {
  doIf,
  parallel,
  parallelExitOnError,
  parallelN,
  recover,
  retryUntilTimeout,
  sequential,
  skipIf,
  sleep,
  timeout,
  TaskTimeoutError,
} from './taskfn.js';

function context(signal: AbortSignal = new AbortController().signal) {
  const retries: [unknown, number][] = [];
  const ctx: TaskContext = {
    signal,
    taskId: 't',
    flowName: 'f',
    reportRetry: (error, attempt) => void retries.push([error, attempt]),
  };
  return { ctx, retries };
}

describe('task function combinators', () => {
  it('skipIf and doIf replace the function by one doing nothing', async () => {
    let calls = 0;
    const fn = () => void calls++;
    await skipIf(fn, true)(context().ctx);
    await doIf(fn, false)(context().ctx);
    expect(calls).toBe(0);
    await skipIf(fn, false)(context().ctx);
    await doIf(fn, true)(context().ctx);
    expect(calls).toBe(2);
  });

  it('timeout aborts the signal handed to the function', async () => {
    const fn = timeout(
      ({ signal }) =>
        new Promise<void>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true })),
      5,
    );
    await expect(fn(context().ctx)).rejects.toBeInstanceOf(TaskTimeoutError);
  });

  it('retryUntilTimeout retries until success, reporting each failed attempt', async () => {
    let attempts = 0;
    const { ctx, retries } = context();
    await retryUntilTimeout(
      () => {
        if (++attempts < 4) throw new Error('not yet');
      },
      { interval: 1, timeout: 30_000, factor: 2, maxInterval: 4 },
    )(ctx);
    expect(attempts).toBe(4);
    expect(retries.map(([, n]) => n)).toEqual([1, 2, 3]);
  });

  it('retryUntilTimeout waits longer by the factor after each failure, up to maxInterval; a fixed interval without', async () => {
    const waitsOf = async (options: { interval: number; timeout: number; factor?: number; maxInterval?: number }) => {
      vi.useFakeTimers();
      try {
        const attempts: number[] = [];
        const run = retryUntilTimeout(() => {
          attempts.push(Date.now());
          if (attempts.length < 6) throw new Error('not yet');
        }, options)(context().ctx);
        await vi.runAllTimersAsync();
        await run;
        return attempts.slice(1).map((t, i) => t - attempts[i]!);
      } finally {
        vi.useRealTimers();
      }
    };
    expect(await waitsOf({ interval: 100, timeout: 60_000, factor: 2, maxInterval: 500 })).toEqual([
      100, 200, 400, 500, 500,
    ]);
    expect(await waitsOf({ interval: 100, timeout: 60_000 })).toEqual([100, 100, 100, 100, 100]);
  });

  it('retryUntilTimeout gives up at the deadline with the last error as cause', async () => {
    const last = new Error('ManagedResource shoot-core is not healthy');
    const { ctx } = context();
    const err = await retryUntilTimeout(
      () => {
        throw last;
      },
      { interval: 2, timeout: 20 },
    )(ctx).catch((e: unknown) => e);
    expect((err as Error).message).toBe(
      'retry timed out after 20ms, last error: ManagedResource shoot-core is not healthy',
    );
    expect((err as Error).cause).toBe(last);
  });

  it('retryUntilTimeout stops at once when the flow is canceled, with the last error', async () => {
    const controller = new AbortController();
    const { ctx } = context(controller.signal);
    let attempts = 0;
    const err = await retryUntilTimeout(
      () => {
        attempts++;
        controller.abort();
        throw new Error('boom');
      },
      { interval: 60_000, timeout: 120_000 },
    )(ctx).catch((e: unknown) => e);
    expect(attempts).toBe(1);
    expect((err as Error).message).toBe('boom');
  });

  it('recover handles the error unless canceled', async () => {
    const recovered: unknown[] = [];
    const boom = new Error('boom');
    await recover(
      () => {
        throw boom;
      },
      (_, err) => void recovered.push(err),
    )(context().ctx);
    expect(recovered).toEqual([boom]);
    const controller = new AbortController();
    controller.abort();
    await expect(
      recover(
        () => {
          throw boom;
        },
        () => {},
      )(context(controller.signal).ctx),
    ).rejects.toBe(boom);
  });

  it('sequential stops at the first error', async () => {
    const ran: number[] = [];
    await expect(
      sequential(
        () => void ran.push(1),
        () => {
          throw new Error('two');
        },
        () => void ran.push(3),
      )(context().ctx),
    ).rejects.toThrow('two');
    expect(ran).toEqual([1]);
  });

  it('parallel runs all and aggregates every error', async () => {
    const ran: number[] = [];
    const err = await parallel(
      () => {
        throw new Error('a');
      },
      () => void ran.push(2),
      async () => {
        throw new Error('c');
      },
    )(context().ctx).catch((e: unknown) => e);
    expect(ran).toEqual([2]);
    expect(err).toBeInstanceOf(AggregateError);
    expect((err as AggregateError).errors.map((e: Error) => e.message).sort()).toEqual(['a', 'c']);
  });

  it('parallelN never runs more than n at once', async () => {
    let active = 0;
    let max = 0;
    const fn = async () => {
      active++;
      max = Math.max(max, active);
      await sleep(1);
      active--;
    };
    await parallelN(2, fn, fn, fn, fn, fn)(context().ctx);
    expect(max).toBe(2);
  });

  it('parallelExitOnError aborts the siblings on the first error', async () => {
    let siblingAborted = false;
    const err = await parallelExitOnError(
      async () => {
        await sleep(1);
        throw new Error('first');
      },
      ({ signal }) =>
        new Promise<void>((resolve) =>
          signal.addEventListener(
            'abort',
            () => {
              siblingAborted = true;
              resolve();
            },
            { once: true },
          ),
        ),
    )(context().ctx).catch((e: unknown) => e);
    expect((err as Error).message).toBe('first');
    expect(siblingAborted).toBe(true);
  });
});
