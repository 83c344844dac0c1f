import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Seed } from '@gardener-ts/api';
import type { Secret } from '@gardener-ts/controller-runtime';
import { isSyncedRole, planSecretSync, planSeedNamespace, secretCopy, seedNamespaceName } from './sync.js';

const seed = { kind: 'Seed', metadata: { name: 'local', uid: 'uid-1' }, spec: {} } as unknown as Seed;
const secret = (name: string, namespace: string, role?: string, data: Record<string, string> = {}): Secret => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name, namespace, ...(role ? { labels: { 'gardener.cloud/role': role } } : {}) },
  type: 'Opaque',
  data,
});

describe('seed namespace', () => {
  it('is seed-<name>, created with the role label and the Seed as controller', () => {
    expect(seedNamespaceName('local')).toBe('seed-local');
    expect(planSeedNamespace(seed, undefined)).toEqual({
      action: 'create',
      namespace: {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: {
          name: 'seed-local',
          labels: { 'gardener.cloud/role': 'seed' },
          ownerReferences: [
            {
              apiVersion: 'core.gardener.cloud/v1beta1',
              kind: 'Seed',
              name: 'local',
              uid: 'uid-1',
              controller: true,
              blockOwnerDeletion: true,
            },
          ],
        },
      },
    });
  });

  it('refuses a namespace another object (or another seed of that name) controls, and adds a missing role label', () => {
    const owned = (uid: string, labels: Record<string, string> = {}) => ({
      metadata: { name: 'seed-local', labels, ownerReferences: [{ ...ownerRef, uid }] },
    });
    const ownerRef = {
      apiVersion: 'core.gardener.cloud/v1beta1',
      kind: 'Seed',
      name: 'local',
      uid: '',
      controller: true,
    };
    expect(planSeedNamespace(seed, { metadata: { name: 'seed-local' } })).toEqual({
      action: 'refuse',
      error: 'namespace "seed-local" is not controlled by seed "local"',
    });
    expect(planSeedNamespace(seed, owned('uid-old'))).toMatchObject({ action: 'refuse' });
    expect(planSeedNamespace(seed, owned('uid-1', { a: 'b' }))).toEqual({
      action: 'label',
      labels: { a: 'b', 'gardener.cloud/role': 'seed' },
    });
    expect(planSeedNamespace(seed, owned('uid-1', { 'gardener.cloud/role': 'seed' }))).toEqual({ action: 'keep' });
  });
});

describe('secret sync', () => {
  it('selects role-labelled Secrets except the control plane roles kubeconfig, ssh-keypair and monitoring', () => {
    expect(isSyncedRole({ 'gardener.cloud/role': 'internal-domain' })).toBe(true);
    expect(isSyncedRole({ 'gardener.cloud/role': 'alerting' })).toBe(true);
    expect(isSyncedRole({ 'gardener.cloud/role': '' })).toBe(true);
    for (const role of ['kubeconfig', 'ssh-keypair', 'monitoring']) {
      expect(isSyncedRole({ 'gardener.cloud/role': role })).toBe(false);
    }
    expect(isSyncedRole({ other: 'x' })).toBe(false);
    expect(isSyncedRole(undefined)).toBe(false);
  });

  it('copies labels, annotations, type and data into the seed namespace, nothing else', () => {
    const original: Secret = {
      ...secret('internal-domain-example', 'garden', 'internal-domain', { k: 'dg==' }),
      type: 'kubernetes.io/opaque',
      metadata: {
        name: 'internal-domain-example',
        namespace: 'garden',
        uid: 'x',
        resourceVersion: '7',
        finalizers: ['f'],
        labels: { 'gardener.cloud/role': 'internal-domain' },
        annotations: { 'dns.gardener.cloud/provider': 'local', 'dns.gardener.cloud/domain': 'example.com' },
      },
    };
    expect(secretCopy(original, 'seed-local')).toEqual({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: 'internal-domain-example',
        namespace: 'seed-local',
        labels: { 'gardener.cloud/role': 'internal-domain' },
        annotations: { 'dns.gardener.cloud/provider': 'local', 'dns.gardener.cloud/domain': 'example.com' },
      },
      type: 'kubernetes.io/opaque',
      data: { k: 'dg==' },
    });
  });

  it('creates missing copies, updates changed ones, deletes stale ones and leaves other Secrets alone', () => {
    const garden = [
      secret('new', 'garden', 'alerting', { a: 'MQ==' }),
      secret('changed', 'garden', 'global-monitoring', { a: 'Mg==' }),
      secret('same', 'garden', 'internal-domain', { a: 'Mw==' }),
      secret('kubeconfig', 'garden', 'kubeconfig'),
      secret('unlabelled', 'garden'),
    ];
    const namespace = [
      secret('changed', 'seed-local', 'global-monitoring', { a: 'MQ==' }),
      secret('same', 'seed-local', 'internal-domain', { a: 'Mw==' }),
      secret('stale', 'seed-local', 'default-domain'),
      secret('someone-elses', 'seed-local'),
      secret('control-plane', 'seed-local', 'kubeconfig'),
    ];
    const plan = planSecretSync(garden, namespace, 'seed-local');
    expect(plan.create.map((s) => s.metadata!.name)).toEqual(['new']);
    expect(plan.update.map((u) => [u.desired.metadata!.name, u.desired.data])).toEqual([['changed', { a: 'Mg==' }]]);
    expect(plan.delete).toEqual(['stale']);
  });

  const roles = fc.constantFrom('alerting', 'internal-domain', 'default-domain', 'kubeconfig', 'monitoring', undefined);
  const secrets = (namespace: string) =>
    fc
      .uniqueArray(
        fc.record({
          name: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'),
          role: roles,
          data: fc.constantFrom('MQ==', 'Mg=='),
        }),
        { selector: (s) => s.name },
      )
      .map((list) => list.map((s) => secret(s.name, namespace, s.role, { k: s.data })));

  it('converges: after carrying out the plan, the selected Secrets of both namespaces are the same copies', () => {
    fc.assert(
      fc.property(secrets('garden'), secrets('seed-local'), (garden, existing) => {
        const plan = planSecretSync(garden, existing, 'seed-local');
        const byName = new Map(existing.map((s) => [s.metadata!.name!, s]));
        for (const s of plan.create) byName.set(s.metadata!.name!, s);
        for (const u of plan.update) byName.set(u.desired.metadata!.name!, u.desired);
        for (const name of plan.delete) byName.delete(name);
        const after = [...byName.values()];
        // Nothing is left to do, and the copies are exactly the selected originals.
        expect(planSecretSync(garden, after, 'seed-local')).toEqual({ create: [], update: [], delete: [] });
        const selected = (list: Secret[]) =>
          list
            .filter((s) => isSyncedRole(s.metadata?.labels))
            .map((s) => [s.metadata!.name, s.metadata!.labels, s.data])
            .sort();
        expect(selected(after)).toEqual(selected(garden));
        // Secrets without a synced role are never written or deleted.
        const untouched = existing.filter((s) => !isSyncedRole(s.metadata?.labels)).map((s) => s.metadata!.name);
        const written = [...plan.create, ...plan.update.map((u) => u.desired)].map((s) => s.metadata!.name);
        for (const name of untouched) {
          expect(plan.delete).not.toContain(name);
          if (!garden.some((g) => g.metadata!.name === name && isSyncedRole(g.metadata?.labels)))
            expect(written).not.toContain(name);
        }
      }),
    );
  });
});
