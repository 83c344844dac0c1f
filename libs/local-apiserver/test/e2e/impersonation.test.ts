// User impersonation with the real kubectl (--as, --as-group, --as-uid): the requester needs RBAC's `impersonate` on
// users, groups, serviceaccounts, uids and userextras, else kube's 403; the request then runs with the impersonated
// user's own permissions (plus system:authenticated, as kube adds it).
import { request } from 'node:https';
import { describe, expect, it } from 'vitest';
import { kubectl, runKubectl } from '@gardener-ts/test-support';
import { useBobCluster } from './bob-cluster.js';
import { rawClient, type RawResponse } from './raw-client.js';

const env = useBobCluster();
const admin = (args: string[], input?: string) => env.admin(args, input);

const asAdmin = (args: string[]) => runKubectl(env.cluster.kubeconfigPath, args);
const asBob = (args: string[]) => runKubectl(env.bobConfig, args);

/** A request as bob with extra headers. */
function bobRequest(path: string, headers: Record<string, string | string[]>): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${env.cluster.server.url}${path}`,
      { ca: env.cluster.server.credentials.ca.certPem, headers: { authorization: 'Bearer bob-token', ...headers } },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, json: () => JSON.parse(text) }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

async function waitForRbac(check: () => Promise<boolean>): Promise<void> {
  // RBAC reads a watch-fed snapshot; give a new binding a moment to arrive.
  for (let i = 0; i < 50 && !(await check()); i++) await new Promise((r) => setTimeout(r, 100));
}

describe('impersonation', () => {
  it('refuses --as for a user without impersonate permission, with kube’s 403', async () => {
    const raw = await bobRequest('/api/v1/namespaces/team/pods', { 'Impersonate-User': 'alice' });
    expect(raw.status).toBe(403);
    expect(raw.json()).toMatchObject({
      kind: 'Status',
      reason: 'Forbidden',
      message:
        'users "alice" is forbidden: User "bob" cannot impersonate resource "users" in API group "" at the cluster scope',
      details: { name: 'alice', kind: 'users' },
    });
    // kubectl reports discovery failures without the server's message (client-go reads them raw), so fill bob's
    // discovery cache first, as any earlier kubectl call of his would have.
    await kubectl(env.bobConfig, ['api-resources']);
    const res = await asBob(['--as=alice', 'get', 'pods', '-n', 'team']);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain(
      'users "alice" is forbidden: User "bob" cannot impersonate resource "users" in API group "" at the cluster scope',
    );

    const sa = await asBob(['--as=system:serviceaccount:team:robot', 'get', 'pods', '-n', 'team']);
    expect(sa.stderr).toContain(
      'serviceaccounts "robot" is forbidden: User "bob" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "team"',
    );
  });

  it('lets an admin act as alice, with alice’s own permissions', async () => {
    const forbidden = await asAdmin(['--as=alice', 'get', 'pods', '-n', 'team']);
    expect(forbidden.code).not.toBe(0);
    expect(forbidden.stderr).toContain(
      'pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "team"',
    );
    expect((await asAdmin(['--as=alice', 'auth', 'can-i', 'list', 'pods', '-n', 'team'])).stdout.trim()).toBe('no');

    await admin(['create', 'role', 'pod-reader', '-n', 'team', '--verb=get,list', '--resource=pods']);
    await admin(['create', 'rolebinding', 'alice-reads', '-n', 'team', '--role=pod-reader', '--user=alice']);
    await waitForRbac(
      async () =>
        (await asAdmin(['--as=alice', 'auth', 'can-i', 'list', 'pods', '-n', 'team'])).stdout.trim() === 'yes',
    );
    const allowed = await asAdmin(['--as=alice', 'get', 'pods', '-n', 'team']);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(allowed.stderr).toContain('No resources found in team namespace.');
    // Still only alice's permissions.
    const write = await asAdmin(['--as=alice', 'create', 'configmap', 'x', '-n', 'team']);
    expect(write.stderr).toContain(
      'configmaps is forbidden: User "alice" cannot create resource "configmaps" in API group "" in the namespace "team"',
    );
  });

  it('follows RBAC for impersonate on users, groups and uids, resourceNames included', async () => {
    await admin([
      'create',
      'clusterrole',
      'impersonate-alice',
      '--verb=impersonate',
      '--resource=users',
      '--resource-name=alice',
    ]);
    await admin(['create', 'clusterrolebinding', 'bob-impersonates', '--clusterrole=impersonate-alice', '--user=bob']);
    await waitForRbac(async () => (await asBob(['--as=alice', 'get', 'pods', '-n', 'team'])).code === 0);
    const asAlice = await asBob(['--as=alice', 'get', 'pods', '-n', 'team']);
    expect(asAlice.code, asAlice.stderr).toBe(0);

    const carol = await asBob(['--as=carol', 'get', 'pods', '-n', 'team']);
    expect(carol.stderr).toContain(
      'users "carol" is forbidden: User "bob" cannot impersonate resource "users" in API group "" at the cluster scope',
    );
    const group = await asBob(['--as=alice', '--as-group=admins', 'get', 'pods', '-n', 'team']);
    expect(group.stderr).toContain(
      'groups "admins" is forbidden: User "bob" cannot impersonate resource "groups" in API group "" at the cluster scope',
    );
    const uid = await asBob(['--as=alice', '--as-uid=1234', 'get', 'pods', '-n', 'team']);
    expect(uid.stderr).toContain(
      'uids.authentication.k8s.io "1234" is forbidden: User "bob" cannot impersonate resource "uids" in API group "authentication.k8s.io" at the cluster scope',
    );
    const extra = await bobRequest('/api/v1/namespaces/team/pods', {
      'Impersonate-User': 'alice',
      'Impersonate-Extra-Scopes': 'view',
    });
    expect(extra.status).toBe(403);
    expect(extra.json().message).toBe(
      'userextras/scopes.authentication.k8s.io "view" is forbidden: User "bob" cannot impersonate resource "userextras/scopes" in API group "authentication.k8s.io" at the cluster scope',
    );
  });

  it('gives the impersonated user system:authenticated unless the groups say otherwise, and the groups asked for', async () => {
    await admin(['create', 'namespace', 'open']);
    await admin(['create', 'role', 'cm-reader', '-n', 'open', '--verb=list', '--resource=configmaps']);
    await admin([
      'create',
      'rolebinding',
      'everyone-reads',
      '-n',
      'open',
      '--role=cm-reader',
      '--group=system:authenticated',
    ]);
    await admin(['create', 'rolebinding', 'auditors-read', '-n', 'team', '--role=pod-reader', '--group=auditors']);
    await waitForRbac(async () => (await asAdmin(['--as=dave', 'get', 'configmaps', '-n', 'open'])).code === 0);
    expect((await asAdmin(['--as=dave', 'get', 'configmaps', '-n', 'open'])).code).toBe(0);
    const unauthenticated = await asAdmin([
      '--as=dave',
      '--as-group=system:unauthenticated',
      'get',
      'configmaps',
      '-n',
      'open',
    ]);
    expect(unauthenticated.stderr).toContain(
      'configmaps is forbidden: User "dave" cannot list resource "configmaps" in API group "" in the namespace "open"',
    );

    expect((await asAdmin(['--as=dave', 'get', 'pods', '-n', 'team'])).code).not.toBe(0);
    const auditor = await asAdmin(['--as=dave', '--as-group=auditors', 'get', 'pods', '-n', 'team']);
    expect(auditor.code, auditor.stderr).toBe(0);
    // Impersonating a ServiceAccount without groups gives it the ServiceAccount groups.
    await admin([
      'create',
      'rolebinding',
      'team-sas-read',
      '-n',
      'team',
      '--role=pod-reader',
      '--group=system:serviceaccounts:team',
    ]);
    await waitForRbac(
      async () => (await asAdmin(['--as=system:serviceaccount:team:robot', 'get', 'pods', '-n', 'team'])).code === 0,
    );
    expect((await asAdmin(['--as=system:serviceaccount:team:robot', 'get', 'pods', '-n', 'team'])).code).toBe(0);
  });

  it('answers a group, uid or extra without a user with kube’s 500', async () => {
    const res = await rawClient(env.cluster.server).send('GET', '/api/v1/namespaces/team/pods', undefined, {
      'Impersonate-Group': 'admins',
    });
    expect(res.status).toBe(500);
    expect(res.body).toBe(
      'Internal Server Error: "/api/v1/namespaces/team/pods": requested [{Group  admins    }] without impersonating a user\n',
    );
  });
});
