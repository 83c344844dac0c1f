// Waiting on a clock, cut short by an abort signal.
import type { Clock } from '../queue/clock.js';

/** Resolves after `ms` on `clock`, or as soon as `signal` aborts. */
export function sleep(clock: Clock, ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clock.clearTimeout(handle);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const handle = clock.setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** The value of `work`, or `fallback` if it does not settle within `ms`. */
export function within<T>(clock: Clock, ms: number, work: Promise<T>, fallback: T): Promise<T> {
  return new Promise((resolve, reject) => {
    const handle = clock.setTimeout(() => resolve(fallback), Math.max(0, ms));
    work.then(
      (value) => {
        clock.clearTimeout(handle);
        resolve(value);
      },
      (err: unknown) => {
        clock.clearTimeout(handle);
        reject(err);
      },
    );
  });
}
