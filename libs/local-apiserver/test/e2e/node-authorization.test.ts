// The Node authorizer and NodeRestriction with the real kubectl and a node client certificate (CN=system:node:n1,
// O=system:nodes): the node reads exactly the secrets of the pods bound to it, its own Node and Lease, and may not
// write other nodes' objects or its own labels outside the kubelet's set.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectl, runKubectl, waitFor } from '@gardener-ts/test-support';
import { startTestCluster, type TestCluster } from '../../src/index.js';
import { issueCertificate } from '../../src/pki/certs.js';
import { kubeconfig } from '../../src/pki/kubeconfig.js';

let cluster: TestCluster;
let admin: (args: string[], input?: string) => Promise<string>;
let node1: string;

beforeAll(async () => {
  cluster = await startTestCluster();
  admin = (args, input) => kubectl(cluster.kubeconfigPath, args, { input });
  const cert = await issueCertificate(cluster.server.credentials.ca, {
    commonName: 'system:node:n1',
    organizations: ['system:nodes'],
    usage: 'client',
  });
  node1 = join(cluster.dir, 'node-n1.kubeconfig');
  await writeFile(
    node1,
    kubeconfig('local', cluster.server.url, cluster.server.credentials.ca.certPem, {
      name: 'system:node:n1',
      clientCertificatePem: cert.certPem,
      clientKeyPem: cert.keyPem,
    }),
  );
  // The default ServiceAccount is made by a controller; pods need it.
  await waitFor(
    'default ServiceAccount',
    async () =>
      (await runKubectl(cluster.kubeconfigPath, ['get', 'serviceaccount', 'default'])).code === 0 || undefined,
    { timeoutMs: 30_000 },
  );
  const pod = (name: string, node: string, secret: string) => `
apiVersion: v1
kind: Pod
metadata: {name: ${name}, namespace: default}
spec:
  nodeName: ${node}
  containers: [{name: c, image: x, env: [{name: P, valueFrom: {secretKeyRef: {name: ${secret}-env, key: k}}}]}]
  volumes: [{name: s, secret: {secretName: ${secret}}}]
`;
  await admin(['create', 'secret', 'generic', 'mine', '--from-literal=k=v']);
  await admin(['create', 'secret', 'generic', 'mine-env', '--from-literal=k=v']);
  await admin(['create', 'secret', 'generic', 'theirs', '--from-literal=k=v']);
  await admin(['create', 'secret', 'generic', 'unrelated', '--from-literal=k=v']);
  await admin(['apply', '-f', '-'], pod('on-n1', 'n1', 'mine') + '---' + pod('on-n2', 'n2', 'theirs'));
}, 120_000);
afterAll(async () => cluster?.stop());

/** kubectl's answer: `yes`, or `no` followed by the authorizer's reason (`no - <reason>`). */
const canI = async (args: string[]) => (await runKubectl(node1, ['auth', 'can-i', ...args])).stdout.trim();
const NO_RELATION = "no - no relationship found between node 'n1' and this object";

