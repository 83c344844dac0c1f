import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AUTOUPDATE_ANNOTATION,
  bootstrapClusterRoleBindings,
  bootstrapClusterRoles,
  bootstrapRoleBindings,
  bootstrapRoles,
  type PolicyRule,
} from './bootstrap-policy.js';
import { breakdownRule, reconcileBinding, reconcileRole, ruleCovers, uncoveredRules } from './policy-reconciliation.js';

const role = (name: string) => bootstrapClusterRoles().find((r) => r.metadata.name === name)!;
const binding = (name: string) => bootstrapClusterRoleBindings().find((r) => r.metadata.name === name)!;

const ruleArb: fc.Arbitrary<PolicyRule> = fc.oneof(
  fc.record({
    apiGroups: fc.subarray(['', 'apps', '*'], { minLength: 1 }),
    resources: fc.subarray(['pods', 'pods/log', 'secrets', '*', 'deployments/*'], { minLength: 1 }),
    verbs: fc.subarray(['get', 'list', 'create', '*'], { minLength: 1 }),
  }),
  fc.record({
    nonResourceURLs: fc.subarray(['/healthz', '/api/*', '/version', '*'], { minLength: 1 }),
    verbs: fc.subarray(['get', 'post'], { minLength: 1 }),
  }),
);

describe('bootstrap policy', () => {
  it('serves the roles and bindings kube bootstraps', () => {
    const names = bootstrapClusterRoles().map((r) => r.metadata.name);
    for (const name of [
      'cluster-admin',
      'admin',
      'edit',
      'view',
      'system:aggregate-to-view',
      'system:kube-controller-manager',
      'system:kube-scheduler',
      'system:node-proxier',
      'system:auth-delegator',
      'system:certificates.k8s.io:kubelet-serving-approver',
      'system:monitoring',
      'system:service-account-issuer-discovery',
      'system:node',
      'system:volume-scheduler',
    ]) {
      expect(names).toContain(name);
    }
    expect(role('view').aggregationRule).toEqual({
      clusterRoleSelectors: [{ matchLabels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } }],
    });
    expect(role('view').metadata.labels['rbac.authorization.k8s.io/aggregate-to-edit']).toBe('true');
    expect(binding('system:kube-scheduler').subjects).toEqual([
      { apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'system:kube-scheduler' },
    ]);
    expect(binding('system:node').subjects).toEqual([]);
    const reader = bootstrapRoles().find((r) => r.metadata.name === 'extension-apiserver-authentication-reader')!;
    expect(reader.metadata.namespace).toBe('kube-system');
    expect(bootstrapRoleBindings().find((b) => b.roleRef.name === reader.metadata.name)?.metadata.name).toBe(
      'system::extension-apiserver-authentication-reader',
    );
    // kube's controller roles, each bound to the controller's kube-system ServiceAccount.
    expect(role('system:controller:replicaset-controller').rules).toContainEqual({
      apiGroups: [''],
      resources: ['pods'],
      verbs: ['create', 'delete', 'list', 'patch', 'watch'],
    });
    expect(binding('system:controller:replicaset-controller').subjects).toEqual([
      { kind: 'ServiceAccount', name: 'replicaset-controller', namespace: 'kube-system' },
    ]);
  });
});

