// kube's bootstrap RBAC policy with the real kubectl: binding the user-facing `view`/`edit`/`admin` roles grants what
// kube's roles grant (`kubectl auth can-i ... --as`), a ClusterRole labelled `aggregate-to-view` extends view, edit
// and admin (and leaves them when the label goes), and a restart reconciles the policy as kube does: missing roles
// and rules come back, extra permissions stay, `autoupdate: "false"` roles are left alone.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectl, runKubectl, waitFor } from '@gardener-ts/test-support';
import { LocalApiServer } from '../../src/index.js';

let dir: string;
let server: LocalApiServer;
const k = (args: string[], input?: string) => kubectl(server.kubeconfigPath!, args, { input });
const canI = async (...args: string[]) =>
  (await runKubectl(server.kubeconfigPath!, ['auth', 'can-i', ...args])).stdout.trim();
/** Asks `kubectl auth can-i` every question at once and compares the answers, each named by its question. */
async function expectCanI(expected: [question: string[], answer: 'yes' | 'no'][]): Promise<void> {
  const answers = await Promise.all(expected.map(([question]) => canI(...question)));
  expect(Object.fromEntries(expected.map(([question], i) => [question.join(' '), answers[i]]))).toEqual(
    Object.fromEntries(expected.map(([question, answer]) => [question.join(' '), answer])),
  );
}
const rulesOf = async (role: string) => JSON.parse(await k(['get', 'clusterrole', role, '-o', 'json'])).rules ?? [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bootstrap-rbac-'));
  server = await LocalApiServer.start({ dataDir: dir, storage: 'file' });
});
afterAll(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe("kube's bootstrap RBAC policy", () => {
  it('binding view grants reads, not writes or secrets', async () => {
    await k(['create', 'clusterrolebinding', 'u-view', '--clusterrole=view', '--user=u']);
    await expectCanI([
      [['list', 'pods', '--as=u'], 'yes'],
      [['get', 'deployments.apps', '-n', 'kube-system', '--as=u'], 'yes'],
      [['create', 'pods', '--as=u'], 'no'],
      [['get', 'secrets', '--as=u'], 'no'],
    ]);
  });

  it('edit and admin nest view: edit writes workloads and reads secrets, admin also manages roles', async () => {
    await k(['create', 'rolebinding', 'e-edit', '--clusterrole=edit', '--user=e', '-n', 'default']);
    await k(['create', 'rolebinding', 'a-admin', '--clusterrole=admin', '--user=a', '-n', 'default']);
    await expectCanI([
      [['create', 'deployments.apps', '-n', 'default', '--as=e'], 'yes'],
      [['get', 'secrets', '-n', 'default', '--as=e'], 'yes'],
      [['list', 'pods', '-n', 'default', '--as=e'], 'yes'],
      [['create', 'roles.rbac.authorization.k8s.io', '-n', 'default', '--as=e'], 'no'],
      [['create', 'roles.rbac.authorization.k8s.io', '-n', 'default', '--as=a'], 'yes'],
      [['list', 'pods', '-n', 'default', '--as=a'], 'yes'],
      [['list', 'pods', '-n', 'kube-system', '--as=a'], 'no'],
    ]);
    // The aggregated rules are written into the roles, as kube's aggregation controller does.
    expect(await rulesOf('admin')).toContainEqual({
      apiGroups: [''],
      resources: ['namespaces'],
      verbs: ['get', 'list', 'watch'],
    });
  });

  it('a ClusterRole labelled aggregate-to-view shows up in view, edit and admin, and leaves with its label', async () => {
    const storageClasses = {
      apiGroups: ['storage.k8s.io'],
      resources: ['storageclasses'],
      verbs: ['get', 'list', 'watch'],
    };
    await k(
      ['apply', '-f', '-'],
      `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: storageclasses-view
  labels: { rbac.authorization.k8s.io/aggregate-to-view: "true" }
rules:
- { apiGroups: [storage.k8s.io], resources: [storageclasses], verbs: [get, list, watch] }
`,
    );
    await Promise.all(
      ['view', 'edit', 'admin'].map((role) =>
        waitFor(`${role} to aggregate storageclasses`, async () =>
          (await rulesOf(role)).some((r: any) => JSON.stringify(r) === JSON.stringify(storageClasses)),
        ),
      ),
    );
    expect(await canI('list', 'storageclasses.storage.k8s.io', '--as=u')).toBe('yes');
    await k(['label', 'clusterrole', 'storageclasses-view', 'rbac.authorization.k8s.io/aggregate-to-view-']);
    await Promise.all(
      ['view', 'edit', 'admin'].map((role) =>
        waitFor(
          `${role} to drop storageclasses`,
          async () => !(await rulesOf(role)).some((r: any) => JSON.stringify(r) === JSON.stringify(storageClasses)),
        ),
      ),
    );
    expect(await canI('list', 'storageclasses.storage.k8s.io', '--as=u')).toBe('no');
  });

  it('serves the system roles and bindings components rely on', async () => {
    const roles = await k(['get', 'clusterroles', '-o', 'name']);
    for (const name of [
      'system:kube-controller-manager',
      'system:kube-scheduler',
      'system:node-proxier',
      'system:auth-delegator',
      'system:certificates.k8s.io:kubelet-serving-approver',
      'system:monitoring',
      'system:service-account-issuer-discovery',
      'system:aggregate-to-edit',
    ]) {
      expect(roles).toContain(`clusterrole.rbac.authorization.k8s.io/${name}\n`);
    }
    const replicaSets = '--as=system:serviceaccount:kube-system:replicaset-controller';
    await expectCanI([
      [['create', 'pods', '--subresource=binding', '--as=system:kube-scheduler'], 'yes'],
      [['list', 'endpointslices.discovery.k8s.io', '--as=system:kube-proxy'], 'yes'],
      [['get', '/metrics', '--as=m', '--as-group=system:monitoring'], 'yes'],
      // Namespaced bootstrap Roles: components read the extension-apiserver-authentication ConfigMap and take leases.
      [
        ['get', 'configmaps/extension-apiserver-authentication', '-n', 'kube-system', '--as=system:kube-scheduler'],
        'yes',
      ],
      [['get', 'configmaps/other', '-n', 'kube-system', '--as=system:kube-scheduler'], 'no'],
      [['update', 'leases.coordination.k8s.io', '-n', 'kube-system', '--as=system:kube-controller-manager'], 'yes'],
      [['create', 'pods', '-n', 'default', replicaSets], 'yes'],
      [['update', 'replicasets.apps', '-n', 'default', '--subresource=status', replicaSets], 'yes'],
      [['get', 'secrets', '-n', 'default', replicaSets], 'no'],
    ]);
  });

  it('a restart reconciles: missing roles and rules return, extra permissions and autoupdate=false stay', async () => {
    await k(['delete', 'clusterrole', 'system:kube-dns']);
    await k(['delete', 'clusterrolebinding', 'system:kube-scheduler']);
    // basic-user loses a rule and gains one; heapster is protected and emptied.
    await k([
      'patch',
      'clusterrole',
      'system:basic-user',
      '--type=json',
      '-p',
      '[{"op":"replace","path":"/rules","value":[{"apiGroups":[""],"resources":["configmaps"],"verbs":["get"]}]}]',
    ]);
    await k([
      'annotate',
      'clusterrole',
      'system:heapster',
      '--overwrite',
      'rbac.authorization.kubernetes.io/autoupdate=false',
    ]);
    await k([
      'patch',
      'clusterrole',
      'system:heapster',
      '--type=json',
      '-p',
      '[{"op":"replace","path":"/rules","value":[]}]',
    ]);
    await server.stop();
    server = await LocalApiServer.start({ dataDir: dir, storage: 'file' });
    expect(await rulesOf('system:kube-dns')).toEqual([
      { apiGroups: [''], resources: ['endpoints', 'services'], verbs: ['list', 'watch'] },
    ]);
    expect(await canI('create', 'pods', '--subresource=binding', '--as=system:kube-scheduler')).toBe('yes');
    const basic = await rulesOf('system:basic-user');
    expect(basic[0]).toEqual({ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] });
    expect(basic).toContainEqual({
      apiGroups: ['authentication.k8s.io'],
      resources: ['selfsubjectreviews'],
      verbs: ['create'],
    });
    expect(await rulesOf('system:heapster')).toEqual([]);
    // What users created survives too.
    expect(await canI('list', 'pods', '--as=u')).toBe('yes');
  });
});
