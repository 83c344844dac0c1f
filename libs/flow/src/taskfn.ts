// Combinators over task functions, as Gardener's TaskFn methods: SkipIf, DoIf, Timeout, RetryUntilTimeout (here
// with optional exponential back-off), Recover, Sequential, Parallel, ParallelN and ParallelExitOnError.
// Cancellation is cooperative, as with Go contexts: a combinator aborts the signal it hands down and waits for
// the function to return.
import { messageOf } from './errors.js';
import type { RetryOptions, TaskContext, TaskFn } from './task.js';

/** A task function that always returns a promise: what the asynchronous combinators build. */
export type AsyncTaskFn = (ctx: TaskContext) => Promise<void>;

/** A function that does nothing (Gardener's `EmptyTaskFn`). */
export const emptyTaskFn: TaskFn = () => {};

/** `fn`, or a function doing nothing when `condition` is true (Gardener's `TaskFn.SkipIf`: the task still succeeds). */
export function skipIf(fn: TaskFn, condition: boolean): TaskFn {
  return condition ? emptyTaskFn : fn;
}

/** `fn` when `condition` is true, else a function doing nothing (Gardener's `TaskFn.DoIf`). */
export function doIf(fn: TaskFn, condition: boolean): TaskFn {
  return skipIf(fn, !condition);
}

/** The error a `timeout` or `retryUntilTimeout` deadline aborts with. */
export class TaskTimeoutError extends Error {
  override readonly name = 'TimeoutError';
  constructor(readonly timeoutMs: number) {
    super(`deadline of ${timeoutMs}ms exceeded`);
  }
}

/** `fn` with a signal that aborts after `timeoutMs` (Gardener's `TaskFn.Timeout`); `fn` must honour the signal. */
export function timeout(fn: TaskFn, timeoutMs: number): AsyncTaskFn {
  return async (ctx) => {
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(new TaskTimeoutError(timeoutMs)), timeoutMs);
    try {
      await fn({ ...ctx, signal: AbortSignal.any([ctx.signal, deadline.signal]) });
    } finally {
      clearTimeout(timer);
    }
  };
}

/**
 * Retries `fn` until it succeeds or the timeout passes (Gardener's `TaskFn.RetryUntilTimeout`). Every failed
 * attempt is reported through `ctx.reportRetry`; waits grow by `factor` up to `maxInterval`. On the deadline the
 * error names the last attempt's error and keeps it as `cause`; a canceled flow stops the retries at once.
 */
export function retryUntilTimeout(fn: TaskFn, options: RetryOptions): AsyncTaskFn {
  return async (ctx) => {
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(new TaskTimeoutError(options.timeout)), options.timeout);
    const signal = AbortSignal.any([ctx.signal, deadline.signal]);
    let wait = options.interval;
    let lastError: unknown;
    try {
      for (let attempt = 1; ; attempt++) {
        try {
          await fn({ ...ctx, signal });
          return;
        } catch (err) {
          lastError = err;
        }
        if (ctx.signal.aborted) throw lastError;
        if (!signal.aborted) {
          ctx.reportRetry(lastError, attempt);
          await sleep(wait, signal);
        }
        if (signal.aborted) {
          if (ctx.signal.aborted) throw lastError;
          throw new Error(`retry timed out after ${options.timeout}ms, last error: ${messageOf(lastError)}`, {
            cause: lastError,
          });
        }
        wait = Math.min(wait * (options.factor ?? 1), options.maxInterval ?? Infinity);
      }
    } finally {
      clearTimeout(timer);
    }
  };
}

/** What a `recover` function receives: the context and the error to recover from. */
export type RecoverFn = (ctx: TaskContext, error: unknown) => Promise<void> | void;

/** Runs `recoverFn` when `fn` fails, unless the flow was canceled (Gardener's `TaskFn.Recover`). */
export function recover(fn: TaskFn, recoverFn: RecoverFn): AsyncTaskFn {
  return async (ctx) => {
    try {
      await fn(ctx);
    } catch (err) {
      if (ctx.signal.aborted) throw err;
      await recoverFn(ctx, err);
    }
  };
}

/** Runs the functions one after another, stopping at the first error or cancellation (Gardener's `Sequential`). */
export function sequential(...fns: TaskFn[]): AsyncTaskFn {
  return async (ctx) => {
    for (const fn of fns) {
      await fn(ctx);
      ctx.signal.throwIfAborted();
    }
  };
}

/**
 * Runs the functions with at most `n` at once (all at once when `n` <= 0) and waits for all of them; their errors
 * are collected in an `AggregateError` (Gardener's `ParallelN`).
 */
export function parallelN(n: number, ...fns: TaskFn[]): AsyncTaskFn {
  return async (ctx) => {
    const workers = n <= 0 ? fns.length : Math.min(n, fns.length);
    const errors: unknown[] = [];
    let next = 0;
    const worker = async () => {
      while (next < fns.length) {
        const fn = fns[next++];
        try {
          await fn(ctx);
        } catch (err) {
          errors.push(err);
        }
      }
    };
    await Promise.all(Array.from({ length: workers }, worker));
    if (errors.length > 0) throw new AggregateError(errors, errors.map(messageOf).join('; '));
  };
}

/** Runs all functions at once and collects their errors (Gardener's `Parallel`). */
export function parallel(...fns: TaskFn[]): AsyncTaskFn {
  return parallelN(fns.length, ...fns);
}

/**
 * Runs all functions at once; the first error aborts the others' signal and is thrown once every function has
 * returned (Gardener's `ParallelExitOnError`, which cancels the siblings' context).
 */
export function parallelExitOnError(...fns: TaskFn[]): AsyncTaskFn {
  return async (ctx) => {
    const siblings = new AbortController();
    const signal = AbortSignal.any([ctx.signal, siblings.signal]);
    let first: { error: unknown } | undefined;
    await Promise.all(
      fns.map(async (fn) => {
        try {
          await fn({ ...ctx, signal });
        } catch (err) {
          if (!first) {
            first = { error: err };
            siblings.abort(err);
          }
        }
      }),
    );
    if (first) throw first.error;
  };
}

/** Resolves after `ms`, or early when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
