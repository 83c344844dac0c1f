// The error output of a kubectl command expected to fail, for tests of what the server refuses.
import { runKubectl } from '@gardener-ts/test-support';
import { expect } from 'vitest';

/** Runs kubectl with `kubeconfig`, expects a non-zero exit and returns its stderr. */
export async function kubectlFails(kubeconfig: string, args: string[], input?: string): Promise<string> {
  const res = await runKubectl(kubeconfig, args, { input });
  expect(res.code, res.stdout).not.toBe(0);
  return res.stderr;
}