describe('RBAC reconciliation', () => {
  it('creates missing roles and adds only missing rules, keeping extra permissions', () => {
    expect(reconcileRole(undefined, role('system:basic-user')).action).toBe('create');
    const existing = structuredClone(role('system:basic-user'));
    existing.rules = [existing.rules[0], { apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }];
    existing.metadata.labels.extra = 'kept';
    const result = reconcileRole(existing, role('system:basic-user'));
    expect(result.action).toBe('update');
    if (result.action !== 'update') return;
    expect(result.object.rules).toEqual([
      ...existing.rules,
      { apiGroups: ['authentication.k8s.io'], resources: ['selfsubjectreviews'], verbs: ['create'] },
    ]);
    expect(result.object.metadata.labels).toMatchObject({
      extra: 'kept',
      'kubernetes.io/bootstrapping': 'rbac-defaults',
    });
    expect(reconcileRole(result.object, role('system:basic-user')).action).toBe('none');
  });

  it('leaves roles and bindings annotated autoupdate=false alone', () => {
    const heapster = role('system:heapster');
    const existing = {
      ...heapster,
      rules: [],
      metadata: { ...heapster.metadata, annotations: { [AUTOUPDATE_ANNOTATION]: 'false' } },
    };
    expect(reconcileRole(existing, role('system:heapster')).action).toBe('none');
    const admin = binding('cluster-admin');
    const b = {
      ...admin,
      subjects: [],
      metadata: { ...admin.metadata, annotations: { [AUTOUPDATE_ANNOTATION]: 'false' } },
    };
    expect(reconcileBinding(b, binding('cluster-admin')).action).toBe('none');
  });

  it('does not touch the rules of aggregated roles, only their selectors', () => {
    const view = { ...role('view'), rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] };
    expect(reconcileRole(view, role('view')).action).toBe('none');
    const noSelectors = { ...view, aggregationRule: { clusterRoleSelectors: [] } };
    const result = reconcileRole(noSelectors, role('view'));
    expect(result.action === 'update' && result.object.aggregationRule).toEqual(role('view').aggregationRule);
  });

  it('adds missing subjects and re-creates a binding whose roleRef changed', () => {
    const b = { ...binding('system:public-info-viewer'), subjects: [{ kind: 'User', name: 'me' }] };
    const result = reconcileBinding(b, binding('system:public-info-viewer'));
    expect(result.action === 'update' && result.object.subjects.map((s: any) => s.name)).toEqual([
      'me',
      'system:authenticated',
      'system:unauthenticated',
    ]);
    const moved = {
      ...binding('system:monitoring'),
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
    };
    expect(reconcileBinding(moved, binding('system:monitoring')).action).toBe('recreate');
  });

  it('covers with wildcards, subresources and resource names as kube does', () => {
    expect(
      ruleCovers(
        { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
        { apiGroups: ['apps'], resources: ['deployments/scale'], verbs: ['patch'] },
      ),
    ).toBe(true);
    expect(
      ruleCovers(
        { apiGroups: [''], resources: ['pods'], verbs: ['get'] },
        { apiGroups: [''], resources: ['pods/log'], verbs: ['get'] },
      ),
    ).toBe(false);
    expect(
      ruleCovers(
        { apiGroups: [''], resources: ['*/log'], verbs: ['get'] },
        { apiGroups: [''], resources: ['pods/log'], verbs: ['get'] },
      ),
    ).toBe(true);
    expect(
      ruleCovers(
        { apiGroups: [''], resources: ['pods'], resourceNames: ['a'], verbs: ['get'] },
        { apiGroups: [''], resources: ['pods'], verbs: ['get'] },
      ),
    ).toBe(false);
    expect(
      ruleCovers({ nonResourceURLs: ['/api/*'], verbs: ['get'] }, { nonResourceURLs: ['/api/v1'], verbs: ['get'] }),
    ).toBe(true);
  });

  it('property: a reconciled role keeps every existing rule and covers every expected one', () => {
    fc.assert(
      fc.property(fc.array(ruleArb, { maxLength: 4 }), fc.array(ruleArb, { maxLength: 4 }), (have, want) => {
        const existing = {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'ClusterRole',
          metadata: { name: 'r' },
          rules: have,
        };
        const expected = { ...existing, metadata: { name: 'r', labels: {}, annotations: {} }, rules: want };
        const result = reconcileRole(existing, expected);
        const rules: PolicyRule[] = result.action === 'none' ? have : result.object.rules;
        expect(rules.slice(0, have.length)).toEqual(have);
        expect(uncoveredRules(rules, want)).toEqual([]);
        for (const sub of want.flatMap(breakdownRule)) expect(rules.some((r) => ruleCovers(r, sub))).toBe(true);
      }),
    );
  });
});
