// Polling a condition of the seed or the shoot until it holds, as the shoot flows' wait steps do (Gardener's
// `retry.UntilTimeout`): a reason why not yet, or done; the last reason in the error on timeout.
import { pollDelays } from '@gardener-ts/controller-runtime';
import { sleep } from '@gardener-ts/flow';

/** How the waits of the botanist poll. */
export interface BotanistWait {
  readonly interval: number;
  readonly timeout: number;
}

export { pollDelays };

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
