// kube's slow-start batching: create 1, then 2, 4, 8, ... at once, stopping at the first failure, so a request
// that fails for every object (quota, a bad template) fails once rather than `count` times.

/** Runs `fn` `count` times in doubling batches; returns how many succeeded and the first error, if any. */
export async function slowStartBatch(
  count: number,
  fn: () => Promise<void>,
  initialBatch = 1,
): Promise<{ succeeded: number; error?: unknown }> {
  let succeeded = 0;
  let batch = Math.min(count, initialBatch);
  while (batch > 0) {
    const results = await Promise.allSettled(Array.from({ length: batch }, fn));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    succeeded += results.filter((r) => r.status === 'fulfilled').length;
    if (failed) return { succeeded, error: failed.reason };
    batch = Math.min(2 * batch, count - succeeded);
  }
  return { succeeded };
}
