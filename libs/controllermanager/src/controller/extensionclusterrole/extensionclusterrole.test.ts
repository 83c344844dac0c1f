import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { KubernetesObject } from '@gardener-ts/controller-runtime';
import { silentContext } from '../../../test/support/csr.js';
import { FakeGarden } from '../testing/fake-garden.js';
import { extensionClusterRole, mapToMatchingClusterRoles, seedServiceAccount } from './add.js';
import { ExtensionClusterRoleReconciler } from './reconciler.js';
import { bindingSubjects, serviceAccountSelector, type ClusterRoleBinding } from './subjects.js';

const clusterRole = (name: string, selector: string | undefined, labelled = true): KubernetesObject => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRole',
  metadata: {
    name,
    uid: `uid-${name}`,
    ...(labelled ? { labels: { 'authorization.gardener.cloud/custom-extensions-permissions': 'true' } } : {}),
    ...(selector === undefined
      ? {}
      : { annotations: { 'authorization.gardener.cloud/extensions-serviceaccount-selector': selector } }),
  },
});
const serviceAccount = (namespace: string, name: string, labels: Record<string, string> = {}): KubernetesObject => ({
  apiVersion: 'v1',
  kind: 'ServiceAccount',
  metadata: { name, namespace, labels },
});
const providerSelector = JSON.stringify({ matchLabels: { 'extensions.gardener.cloud/provider': 'local' } });
const provider = { 'extensions.gardener.cloud/provider': 'local' };