describe('Node authorizer (kubectl as system:node:n1)', () => {
  it('can read exactly the secrets of its pods', async () => {
    expect(await canI(['get', 'secret/mine'])).toBe('yes');
    expect(await canI(['get', 'secret/mine-env'])).toBe('yes');
    expect(await canI(['get', 'secret/theirs'])).toBe(NO_RELATION);
    expect(await canI(['get', 'secret/unrelated'])).toBe(NO_RELATION);
    expect(await canI(['list', 'secrets'])).toBe('no - No Object name found');
    expect(await kubectl(node1, ['get', 'secret', 'mine', '-o', 'jsonpath={.data.k}'])).toBe(
      Buffer.from('v').toString('base64'),
    );
    const theirs = await runKubectl(node1, ['get', 'secret', 'theirs']);
    expect(theirs.code).not.toBe(0);
    expect(theirs.stderr).toContain(
      `secrets "theirs" is forbidden: User "system:node:n1" cannot get resource "secrets" in API group "" in the namespace "default": no relationship found between node 'n1' and this object`,
    );
    expect((await runKubectl(node1, ['get', 'secrets'])).stderr).toContain('cannot list resource "secrets"');
  }, 60_000);

  it('follows pods as they are bound and deleted', async () => {
    expect(await canI(['get', 'secret/unrelated'])).toBe(NO_RELATION);
    await admin(
      ['apply', '-f', '-'],
      `
apiVersion: v1
kind: Pod
metadata: {name: late, namespace: default}
spec: {nodeName: n1, containers: [{name: c, image: x}], volumes: [{name: s, secret: {secretName: unrelated}}]}
`,
    );
    expect(await canI(['get', 'secret/unrelated'])).toBe('yes');
    await admin(['delete', 'pod', 'late', '--grace-period=0', '--force', '--wait=false']);
    await waitFor(
      'secret unrelated no longer readable',
      async () => (await canI(['get', 'secret/unrelated'])) === NO_RELATION || undefined,
      { timeoutMs: 30_000 },
    );
  }, 60_000);

  it('registers and updates its own Node and Lease, not another node’s', async () => {
    await kubectl(node1, ['create', '-f', '-'], {
      input: '{"apiVersion":"v1","kind":"Node","metadata":{"name":"n1","labels":{"kubernetes.io/hostname":"n1"}}}',
    });
    expect(await kubectl(node1, ['get', 'node', 'n1', '-o', 'name'])).toBe('node/n1\n');
    const other = await runKubectl(node1, ['create', '-f', '-'], {
      input: '{"apiVersion":"v1","kind":"Node","metadata":{"name":"n2"}}',
    });
    expect(other.stderr).toContain('nodes "n2" is forbidden: node "n1" is not allowed to modify node "n2"');
    expect((await runKubectl(node1, ['get', 'node', 'n2'])).stderr).toContain(
      "node 'n1' cannot read 'n2', only its own Node object",
    );
    expect((await runKubectl(node1, ['label', 'node', 'n1', 'node-role.kubernetes.io/worker='])).stderr).toContain(
      'nodes "n1" is forbidden: is not allowed to modify labels: node-role.kubernetes.io/worker',
    );
    expect((await runKubectl(node1, ['label', 'node', 'n1', 'node.kubernetes.io/pool=a'])).code).toBe(0);
    const lease = (name: string) =>
      `{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"${name}","namespace":"kube-node-lease"},"spec":{"holderIdentity":"${name}"}}`;
    expect((await runKubectl(node1, ['create', '-f', '-'], { input: lease('n1') })).code).toBe(0);
    expect((await runKubectl(node1, ['create', '-f', '-'], { input: lease('n2') })).stderr).toContain(
      'leases.coordination.k8s.io "n2" is forbidden: can only access node lease with the same name as the requesting node',
    );
    expect(await canI(['update', 'lease/n1', '-n', 'kube-node-lease'])).toBe('yes');
    expect(await canI(['update', 'lease/n2', '-n', 'kube-node-lease'])).toBe(
      'no - can only access node lease with the same name as the requesting node',
    );
  }, 60_000);

  it('creates tokens only for service accounts of its pods, bound to them', async () => {
    expect(await canI(['create', 'serviceaccounts', '--subresource=token'])).toBe(
      'no - can only create tokens for individual service accounts',
    );
    expect(await canI(['create', 'serviceaccounts/other', '--subresource=token'])).toBe(NO_RELATION);
    const unbound = await runKubectl(node1, ['create', 'token', 'default']);
    expect(unbound.stderr).toContain('serviceaccounts "default" is forbidden: node requested token not bound to a pod');
    const uid = (await admin(['get', 'pod', 'on-n2', '-o', 'jsonpath={.metadata.uid}'])).trim();
    const foreign = await runKubectl(node1, [
      'create',
      'token',
      'default',
      '--bound-object-kind=Pod',
      '--bound-object-name=on-n2',
      `--bound-object-uid=${uid}`,
    ]);
    expect(foreign.stderr).toContain('node requested token bound to a pod scheduled on a different node');
    const mine = (await admin(['get', 'pod', 'on-n1', '-o', 'jsonpath={.metadata.uid}'])).trim();
    expect(
      (
        await runKubectl(node1, [
          'create',
          'token',
          'default',
          '--bound-object-kind=Pod',
          '--bound-object-name=on-n1',
          `--bound-object-uid=${mine}`,
        ])
      ).code,
    ).toBe(0);
  }, 60_000);
});
