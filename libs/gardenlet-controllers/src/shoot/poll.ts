// Polling a condition of the seed or the shoot until it holds, as the shoot flows' wait steps do (Gardener's
// `retry.UntilTimeout`): a reason why not yet, or done; the last reason in the error on timeout.
import { sleep } from '@gardener-ts/flow';

/** How the waits of the botanist poll. */
export interface BotanistWait {
  readonly interval: number;
  readonly timeout: number;
}

/** The first delay between two polls. */
const FIRST_POLL_MS = 100;

/**
 * The delays between polls: from 100 ms, doubling up to `max`. A state that is reached soon (most waits of a flow
 * are over in well under a second) is seen soon, and a slow one is not polled faster than `max`.
 */
export function* pollDelays(max: number): Generator<number, never> {
  let delay = Math.min(FIRST_POLL_MS, max);
  for (;;) {
    yield delay;
    delay = Math.min(delay * 2, max);
  }
}

/**
 * Polls `check` (a reason why not yet, or undefined when done) until it is done or the wait's timeout passes, with
 * {@link pollDelays} up to the wait's interval.
 */
export async function pollUntil(
  what: string,
  check: () => Promise<string | undefined>,
  wait: BotanistWait,
  signal: AbortSignal,
): Promise<void> {
  const deadline = Date.now() + wait.timeout;
  const delays = pollDelays(wait.interval);
  for (;;) {
    signal.throwIfAborted();
    const reason = await check();
    if (reason === undefined) return;
    if (Date.now() >= deadline) throw new Error(`${what}: ${reason}`);
    await sleep(delays.next().value, signal);
  }
}