describe('serviceAccountSelector', () => {
  it('reads the JSON label selector of the annotation and fails with Gardener’s messages', () => {
    expect(
      serviceAccountSelector({ 'authorization.gardener.cloud/extensions-serviceaccount-selector': providerSelector })(
        provider,
      ),
    ).toBe(true);
    expect(() => serviceAccountSelector({})).toThrow('no service account selector annotations present');
    expect(() =>
      serviceAccountSelector({ 'authorization.gardener.cloud/extensions-serviceaccount-selector': '{not json' }),
    ).toThrow(/^failed unmarshalling extensions service account selector \{not json: /);
    expect(() =>
      serviceAccountSelector({
        'authorization.gardener.cloud/extensions-serviceaccount-selector': JSON.stringify({
          matchExpressions: [{ key: 'a', operator: 'Near' }],
        }),
      }),
    ).toThrow(/^failed parsing label selector .*"Near" is not a valid label selector operator/);
    // An empty selector (and JSON null, as Go reads it) selects every ServiceAccount.
    expect(
      serviceAccountSelector({ 'authorization.gardener.cloud/extensions-serviceaccount-selector': 'null' })({}),
    ).toBe(true);
  });
});

describe('bindingSubjects', () => {
  it('takes the selected ServiceAccounts of seed namespaces only, ordered by namespace and name', () => {
    const all = () => true;
    const subjects = bindingSubjects(all, [
      serviceAccount('seed-b', 'ext'),
      serviceAccount('garden', 'ext'),
      serviceAccount('seed-a', 'z'),
      serviceAccount('seed-a', 'a'),
      serviceAccount('seedling', 'x'),
    ]);
    expect(subjects.map((s) => `${s.namespace}/${s.name}`)).toEqual(['seed-a/a', 'seed-a/z', 'seed-b/ext']);
    expect(subjects[0]).toEqual({ kind: 'ServiceAccount', name: 'a', namespace: 'seed-a' });
  });

  it('property: the result does not depend on the order of the ServiceAccounts and is sorted', () => {
    const sa = fc.tuple(fc.constantFrom('seed-a', 'seed-b', 'garden'), fc.constantFrom('x', 'y', 'z'), fc.boolean());
    fc.assert(
      fc.property(fc.uniqueArray(sa, { selector: ([n, m]) => `${n}/${m}` }), (items) => {
        const accounts = items.map(([ns, name, p]) => serviceAccount(ns, name, p ? provider : {}));
        const selector = serviceAccountSelector({
          'authorization.gardener.cloud/extensions-serviceaccount-selector': providerSelector,
        });
        const forward = bindingSubjects(selector, accounts);
        expect(bindingSubjects(selector, [...accounts].reverse())).toEqual(forward);
        const keys = forward.map((s) => `${s.namespace}/${s.name}`);
        expect([...keys].sort()).toEqual(keys);
        expect(keys).toEqual(
          items
            .filter(([ns, , p]) => ns.startsWith('seed-') && p)
            .map(([ns, n]) => `${ns}/${n}`)
            .sort(),
        );
      }),
    );
  });
});

describe('extension ClusterRole triggers', () => {
  it('passes labelled ClusterRoles and ServiceAccounts of seed namespaces', () => {
    expect(extensionClusterRole({ type: 'create', object: clusterRole('r', providerSelector) })).toBe(true);
    expect(extensionClusterRole({ type: 'create', object: clusterRole('r', providerSelector, false) })).toBe(false);
    expect(seedServiceAccount({ type: 'create', object: serviceAccount('seed-local', 'x') })).toBe(true);
    expect(seedServiceAccount({ type: 'delete', object: serviceAccount('garden', 'x') })).toBe(false);
  });

  it('maps a ServiceAccount to the labelled ClusterRoles that select it, skipping broken selectors', () => {
    const errors: string[] = [];
    const map = mapToMatchingClusterRoles(
      () => [
        clusterRole('match', providerSelector),
        clusterRole('other', JSON.stringify({ matchLabels: { x: 'y' } })),
        clusterRole('unlabelled', providerSelector, false),
        clusterRole('broken', '{'),
      ],
      (name) => errors.push(name),
    );
    expect(map(serviceAccount('seed-local', 'ext', provider))).toEqual([{ namespace: '', name: 'match' }]);
    expect(errors).toEqual(['broken']);
  });
});

describe('ExtensionClusterRoleReconciler', () => {
  const binding = (g: FakeGarden) => g.find<ClusterRoleBinding>('ClusterRoleBinding', '', 'ext-perms');

  it('creates the ClusterRoleBinding owned by the ClusterRole, follows the ServiceAccounts, and is quiet in step', async () => {
    const garden = new FakeGarden(
      clusterRole('ext-perms', providerSelector),
      serviceAccount('seed-local', 'provider-local', provider),
      serviceAccount('seed-local', 'other'),
      serviceAccount('garden', 'provider-local', provider),
    );
    const r = new ExtensionClusterRoleReconciler({ client: garden });
    await r.reconcile({ namespace: '', name: 'ext-perms' }, silentContext());
    expect(binding(garden)).toMatchObject({
      metadata: {
        ownerReferences: [
          { kind: 'ClusterRole', name: 'ext-perms', uid: 'uid-ext-perms', controller: true, blockOwnerDeletion: false },
        ],
      },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'ext-perms' },
      subjects: [{ kind: 'ServiceAccount', name: 'provider-local', namespace: 'seed-local' }],
    });

    garden.put(serviceAccount('seed-other', 'provider-local', provider));
    await r.reconcile({ namespace: '', name: 'ext-perms' }, silentContext());
    expect(binding(garden)!.subjects!.map((s) => s.namespace)).toEqual(['seed-local', 'seed-other']);

    garden.writes.length = 0;
    await r.reconcile({ namespace: '', name: 'ext-perms' }, silentContext());
    expect(garden.writes).toEqual([]);

    // No ServiceAccount selected any more: the subjects are removed.
    garden.put(clusterRole('ext-perms', JSON.stringify({ matchLabels: { nobody: 'x' } })));
    await r.reconcile({ namespace: '', name: 'ext-perms' }, silentContext());
    expect(binding(garden)!.subjects).toBeUndefined();
  });

  it('fails naming the ClusterRole when its selector is missing; leaves deleted and gone ClusterRoles alone', async () => {
    const deleted = clusterRole('deleted', providerSelector);
    deleted.metadata!.deletionTimestamp = '2026-01-01T00:00:00Z';
    const garden = new FakeGarden(clusterRole('no-selector', undefined), deleted);
    const r = new ExtensionClusterRoleReconciler({ client: garden });
    const failure = await r.reconcile({ namespace: '', name: 'no-selector' }, silentContext()).catch((e: Error) => e);
    expect((failure as Error).message).toBe(
      'failed computing subjects for ClusterRoleBinding of ClusterRole no-selector',
    );
    expect(((failure as Error).cause as Error).message).toBe('no service account selector annotations present');
    await r.reconcile({ namespace: '', name: 'deleted' }, silentContext());
    await r.reconcile({ namespace: '', name: 'gone' }, silentContext());
    expect(garden.writes).toEqual([]);
  });
});
