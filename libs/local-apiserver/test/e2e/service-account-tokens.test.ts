// ServiceAccount tokens with the real kubectl: `kubectl create token` yields a token that authenticates as the
// ServiceAccount, is narrowed by RBAC, and stops working when the ServiceAccount or its bound object is deleted;
// TokenReview says who a token belongs to.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectl, runKubectl } from '@gardener-ts/test-support';
import { startTestCluster, type TestCluster } from '../../src/index.js';
import { kubeconfig } from '../../src/pki/kubeconfig.js';

let cluster: TestCluster;
let admin: (args: string[], input?: string) => Promise<string>;

beforeAll(async () => {
  cluster = await startTestCluster();
  admin = (args, input) => kubectl(cluster.kubeconfigPath, args, { input });
  await admin(['create', 'namespace', 'robots']);
});
afterAll(async () => cluster?.stop());

async function as(token: string, args: string[]) {
  const path = join(cluster.dir, `token-${Math.random().toString(36).slice(2)}.kubeconfig`);
  await writeFile(
    path,
    kubeconfig('local', cluster.server.url, cluster.server.credentials.ca.certPem, { name: 'sa', token }),
  );
  return runKubectl(path, args);
}

describe('ServiceAccount tokens', () => {
  it('authenticate as the ServiceAccount, narrowed by RBAC', async () => {
    await admin(['create', 'serviceaccount', 'robot', '-n', 'robots']);
    const token = (await admin(['create', 'token', 'robot', '-n', 'robots', '--duration=1h'])).trim();
    const denied = await as(token, ['get', 'configmaps', '-n', 'robots']);
    expect(denied.stderr).toContain('User "system:serviceaccount:robots:robot" cannot list resource "configmaps"');
    await admin(
      ['apply', '-f', '-'],
      `
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: robot-edit, namespace: robots}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: cluster-admin}
subjects: [{kind: ServiceAccount, name: robot, namespace: robots}]
`,
    );
    expect((await as(token, ['get', 'configmaps', '-n', 'robots'])).code).toBe(0);
    expect((await as(token, ['get', 'configmaps', '-n', 'default'])).code).not.toBe(0);

    const review = JSON.parse(
      await admin(
        ['create', '-o', 'json', '-f', '-'],
        `apiVersion: authentication.k8s.io/v1\nkind: TokenReview\nspec: {token: ${token}}\n`,
      ),
    );
    expect(review.status).toMatchObject({
      authenticated: true,
      user: {
        username: 'system:serviceaccount:robots:robot',
        groups: ['system:serviceaccounts', 'system:serviceaccounts:robots', 'system:authenticated'],
      },
    });

    await admin(['delete', 'serviceaccount', 'robot', '-n', 'robots']);
    const gone = await as(token, ['get', 'configmaps', '-n', 'robots']);
    expect(gone.code).not.toBe(0);
    expect(gone.stderr).toMatch(/Unauthorized|must be logged in/);
  });

  it('stop working when the bound Secret is deleted, and refuse other audiences', async () => {
    await admin(['create', 'serviceaccount', 'bound', '-n', 'robots']);
    await admin(['create', '-f', '-'], 'apiVersion: v1\nkind: Secret\nmetadata: {name: anchor, namespace: robots}\n');
    const token = (
      await admin([
        'create',
        'token',
        'bound',
        '-n',
        'robots',
        '--bound-object-kind=Secret',
        '--bound-object-name=anchor',
      ])
    ).trim();
    expect((await as(token, ['auth', 'can-i', 'get', 'pods'])).stdout.trim()).toBe('no');
    await admin(['delete', 'secret', 'anchor', '-n', 'robots']);
    expect((await as(token, ['auth', 'can-i', 'get', 'pods'])).code).not.toBe(0);

    const other = (await admin(['create', 'token', 'bound', '-n', 'robots', '--audience=vault'])).trim();
    expect((await as(other, ['auth', 'can-i', 'get', 'pods'])).code).not.toBe(0);
    const review = JSON.parse(
      await admin(
        ['create', '-o', 'json', '-f', '-'],
        `apiVersion: authentication.k8s.io/v1\nkind: TokenReview\nspec: {token: ${other}, audiences: [vault]}\n`,
      ),
    );
    expect(review.status).toMatchObject({ authenticated: true, audiences: ['vault'] });
  });

  it('refuses durations under 10 minutes', async () => {
    const res = await runKubectl(cluster.kubeconfigPath, ['create', 'token', 'bound', '-n', 'robots', '--duration=1m']);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain('spec.expirationSeconds');
  });
});
