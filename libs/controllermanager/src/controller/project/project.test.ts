import { describe, expect, it } from 'vitest';
import type { Project } from '@gardener-ts/api';
import { example } from '../../../test/support/examples.js';
import { planNamespaceRelease, planProjectNamespace, projectNamespaceName } from './namespace.js';
import { desiredProjectRBAC } from './rbac.js';

function project(changes: Partial<Project['spec']> = {}): Project {
  const p = example<Project>('local', 'project.yaml');
  p.metadata = { ...p.metadata, uid: '6f1d8a3e-0000-4000-8000-000000000001' };
  p.spec = { ...p.spec, ...changes };
  return p;
}

describe('project namespace', () => {
  it('uses spec.namespace, else a name derived from the project name and uid', () => {
    expect(projectNamespaceName(project())).toBe('garden-local');
    const unnamed = project({ namespace: undefined });
    expect(projectNamespaceName(unnamed)).toMatch(/^garden-local-[0-9a-f]{5}$/);
    expect(projectNamespaceName(unnamed)).toBe(projectNamespaceName(structuredClone(unnamed)));
  });

  it("creates a missing namespace with the project labels, the project's uid and a controller owner reference", () => {
    const plan = planProjectNamespace(project(), undefined);
    expect(plan).toMatchObject({
      action: 'create',
      namespace: {
        metadata: {
          name: 'garden-local',
          labels: { 'gardener.cloud/role': 'project', 'project.gardener.cloud/name': 'local' },
          annotations: {
            'namespace.gardener.cloud/project': '6f1d8a3e-0000-4000-8000-000000000001',
            'namespace.gardener.cloud/created-by-project-controller': 'true',
          },
          ownerReferences: [
            { apiVersion: 'core.gardener.cloud/v1beta1', kind: 'Project', name: 'local', controller: true },
          ],
        },
      },
    });
  });

  it("adopts Gardener's example namespace (keeping it after the project), refuses one without the labels or of another project", () => {
    const adopted = planProjectNamespace(project(), example('local', 'namespace.yaml'));
    expect(adopted).toMatchObject({
      action: 'adopt',
      metadata: { annotations: { 'namespace.gardener.cloud/keep-after-project-deletion': 'true' } },
    });
    expect(planProjectNamespace(project(), { metadata: { name: 'garden-local', labels: {} } })).toEqual({
      action: 'refuse',
      error:
        'namespace cannot be used as it needs the project labels {"gardener.cloud/role":"project","project.gardener.cloud/name":"local"}',
    });
    const other = example('local', 'namespace.yaml');
    other.metadata.annotations = { 'namespace.gardener.cloud/project': 'someone-else' };
    expect(planProjectNamespace(project(), other)).toEqual({
      action: 'refuse',
      error: 'namespace is already in-use by another project',
    });
  });

  it('deletes a namespace it created, keeps an adopted one without the project marks, leaves a foreign one', () => {
    const p = project();
    const created = planProjectNamespace(p, undefined);
    if (created.action !== 'create') throw new Error('expected create');
    expect(planNamespaceRelease(p, created.namespace)).toEqual({ action: 'delete' });
    const adopted = planProjectNamespace(p, example('local', 'namespace.yaml'));
    if (adopted.action !== 'adopt') throw new Error('expected adopt');
    expect(planNamespaceRelease(p, { metadata: adopted.metadata })).toEqual({
      action: 'keep',
      metadata: { name: 'garden-local', labels: {}, annotations: {}, ownerReferences: [] },
    });
    expect(planNamespaceRelease(p, { metadata: { name: 'garden-local', labels: { a: 'b' } } })).toEqual({
      action: 'foreign',
    });
    expect(planNamespaceRelease(p, undefined)).toEqual({ action: 'gone' });
  });
});

describe('desiredProjectRBAC', () => {
  it("binds owner, members, viewers, user access managers and extension roles with Gardener's role names", () => {
    const p = project({
      owner: { apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'alice@example.com' },
      members: [
        {
          apiGroup: 'rbac.authorization.k8s.io',
          kind: 'User',
          name: 'alice@example.com',
          role: 'admin',
          roles: ['owner'],
        },
        {
          apiGroup: 'rbac.authorization.k8s.io',
          kind: 'User',
          name: 'bob@example.com',
          role: 'viewer',
          roles: ['uam', 'extension:foo'],
        },
        { kind: 'ServiceAccount', name: 'robot', namespace: 'garden-local', role: 'serviceaccountmanager' },
      ],
    });
    const objects = desiredProjectRBAC(p);
    const byKey = new Map(objects.map((o) => [`${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`, o]));
    const subjects = (key: string) => byKey.get(key)?.subjects?.map((s) => s.name);
    expect([...byKey.keys()].sort()).toEqual([
      'ClusterRole//gardener.cloud:extension:project:local:foo',
      'ClusterRole//gardener.cloud:system:project-member:local',
      'ClusterRole//gardener.cloud:system:project-uam:local',
      'ClusterRole//gardener.cloud:system:project-viewer:local',
      'ClusterRole//gardener.cloud:system:project:local',
      'ClusterRoleBinding//gardener.cloud:system:project-member:local',
      'ClusterRoleBinding//gardener.cloud:system:project-uam:local',
      'ClusterRoleBinding//gardener.cloud:system:project-viewer:local',
      'ClusterRoleBinding//gardener.cloud:system:project:local',
      'RoleBinding/garden-local/gardener.cloud:extension:project:local:foo',
      'RoleBinding/garden-local/gardener.cloud:system:project-member',
      'RoleBinding/garden-local/gardener.cloud:system:project-serviceaccountmanager',
      'RoleBinding/garden-local/gardener.cloud:system:project-viewer',
    ]);
    expect(subjects('ClusterRoleBinding//gardener.cloud:system:project:local')).toEqual(['alice@example.com']);
    expect(subjects('RoleBinding/garden-local/gardener.cloud:system:project-member')).toEqual(['alice@example.com']);
    expect(subjects('RoleBinding/garden-local/gardener.cloud:system:project-viewer')).toEqual(['bob@example.com']);
    expect(subjects('ClusterRoleBinding//gardener.cloud:system:project-uam:local')).toEqual(['bob@example.com']);
    expect(subjects('RoleBinding/garden-local/gardener.cloud:system:project-serviceaccountmanager')).toEqual([
      'alice@example.com',
      'robot',
    ]);
    expect(byKey.get('ClusterRole//gardener.cloud:system:project:local')?.rules).toEqual([
      { apiGroups: [''], resources: ['namespaces'], resourceNames: ['garden-local'], verbs: ['get'] },
      {
        apiGroups: ['core.gardener.cloud'],
        resources: ['projects'],
        resourceNames: ['local'],
        verbs: ['get', 'patch', 'manage-members', 'update', 'delete'],
      },
    ]);
    expect(byKey.get('ClusterRole//gardener.cloud:extension:project:local:foo')?.aggregationRule).toEqual({
      clusterRoleSelectors: [{ matchLabels: { 'rbac.gardener.cloud/aggregate-to-extension-role': 'foo' } }],
    });
    expect(objects.every((o) => o.metadata.ownerReferences[0]?.uid === p.metadata!.uid)).toBe(true);
  });
});
