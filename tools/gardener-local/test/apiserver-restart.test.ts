// The gardener-local apiserver command: serves from a data dir, survives kill -9 without losing an
// acknowledged write, and watches resume (or are told to relist) after the restart.
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  freePort,
  kubectl,
  runKubectl,
  startProcess,
  stopAllProcesses,
  waitFor,
  workspaceRoot,
  type RunningProcess,
} from '@gardener-ts/testing';

const cli = join(workspaceRoot(), 'dist', 'tools', 'gardener-local', 'cli.js');

/** A ConfigMap manifest for `kubectl create -f -` (JSON bodies; typed `kubectl create configmap` sends protobuf). */
const configMap = (name: string, extra = '') =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ${name}, namespace: default}\n${extra}`;
let dir: string;
let port: number;

function startApiserver(): RunningProcess {
  return startProcess(process.execPath, [
    cli,
    'apiserver',
    '--data-dir',
    dir,
    '--port',
    String(port),
    '--storage',
    'file',
  ]);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gardener-local-'));
  port = await freePort();
});
afterAll(async () => {
  await stopAllProcesses();
  await rm(dir, { recursive: true, force: true });
});

describe('gardener-local apiserver', () => {
  it('writes a kubeconfig and private keys with mode 0600', async () => {
    const proc = startApiserver();
    await waitFor('readiness', () => proc.output().includes('Local API server ready'), { timeoutMs: 20_000 });
    expect((await stat(join(dir, 'kubeconfig'))).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, 'pki', 'ca.key'))).mode & 0o777).toBe(0o600);
    expect(await kubectl(join(dir, 'kubeconfig'), ['get', 'ns', 'default', '-o', 'name'])).toBe('namespace/default\n');
    expect(await proc.stop()).toBe(0);
  });

  it('loses no acknowledged write when killed with SIGKILL', async () => {
    const kubeconfig = join(dir, 'kubeconfig');
    let proc = startApiserver();
    await waitFor('readiness', () => proc.output().includes('Local API server ready'), { timeoutMs: 20_000 });
    const acknowledged: string[] = [];
    for (let i = 0; i < 20; i++) {
      await kubectl(kubeconfig, ['create', '-f', '-'], { input: configMap(`durable-${i}`, `data: {i: "${i}"}\n`) });
      acknowledged.push(`durable-${i}`);
    }
    const before = JSON.parse(await kubectl(kubeconfig, ['get', 'cm', '-n', 'default', '-o', 'json'])).metadata
      .resourceVersion;
    proc.child.kill('SIGKILL');
    await proc.exited;

    proc = startApiserver();
    await waitFor('readiness after restart', () => proc.output().includes('Local API server ready'), {
      timeoutMs: 20_000,
    });
    const names = JSON.parse(await kubectl(kubeconfig, ['get', 'cm', '-n', 'default', '-o', 'json'])).items.map(
      (i: { metadata: { name: string } }) => i.metadata.name,
    );
    expect(names).toEqual(expect.arrayContaining(acknowledged));
    // Revisions continue upwards: a new write gets a higher resourceVersion than anything before.
    const next = JSON.parse(
      await kubectl(kubeconfig, ['create', '-f', '-', '-o', 'json'], { input: configMap('after-restart') }),
    );
    expect(Number(next.metadata.resourceVersion)).toBeGreaterThan(Number(before));
    // A watch from before the restart either replays or is told to relist (410); never silently misses events.
    const res = await runKubectl(kubeconfig, [
      'get',
      '--raw',
      `/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${before}&timeoutSeconds=1`,
    ]);
    const events = res.stdout
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    const sawNew = events.some((e) => e.type === 'ADDED' && e.object.metadata?.name === 'after-restart');
    const told410 = events.some((e) => e.type === 'ERROR' && e.object.code === 410);
    expect(sawNew || told410).toBe(true);
    expect(await proc.stop()).toBe(0);
  });
});
