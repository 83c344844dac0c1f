// Polling helpers: wait until something is true, with a deadline and a message that says what never happened.
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  { timeoutMs = 10_000, intervalMs = 50 } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}${lastError ? `: ${String(lastError)}` : ''}`,
      );
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** Waits until an HTTP GET answers with `status`. */
export function waitForHttp(url: string, status = 200, options?: { timeoutMs?: number }): Promise<Response> {
  return waitFor(
    `${url} to answer ${status}`,
    async () => {
      const res = await fetch(url);
      return res.status === status ? res : undefined;
    },
    options,
  );
}
