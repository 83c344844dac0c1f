import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Project } from '@gardener-ts/api';
import { applyMergePatch, type KubernetesObject } from '@gardener-ts/controller-runtime';
import { silentContext } from '../../../test/support/csr.js';
import { example } from '../../../test/support/examples.js';
import { FakeGarden } from '../testing/fake-garden.js';
import { planNamespaceRelease, planProjectNamespace, projectNamespaceName } from './namespace.js';
import {
  desiredResourceQuota,
  mergeHard,
  projectControllerRef,
  quotaConfigurationForProject,
  resourceQuotaPatch,
  type QuotaConfiguration,
  type ResourceQuota,
} from './quota.js';
import { desiredProjectRBAC } from './rbac.js';
import { ProjectReconciler } from './reconciler.js';

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

const quota = (hard: Record<string, string>, projectSelector?: QuotaConfiguration['projectSelector']) =>
  ({
    config: { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { labels: { quota: 'gardener' } }, spec: { hard } },
    ...(projectSelector ? { projectSelector } : {}),
  }) as QuotaConfiguration;

describe('project ResourceQuota', () => {
  it('takes the first configuration whose selector matches; an absent selector matches every project', () => {
    const p = project();
    p.metadata!.labels = { stage: 'dev' };
    const dev = quota({ 'count/secrets': '1' }, { matchLabels: { stage: 'dev' } });
    const all = quota({ 'count/secrets': '2' }, {});
    const absent = quota({ 'count/secrets': '0' });
    expect(quotaConfigurationForProject([absent, dev, all], p)).toBe(absent);
    expect(quotaConfigurationForProject([dev, absent], p)).toBe(dev);
    expect(quotaConfigurationForProject([all, dev], p)).toBe(all);
    expect(quotaConfigurationForProject([quota({}, { matchLabels: { stage: 'prod' } })], p)).toBeUndefined();
    expect(quotaConfigurationForProject(undefined, p)).toBeUndefined();
    expect(() =>
      quotaConfigurationForProject([quota({}, { matchExpressions: [{ key: 'a', operator: 'Maybe' }] })], p),
    ).toThrow('"Maybe" is not a valid label selector operator');
  });

  it('keeps existing limits of configured resources, adds missing ones and drops unconfigured ones', () => {
    expect(mergeHard({ 'count/secrets': '10', cpu: '4' }, { 'count/secrets': '400', 'count/shoots': '100' })).toEqual({
      'count/secrets': '10',
      'count/shoots': '100',
    });
    expect(mergeHard(undefined, { 'count/shoots': '100' })).toEqual({ 'count/shoots': '100' });
  });

  const resources = fc.constantFrom('count/shoots.core.gardener.cloud', 'count/secrets', 'cpu', 'memory', 'pods');
  const limits = fc.dictionary(resources, fc.integer({ min: 0, max: 1000 }).map(String));
  const labels = fc.dictionary(fc.constantFrom('a', 'b', 'c'), fc.constantFrom('x', 'y'));

  it('property: the merged quota has exactly the configured resources, existing values winning; merging is idempotent and the patch reproduces it', () => {
    fc.assert(
      fc.property(limits, limits, labels, labels, fc.boolean(), (before, configured, oldLabels, newLabels, exists) => {
        const owner = projectControllerRef(project());
        const config = {
          config: { metadata: { labels: newLabels }, spec: { hard: configured } },
          projectSelector: {},
        } as QuotaConfiguration;
        const existing: ResourceQuota | undefined = exists
          ? {
              apiVersion: 'v1',
              kind: 'ResourceQuota',
              metadata: { name: 'gardener', namespace: 'garden-local', labels: oldLabels, resourceVersion: '7' },
              spec: { hard: before, scopes: ['NotTerminating'] },
            }
          : undefined;
        const desired = desiredResourceQuota(existing, 'garden-local', owner, config);
        const hard = desired.spec!.hard!;
        expect(Object.keys(hard).sort()).toEqual(Object.keys(configured).sort());
        for (const [r, q] of Object.entries(hard)) expect(q).toBe(exists && r in before ? before[r] : configured[r]);
        expect(desired.metadata?.labels ?? {}).toEqual({ ...(exists ? oldLabels : {}), ...newLabels });
        expect(desired.metadata?.ownerReferences).toEqual([owner]);
        if (exists) expect(desired.spec?.scopes).toEqual(['NotTerminating']);
        // A second reconciliation changes nothing.
        expect(desiredResourceQuota(desired, 'garden-local', owner, config)).toEqual(desired);
        expect(resourceQuotaPatch(desired, desired)).toBeUndefined();
        if (existing) {
          const patch = resourceQuotaPatch(existing, desired);
          const patched = (patch ? applyMergePatch(existing, patch) : existing) as ResourceQuota;
          expect(patched.spec?.hard ?? {}).toEqual(hard);
          expect(patched.metadata?.labels ?? {}).toEqual(desired.metadata?.labels ?? {});
          expect(patched.metadata?.ownerReferences).toEqual([owner]);
        }
      }),
    );
  });
});

