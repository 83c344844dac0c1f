// RBAC with the real kubectl: a user bound to a namespaced Role can do exactly what the Role grants and gets
// kube's 403 otherwise; `kubectl auth can-i` answers through SelfSubjectAccessReview; ClusterRole aggregation and
// SubjectAccessReview work for other subjects.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectl, runKubectl } from '@gardener-ts/test-support';
import { startTestCluster, type TestCluster } from '../../src/index.js';
import { kubeconfig } from '../../src/pki/kubeconfig.js';

let cluster: TestCluster;
let admin: (args: string[], input?: string) => Promise<string>;
let aliceConfig: string;

beforeAll(async () => {
  const tokens = join(await mkdtemp(join(tmpdir(), 'rbac-test-')), 'tokens');
  await writeFile(tokens, 'alice-token,alice,uid-alice,"team-a"\n');
  cluster = await startTestCluster({ tokenFile: tokens });
  admin = (args, input) => kubectl(cluster.kubeconfigPath, args, { input });
  aliceConfig = join(cluster.dir, 'alice.kubeconfig');
  await writeFile(
    aliceConfig,
    kubeconfig('local', cluster.server.url, cluster.server.credentials.ca.certPem, {
      name: 'alice',
      token: 'alice-token',
    }),
  );
});
afterAll(async () => cluster?.stop());

const alice = (args: string[], input?: string) => runKubectl(aliceConfig, args, { input });

describe('RBAC', () => {
  it('grants what a namespaced Role allows and refuses the rest with kube’s 403', async () => {
    await admin(['create', '-f', '-'], 'apiVersion: v1\nkind: Namespace\nmetadata: {name: team}\n');
    await admin(
      ['create', '-f', '-'],
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings, namespace: team}\n',
    );
    await admin(
      ['apply', '-f', '-'],
      `
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: cm-reader, namespace: team}
rules:
- {apiGroups: [""], resources: [configmaps], verbs: [get, list, watch]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: alice-reads, namespace: team}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: cm-reader}
subjects:
- {apiGroup: rbac.authorization.k8s.io, kind: User, name: alice}
`,
    );
    expect((await alice(['get', 'configmaps', '-n', 'team', '-o', 'name'])).stdout).toContain('configmap/settings');

    const otherNamespace = await alice(['get', 'configmaps', '-n', 'default']);
    expect(otherNamespace.code).not.toBe(0);
    expect(otherNamespace.stderr).toContain(
      'configmaps is forbidden: User "alice" cannot list resource "configmaps" in API group "" in the namespace "default"',
    );

    const write = await alice(['delete', 'configmap', 'settings', '-n', 'team']);
    expect(write.stderr).toContain(
      'configmaps "settings" is forbidden: User "alice" cannot delete resource "configmaps" in API group "" in the namespace "team"',
    );
    const clusterScope = await alice(['get', 'nodes']);
    expect(clusterScope.stderr).toContain(
      'nodes is forbidden: User "alice" cannot list resource "nodes" in API group "" at the cluster scope',
    );
  });

  it('applies resourceNames to a list or watch that selects one object by metadata.name, as kube does', async () => {
    await admin(
      ['apply', '-f', '-'],
      `
apiVersion: v1
kind: Namespace
metadata: {name: solo}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: mine, namespace: solo}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: settings, namespace: solo}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: one-cm, namespace: solo}
rules:
- {apiGroups: [""], resources: [configmaps], resourceNames: [mine], verbs: [get, list, watch]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: alice-reads-one, namespace: solo}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: one-cm}
subjects:
- {apiGroup: rbac.authorization.k8s.io, kind: User, name: alice}
`,
    );
    const selected = await alice([
      'get',
      'configmaps',
      '-n',
      'solo',
      '--field-selector=metadata.name=mine',
      '-o',
      'name',
    ]);
    expect(selected.stdout, selected.stderr).toContain('configmap/mine');
    const all = await alice(['get', 'configmaps', '-n', 'solo']);
    expect(all.stderr).toContain('cannot list resource "configmaps"');
    const other = await alice(['get', 'configmaps', '-n', 'solo', '--field-selector=metadata.name=settings']);
    expect(other.stderr).toContain('configmaps "settings" is forbidden');
  });

  it('answers kubectl auth can-i', async () => {
    expect((await alice(['auth', 'can-i', 'list', 'configmaps', '-n', 'team'])).stdout.trim()).toBe('yes');
    const no = await alice(['auth', 'can-i', 'create', 'configmaps', '-n', 'team']);
    expect(no.stdout.trim()).toBe('no');
    expect((await admin(['auth', 'can-i', '*', '*'])).trim()).toBe('yes');
  });

  it('follows group subjects and ClusterRole aggregation', async () => {
    await admin(
      ['apply', '-f', '-'],
      `
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: aggregate-readers}
aggregationRule:
  clusterRoleSelectors: [{matchLabels: {example.com/aggregate-to-readers: "true"}}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: secret-lister, labels: {example.com/aggregate-to-readers: "true"}}
rules:
- {apiGroups: [""], resources: [secrets], verbs: [list]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: team-a-readers}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: aggregate-readers}
subjects:
- {apiGroup: rbac.authorization.k8s.io, kind: Group, name: team-a}
`,
    );
    expect((await alice(['get', 'secrets', '-A'])).code).toBe(0);
    expect((await alice(['get', 'secrets', '-n', 'team', 'x'])).stderr).toContain('cannot get resource "secrets"');
  });

  it('answers SubjectAccessReviews for other users and service accounts', async () => {
    const review = (spec: string) =>
      admin(
        ['create', '-o', 'json', '-f', '-'],
        `apiVersion: authorization.k8s.io/v1\nkind: SubjectAccessReview\nspec:\n${spec}`,
      ).then((out) => JSON.parse(out).status);
    expect(
      await review('  user: alice\n  resourceAttributes: {namespace: team, verb: get, resource: configmaps}\n'),
    ).toMatchObject({ allowed: true });
    expect(
      await review('  user: bob\n  resourceAttributes: {namespace: team, verb: get, resource: configmaps}\n'),
    ).toMatchObject({ allowed: false });
    expect(
      await review(
        '  user: anyone\n  groups: [system:masters]\n  nonResourceAttributes: {path: /metrics, verb: get}\n',
      ),
    ).toMatchObject({ allowed: true });
  });
});
