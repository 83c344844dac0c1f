// The delays of a wait that polls: short at first, so a state reached soon (most waits for another controller's
// work are over in well under a second) is seen soon, then doubling to the poll interval, so a slow one is not polled
// faster than that.

/** The first delay between two polls. */
const FIRST_POLL_MS = 100;

/** The delays between polls: from 100 ms (or `max` if smaller), doubling up to `max`. */
export function* pollDelays(max: number): Generator<number, never> {
  let delay = Math.min(FIRST_POLL_MS, max);
  for (;;) {
    yield delay;
    delay = Math.min(delay * 2, max);
  }
}
