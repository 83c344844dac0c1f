// Two API server processes on one data dir, as an operator could start them by mistake: the second exits 1 with an
// error naming the store directory and the first one's pid, and the first keeps serving. After the first is killed
// with SIGKILL (no chance to clean up), a new server starts at once on the same data dir, with the data.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { kubectl, startProcess, stopAllProcesses, waitFor, type RunningProcess } from '@gardener-ts/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const libDir = fileURLToPath(new URL('..', import.meta.url));
const entry = fileURLToPath(new URL('../src/index.ts', import.meta.url));

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'storage-lock-'));
});
afterAll(async () => {
  await stopAllProcesses();
  await rm(dataDir, { recursive: true, force: true });
});

/** An API server process on `dataDir` (file storage, as `gardener-local apiserver --data-dir` runs it). */
function apiServerProcess(): RunningProcess {
  const script = `
    const { LocalApiServer } = await import(${JSON.stringify(entry)});
    const server = await LocalApiServer.start({ dataDir: ${JSON.stringify(dataDir)} });
    process.stdout.write('ready ' + server.url + '\\n');
    process.once('SIGTERM', () => void server.stop().then(() => process.exit(0)));
  `;
  return startProcess(
    process.execPath,
    ['--conditions=@gardener-ts/source', '--import', 'tsx', '--input-type=module', '--eval', script],
    { cwd: libDir },
  );
}

const ready = (p: RunningProcess) =>
  waitFor(
    'the API server to be ready',
    () => p.output().includes('ready https://') || (p.child.exitCode !== null && p.output()),
    { timeoutMs: 60_000 },
  ).then(() => expect(p.output(), 'the server did not start').toContain('ready https://'));

describe('the data dir lock between processes', () => {
  it('refuses a second server, and does not block a restart after kill -9', async () => {
    const kubeconfig = join(dataDir, 'kubeconfig');
    const first = apiServerProcess();
    await ready(first);
    await kubectl(kubeconfig, ['create', 'configmap', 'before-kill', '--from-literal=k=v']);

    const second = apiServerProcess();
    expect(await second.exited, second.output()).toBe(1);
    expect(second.output()).toContain(`the data directory ${dataDir} is locked by process ${first.child.pid}`);
    expect(second.output()).not.toContain('ready https://');
    // The first one never noticed.
    expect(await kubectl(kubeconfig, ['get', 'configmap', 'before-kill', '-o', 'jsonpath={.data.k}'])).toBe('v');

    first.child.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');
    const restarted = apiServerProcess();
    await ready(restarted);
    expect(await kubectl(kubeconfig, ['get', 'configmap', 'before-kill', '-o', 'jsonpath={.data.k}'])).toBe('v');
    expect(await restarted.stop()).toBe(0);
  }, 180_000); // three server starts from TypeScript sources: seconds each, more on a loaded machine
});
