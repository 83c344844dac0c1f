// kube's DefaultTolerationSeconds admission plugin with the real kubectl: a Pod gets 300 s NoExecute tolerations for
// node.kubernetes.io/not-ready and node.kubernetes.io/unreachable unless it already tolerates that taint (a
// toleration whose key is the taint's or empty and whose effect is NoExecute or empty).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectl } from '@gardener-ts/test-support';
import { startTestCluster, type TestCluster } from '../../src/index.js';
import { rawClient } from './raw-client.js';

let cluster: TestCluster;
let k: (args: string[], input?: string) => Promise<string>;

beforeAll(async () => {
  cluster = await startTestCluster();
  k = (args, input) => kubectl(cluster.kubeconfigPath, args, { input });
  await k(['create', 'namespace', 'tol']);
});
afterAll(async () => cluster?.stop());

const NOT_READY = {
  key: 'node.kubernetes.io/not-ready',
  operator: 'Exists',
  effect: 'NoExecute',
  tolerationSeconds: 300,
};
const UNREACHABLE = {
  key: 'node.kubernetes.io/unreachable',
  operator: 'Exists',
  effect: 'NoExecute',
  tolerationSeconds: 300,
};

const pod = (name: string, tolerations?: object[]) =>
  JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'tol' },
    spec: {
      automountServiceAccountToken: false,
      containers: [{ name: 'app', image: 'nginx' }],
      ...(tolerations ? { tolerations } : {}),
    },
  });

const create = async (name: string, tolerations?: object[]) =>
  JSON.parse(await k(['create', '-o', 'json', '-f', '-'], pod(name, tolerations)));
const get = async (name: string) => JSON.parse(await k(['get', 'pod', name, '-n', 'tol', '-o', 'json']));

describe('DefaultTolerationSeconds admission', () => {
  it('gives a created Pod both default tolerations', async () => {
    const created = await create('plain');
    expect(created.spec.tolerations).toEqual([NOT_READY, UNREACHABLE]);
    expect((await get('plain')).spec.tolerations).toEqual([NOT_READY, UNREACHABLE]);
  });

  it('adds nothing for a taint the Pod already tolerates', async () => {
    // No key and no effect tolerates every taint.
    const all = [{ operator: 'Exists' }];
    expect((await create('tolerates-all', all)).spec.tolerations).toEqual(all);

    // The not-ready key with an empty effect tolerates it; unreachable still gets its default.
    const notReady = [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', tolerationSeconds: 60 }];
    expect((await create('tolerates-not-ready', notReady)).spec.tolerations).toEqual([...notReady, UNREACHABLE]);

    // No key with effect NoExecute tolerates both.
    const noExecute = [{ operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 10 }];
    expect((await create('tolerates-no-execute', noExecute)).spec.tolerations).toEqual(noExecute);
  });

  it('does not count tolerations of other taints or effects', async () => {
    const others = [
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoExecute' },
    ];
    expect((await create('tolerates-others', others)).spec.tolerations).toEqual([...others, NOT_READY, UNREACHABLE]);
  });

  it('leaves updates of a Pod that has its tolerations, and its status, alone', async () => {
    await k(['label', 'pod', 'tolerates-all', '-n', 'tol', 'tier=web']);
    const labelled = await get('tolerates-all');
    expect(labelled.metadata.labels).toEqual({ tier: 'web' });
    expect(labelled.spec.tolerations).toEqual([{ operator: 'Exists' }]);

    await k(['annotate', 'pod', 'plain', '-n', 'tol', 'note=x']);
    expect((await get('plain')).spec.tolerations).toEqual([NOT_READY, UNREACHABLE]);

    // A status update is a subresource write: the plugin does not run on it.
    const raw = rawClient(cluster.server);
    const current = await get('tolerates-no-execute');
    const res = await raw.send(
      'PUT',
      '/api/v1/namespaces/tol/pods/tolerates-no-execute/status',
      JSON.stringify({ ...current, status: { ...current.status, phase: 'Running' } }),
    );
    expect(res.status).toBe(200);
    expect(res.json().status.phase).toBe('Running');
    expect(res.json().spec.tolerations).toEqual([{ operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 10 }]);
  });

  it('runs on UPDATE of the Pod itself too, as kube registers it (an update dropping them gets them back)', async () => {
    const current = await get('tolerates-all');
    const replaced = JSON.parse(
      await k(
        ['replace', '-o', 'json', '-f', '-'],
        JSON.stringify({ ...current, spec: { ...current.spec, tolerations: undefined } }),
      ),
    );
    expect(replaced.spec.tolerations).toEqual([NOT_READY, UNREACHABLE]);
  });
});
