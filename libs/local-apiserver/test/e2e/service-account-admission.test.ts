// Every namespace gets its `default` ServiceAccount and `kube-root-ca.crt`; Pods get a ServiceAccount and a
// projected API access volume, as kube's controller-manager and ServiceAccount admission plugin do.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectl, runKubectl, waitFor } from '@gardener-ts/test-support';
import { startTestCluster, type TestCluster } from '../../src/index.js';

let cluster: TestCluster;
let k: (args: string[], input?: string) => Promise<string>;

beforeAll(async () => {
  cluster = await startTestCluster();
  k = (args, input) => kubectl(cluster.kubeconfigPath, args, { input });
});
afterAll(async () => cluster?.stop());

const pod = (name: string, extra = '') => `apiVersion: v1
kind: Pod
metadata: {name: ${name}, namespace: apps}
spec:
${extra}  containers: [{name: app, image: nginx}]
`;

describe('ServiceAccounts in namespaces and Pods', () => {
  it('gives every namespace a default ServiceAccount and the root CA, and brings them back', async () => {
    await k(['create', 'namespace', 'apps']);
    await waitFor(
      'the default ServiceAccount',
      async () => (await runKubectl(cluster.kubeconfigPath, ['get', 'sa', 'default', '-n', 'apps'])).code === 0,
    );
    const ca = JSON.parse(await k(['get', 'configmap', 'kube-root-ca.crt', '-n', 'apps', '-o', 'json']));
    expect(ca.data['ca.crt']).toBe(cluster.server.credentials.ca.certPem);
    await k(['delete', 'sa', 'default', '-n', 'apps']);
    await waitFor(
      'the default ServiceAccount again',
      async () => (await runKubectl(cluster.kubeconfigPath, ['get', 'sa', 'default', '-n', 'apps'])).code === 0,
    );
  });

  it('mounts a projected API access volume into Pods, unless automounting is off', async () => {
    const created = JSON.parse(await k(['create', '-o', 'json', '-f', '-'], pod('web')));
    expect(created.spec.serviceAccountName).toBe('default');
    const volume = created.spec.volumes.find((v: { name: string }) => v.name.startsWith('kube-api-access-'));
    expect(volume.projected.sources.map((s: object) => Object.keys(s)[0])).toEqual([
      'serviceAccountToken',
      'configMap',
      'downwardAPI',
    ]);
    expect(created.spec.containers[0].volumeMounts).toEqual([
      { name: volume.name, readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' },
    ]);

    const plain = JSON.parse(
      await k(['create', '-o', 'json', '-f', '-'], pod('plain', '  automountServiceAccountToken: false\n')),
    );
    expect(plain.spec.volumes).toBeUndefined();
  });

  it('refuses Pods naming a ServiceAccount that does not exist', async () => {
    const res = await runKubectl(cluster.kubeconfigPath, ['create', '-f', '-'], {
      input: pod('lost', '  serviceAccountName: ghost\n'),
    });
    expect(res.stderr).toContain(
      'pods "lost" is forbidden: error looking up service account apps/ghost: serviceaccount "ghost" not found',
    );
  });

  it('binds a Pod to a node once (pods/binding) and evicts it (pods/eviction)', async () => {
    await k(['create', '-f', '-'], pod('placed'));
    const bind = (node: string) =>
      runKubectl(
        cluster.kubeconfigPath,
        ['create', '--raw', '/api/v1/namespaces/apps/pods/placed/binding', '-f', '-'],
        {
          input: JSON.stringify({
            apiVersion: 'v1',
            kind: 'Binding',
            metadata: { name: 'placed' },
            target: { apiVersion: 'v1', kind: 'Node', name: node },
          }),
        },
      );
    expect((await bind('node-1')).code).toBe(0);
    const placed = JSON.parse(await k(['get', 'pod', 'placed', '-n', 'apps', '-o', 'json']));
    expect(placed.spec.nodeName).toBe('node-1');
    expect(placed.status.conditions).toEqual([expect.objectContaining({ type: 'PodScheduled', status: 'True' })]);
    expect((await bind('node-2')).stderr).toContain('is already assigned to node "node-1"');

    const evicted = await runKubectl(
      cluster.kubeconfigPath,
      ['create', '--raw', '/api/v1/namespaces/apps/pods/placed/eviction', '-f', '-'],
      {
        input: JSON.stringify({
          apiVersion: 'policy/v1',
          kind: 'Eviction',
          metadata: { name: 'placed', namespace: 'apps' },
          deleteOptions: { gracePeriodSeconds: 0 },
        }),
      },
    );
    expect(evicted.code, evicted.stderr).toBe(0);
    expect((await runKubectl(cluster.kubeconfigPath, ['get', 'pod', 'placed', '-n', 'apps'])).stderr).toMatch(
      /NotFound/,
    );
  });
});
