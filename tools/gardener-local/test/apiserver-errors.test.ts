// How `gardener-local apiserver` reports a failed start to the operator: the reason in one line (here: a second
// server on a data dir another one serves, whatever the storage kind), exit status 1, and the stack only with
// `--log-level debug`. Runs the CLI from its sources, as the other data-dir tests run the server.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  kubectl,
  startProcess,
  stopAllProcesses,
  waitFor,
  workspaceRoot,
  type RunningProcess,
} from '@gardener-ts/testing';

const source = join(workspaceRoot(), 'tools', 'gardener-local', 'src', 'cli.ts');
let dir: string;

/** `gardener-local apiserver --data-dir DIR --port 0 --storage memory ...extra`, from the TypeScript sources. */
function apiserver(...extra: string[]): RunningProcess {
  return startProcess(
    process.execPath,
    [
      '--conditions=@gardener-ts/source',
      '--import',
      'tsx',
      source,
      'apiserver',
      '--data-dir',
      dir,
      '--port',
      '0',
      '--storage',
      'memory',
      ...extra,
    ],
    { cwd: workspaceRoot() },
  );
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gardener-local-errors-'));
});
afterAll(async () => {
  await stopAllProcesses();
  await rm(dir, { recursive: true, force: true });
});

describe('gardener-local apiserver on a data dir in use', () => {
  it('prints why it cannot start in one line and exits 1; the stack only at debug level', async () => {
    const first = apiserver('--log-level', 'error');
    await waitFor(
      'the first server to be ready',
      () => first.output().includes('Local API server ready') || (first.child.exitCode !== null && first.output()),
      { timeoutMs: 60_000 },
    );
    expect(first.output(), 'the first server did not start').toContain('Local API server ready');

    const second = apiserver('--log-level', 'error');
    expect(await second.exited, second.output()).toBe(1);
    expect(second.output()).toBe(
      `gardener-local apiserver: the data directory ${dir} is locked by process ${first.child.pid}: another API ` +
        'server uses this data directory. Stop it first, or give this one its own --data-dir\n',
    );

    const debug = apiserver('--log-level', 'debug');
    expect(await debug.exited, debug.output()).toBe(1);
    expect(debug.output()).toContain(`gardener-local apiserver: the data directory ${dir} is locked`);
    expect(debug.output()).toMatch(/"stack":"Error: the data directory [^"]* is locked[^"]*\\n {4}at /);

    // The first server never noticed.
    expect(await kubectl(join(dir, 'kubeconfig'), ['get', 'ns', 'default', '-o', 'name'])).toBe('namespace/default\n');
    expect(await first.stop()).toBe(0);
  }, 120_000);
});