describe('ProjectReconciler', () => {
  const reconcilerFor = (garden: FakeGarden, quotas?: QuotaConfiguration[]) => {
    const events: string[] = [];
    const applied: KubernetesObject[] = [];
    const reconciler = new ProjectReconciler({
      client: garden as never,
      api: { apply: async (obj: KubernetesObject) => (applied.push(obj), obj) } as never,
      events: {
        event: (_o: unknown, type: string, reason: string, message: string) =>
          events.push(`${type} ${reason} ${message}`),
      } as never,
      quotas,
    });
    return { reconciler, events, applied };
  };
  const projectWith = (labels: Record<string, string>) => {
    const p = project();
    p.metadata!.labels = labels;
    return p;
  };
  const rq = (garden: FakeGarden) => garden.find<ResourceQuota>('ResourceQuota', 'garden-local', 'gardener');

  it('creates the ResourceQuota `gardener` of the matching configuration, controlled by the project', async () => {
    const garden = new FakeGarden(projectWith({ stage: 'dev' }) as KubernetesObject);
    const { reconciler } = reconcilerFor(garden, [
      quota({ 'count/secrets': '1' }, { matchLabels: { stage: 'prod' } }),
      quota({ 'count/shoots.core.gardener.cloud': '100', 'count/secrets': '400' }, { matchLabels: { stage: 'dev' } }),
    ]);
    await reconciler.reconcile({ namespace: '', name: 'local' }, silentContext());
    expect(rq(garden)).toMatchObject({
      metadata: {
        labels: { quota: 'gardener' },
        ownerReferences: [{ kind: 'Project', name: 'local', uid: project().metadata!.uid, controller: true }],
      },
      spec: { hard: { 'count/shoots.core.gardener.cloud': '100', 'count/secrets': '400' } },
    });
    expect(garden.find<Project>('Project', '', 'local')?.status?.phase).toBe('Ready');
  });

  it("merges into an existing quota: an operator's limits stay, unconfigured resources go, labels are kept", async () => {
    const garden = new FakeGarden(
      projectWith({}) as KubernetesObject,
      {
        apiVersion: 'v1',
        kind: 'ResourceQuota',
        metadata: { name: 'gardener', namespace: 'garden-local', labels: { owner: 'ops' } },
        spec: { hard: { 'count/secrets': '20', pods: '5' } },
      } as KubernetesObject,
    );
    const { reconciler } = reconcilerFor(garden, [quota({ 'count/secrets': '400', 'count/configmaps': '50' }, {})]);
    await reconciler.reconcile({ namespace: '', name: 'local' }, silentContext());
    const merged = rq(garden)!;
    expect(merged.spec?.hard).toEqual({ 'count/secrets': '20', 'count/configmaps': '50' });
    expect(merged.metadata?.labels).toEqual({ owner: 'ops', quota: 'gardener' });
    expect(merged.metadata?.ownerReferences?.map((o) => o.name)).toEqual(['local']);

    // Nothing changed: no further write of the quota.
    const writes = garden.writes.length;
    await reconciler.reconcile({ namespace: '', name: 'local' }, silentContext());
    expect(garden.writes.slice(writes).filter((w) => w.includes('ResourceQuota'))).toEqual([]);
  });

  it('creates no quota without a matching configuration', async () => {
    const garden = new FakeGarden(projectWith({}) as KubernetesObject);
    await reconcilerFor(garden, [
      quota({ 'count/secrets': '1' }, { matchLabels: { stage: 'prod' } }),
    ]).reconciler.reconcile({ namespace: '', name: 'local' }, silentContext());
    await reconcilerFor(garden).reconciler.reconcile({ namespace: '', name: 'local' }, silentContext());
    expect(rq(garden)).toBeUndefined();
    expect(garden.find<Project>('Project', '', 'local')?.status?.phase).toBe('Ready');
  });

  it('fails the project on an invalid selector, with an event, before applying RBAC', async () => {
    const garden = new FakeGarden(projectWith({}) as KubernetesObject);
    const { reconciler, events, applied } = reconcilerFor(garden, [
      quota({ 'count/secrets': '1' }, { matchExpressions: [{ key: 'a', operator: 'Maybe' }] }),
    ]);
    await expect(reconciler.reconcile({ namespace: '', name: 'local' }, silentContext())).rejects.toThrow(
      'Error while setting up ResourceQuota: "Maybe" is not a valid label selector operator',
    );
    expect(garden.find<Project>('Project', '', 'local')?.status?.phase).toBe('Failed');
    expect(events.at(-1)).toBe(
      'Warning NamespaceReconcileFailed Error while setting up ResourceQuota: "Maybe" is not a valid label selector operator',
    );
    expect(applied).toEqual([]);
  });
});
