import { describe, expect, it } from 'vitest';
import type { Seed, Shoot } from '@gardener-ts/api';
import { ApiError, type Client, type KubernetesObject } from '@gardener-ts/controller-runtime';
import { silentContext } from '../../../test/support/csr.js';
import { localShoot } from '../../../test/support/examples.js';
import { seedReferences } from '../seedreference/add.js';
import { shootReferences } from '../shootreference/add.js';
import { ReferenceProtectionFinalizer, ReferenceReconciler, type ReferencingKind } from './reconciler.js';

type Obj = KubernetesObject & {
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; finalizers?: string[] };
};

/** Objects by `Kind/namespace/name`; merge patches of metadata; `!label` selectors on lists. */
class FakeGarden {
  readonly objects = new Map<string, Obj>();
  readonly patched: string[] = [];
  constructor(...objs: KubernetesObject[]) {
    for (const o of objs) this.put(o);
  }
  put(o: KubernetesObject) {
    const obj = structuredClone(o) as Obj;
    obj.metadata.resourceVersion = String(Number(obj.metadata.resourceVersion ?? 0) + 1);
    this.objects.set(`${obj.kind}/${obj.metadata.namespace ?? ''}/${obj.metadata.name}`, obj);
  }
  finalizers(kind: string, namespace: string, name: string) {
    return this.objects.get(`${kind}/${namespace}/${name}`)?.metadata.finalizers ?? [];
  }
  client = {
    get: async (kind: { kind: string }, key: { namespace?: string; name: string }) => {
      const o = this.objects.get(`${kind.kind}/${key.namespace ?? ''}/${key.name}`);
      if (!o) throw new ApiError(404, 'NotFound', `${kind.kind} ${key.name} not found`);
      const { apiVersion: _a, kind: _k, ...rest } = structuredClone(o);
      return rest; // as the API server's list items: without apiVersion/kind
    },
    list: async (kind: { kind: string }, opts: { namespace?: string; labelSelector?: string } = {}) => {
      const absent = opts.labelSelector?.startsWith('!') ? opts.labelSelector.slice(1) : undefined;
      return {
        items: [...this.objects.values()]
          .filter((o) => o.kind === kind.kind)
          .filter((o) => !opts.namespace || o.metadata.namespace === opts.namespace)
          .filter((o) => !absent || !o.metadata.labels?.[absent])
          .map((o) => structuredClone(o)),
      };
    },
    patch: async (
      kind: { kind: string },
      key: { namespace?: string; name: string },
      patch: { patch: { metadata: { finalizers: string[] } } },
    ) => {
      const id = `${kind.kind}/${key.namespace ?? ''}/${key.name}`;
      const o = this.objects.get(id)!;
      o.metadata.finalizers = patch.patch.metadata.finalizers;
      this.patched.push(`${id}: [${o.metadata.finalizers.join(' ')}]`);
      return structuredClone(o);
    },
  } as unknown as Client;
}

const secret = (name: string, extra: Partial<Obj['metadata']> = {}, namespace = 'garden-local'): Obj => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name, namespace, ...extra },
});
const configMap = (name: string, extra: Partial<Obj['metadata']> = {}, namespace = 'garden-local'): Obj => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace, ...extra },
});
const protectedBy = { finalizers: [ReferenceProtectionFinalizer] };

/** Gardener's example Shoot referencing a DNS secret, an audit policy and a `spec.resources` Secret. */
const shoot = (name: string, change: (s: Shoot) => void = () => undefined): Shoot => {
  const s = localShoot(name, undefined);
  s.metadata!.finalizers = ['gardener'];
  s.spec.dns = { providers: [{ type: 'local', secretName: 'dns' }] };
  s.spec.kubernetes.kubeAPIServer = { auditConfig: { auditPolicy: { configMapRef: { name: 'audit' } } } };
  s.spec.resources = [{ name: 'extra', resourceRef: { apiVersion: 'v1', kind: 'Secret', name: 'extra' } }];
  change(s);
  return s;
};

const run = <T extends KubernetesObject>(
  garden: FakeGarden,
  referencing: ReferencingKind<T>,
  namespace: string,
  name: string,
) =>
  new ReferenceReconciler({ client: garden.client, api: garden.client, referencing }).reconcile(
    { namespace, name },
    silentContext(),
  );

describe('ReferenceReconciler for Shoots', () => {
  it('protects the referenced Secrets and ConfigMaps and the Shoot, not Gardener-managed Secrets', async () => {
    const garden = new FakeGarden(
      shoot('a', (s) => s.spec.dns!.providers!.push({ type: 'local', secretName: 'managed' })),
      secret('dns'),
      secret('extra'),
      secret('managed', { labels: { 'gardener.cloud/role': 'internal-domain' } }),
      configMap('audit'),
      secret('unrelated'),
    );
    await run(garden, shootReferences, 'garden-local', 'a');
    expect(garden.finalizers('Secret', 'garden-local', 'dns')).toEqual([ReferenceProtectionFinalizer]);
    expect(garden.finalizers('Secret', 'garden-local', 'extra')).toEqual([ReferenceProtectionFinalizer]);
    expect(garden.finalizers('ConfigMap', 'garden-local', 'audit')).toEqual([ReferenceProtectionFinalizer]);
    expect(garden.finalizers('Secret', 'garden-local', 'managed')).toEqual([]);
    expect(garden.finalizers('Secret', 'garden-local', 'unrelated')).toEqual([]);
    expect(garden.finalizers('Shoot', 'garden-local', 'a')).toEqual(['gardener', ReferenceProtectionFinalizer]);
  });

  it('releases protected objects no Shoot of the namespace references, and keeps those another Shoot does', async () => {
    const garden = new FakeGarden(
      shoot('a', (s) => {
        delete s.spec.dns;
        s.metadata!.finalizers = ['gardener', ReferenceProtectionFinalizer];
      }),
      shoot('b', (s) => (s.spec.kubernetes.kubeAPIServer = {})),
      secret('dns', protectedBy),
      secret('extra', protectedBy),
      configMap('audit', protectedBy),
      secret('elsewhere', protectedBy, 'garden-other'),
    );
    await run(garden, shootReferences, 'garden-local', 'a');
    expect(garden.finalizers('Secret', 'garden-local', 'dns')).toEqual([ReferenceProtectionFinalizer]); // b's
    expect(garden.finalizers('Secret', 'garden-local', 'extra')).toEqual([ReferenceProtectionFinalizer]);
    expect(garden.finalizers('ConfigMap', 'garden-local', 'audit')).toEqual([ReferenceProtectionFinalizer]); // a's
    expect(garden.finalizers('Secret', 'garden-other', 'elsewhere')).toEqual([ReferenceProtectionFinalizer]);

    // Neither shoot references the audit policy any more: it is released on the next reconcile of either.
    garden.put(shoot('a', (s) => (s.spec.kubernetes.kubeAPIServer = {})));
    await run(garden, shootReferences, 'garden-local', 'b');
    expect(garden.finalizers('ConfigMap', 'garden-local', 'audit')).toEqual([]);
  });

  it('removes the Shoot’s finalizer when it references only Gardener-managed Secrets', async () => {
    const garden = new FakeGarden(
      shoot('a', (s) => {
        s.spec.dns = { providers: [{ type: 'local', secretName: 'managed' }] };
        s.spec.kubernetes.kubeAPIServer = {};
        delete s.spec.resources;
        s.metadata!.finalizers = ['gardener', ReferenceProtectionFinalizer];
      }),
      secret('managed', { labels: { 'gardener.cloud/role': 'default-domain' } }),
    );
    await run(garden, shootReferences, 'garden-local', 'a');
    expect(garden.finalizers('Shoot', 'garden-local', 'a')).toEqual(['gardener']);
  });

  it('releases the references of a deleted Shoot Gardener is done with, then its own finalizer', async () => {
    const deleted = shoot('a', (s) => {
      s.metadata!.deletionTimestamp = '2026-01-01T00:00:00Z';
      s.metadata!.finalizers = [ReferenceProtectionFinalizer];
    });
    const garden = new FakeGarden(
      deleted,
      shoot('b', (s) => (s.spec.kubernetes.kubeAPIServer = {})),
      secret('dns', protectedBy),
      secret('extra', protectedBy),
      configMap('audit', protectedBy),
    );
    await run(garden, shootReferences, 'garden-local', 'a');
    expect(garden.finalizers('ConfigMap', 'garden-local', 'audit')).toEqual([]);
    expect(garden.finalizers('Secret', 'garden-local', 'dns')).toEqual([ReferenceProtectionFinalizer]); // b's
    expect(garden.finalizers('Shoot', 'garden-local', 'a')).toEqual([]);

    // While the gardenlet still deletes it (finalizer `gardener`), its references stay.
    const deleting = new FakeGarden(
      shoot('a', (s) => (s.metadata!.deletionTimestamp = '2026-01-01T00:00:00Z')),
      secret('dns'),
      secret('extra'),
      configMap('audit', protectedBy),
    );
    await run(deleting, shootReferences, 'garden-local', 'a');
    expect(deleting.finalizers('ConfigMap', 'garden-local', 'audit')).toEqual([ReferenceProtectionFinalizer]);
    expect(deleting.finalizers('Secret', 'garden-local', 'dns')).toEqual([ReferenceProtectionFinalizer]);
  });

  it('fails, naming it, when a referenced Secret does not exist, and does nothing for a gone Shoot', async () => {
    const garden = new FakeGarden(shoot('a'), secret('dns'), configMap('audit'));
    await expect(run(garden, shootReferences, 'garden-local', 'a')).rejects.toThrow(
      'failed to read referenced Secret garden-local/extra',
    );
    await run(garden, shootReferences, 'garden-local', 'gone');
  });
});

describe('ReferenceReconciler for Seeds', () => {
  const seed = (name: string, resources: string[], finalizers = ['gardener']): Seed =>
    ({
      apiVersion: 'core.gardener.cloud/v1beta1',
      kind: 'Seed',
      metadata: { name, finalizers },
      spec: {
        resources: resources.map((r) => ({
          name: r,
          resourceRef: { apiVersion: 'v1', kind: r.startsWith('cm-') ? 'ConfigMap' : 'Secret', name: r },
        })),
      },
    }) as unknown as Seed;

  it('protects the `spec.resources` of the garden namespace and releases those no Seed references', async () => {
    const garden = new FakeGarden(
      seed('a', ['s1', 'cm-1']),
      seed('b', ['s2']),
      secret('s1', {}, 'garden'),
      secret('s2', protectedBy, 'garden'),
      secret('old', protectedBy, 'garden'),
      configMap('cm-1', {}, 'garden'),
      secret('s1', {}, 'garden-local'),
    );
    await run(garden, seedReferences('garden'), '', 'a');
    expect(garden.finalizers('Secret', 'garden', 's1')).toEqual([ReferenceProtectionFinalizer]);
    expect(garden.finalizers('ConfigMap', 'garden', 'cm-1')).toEqual([ReferenceProtectionFinalizer]);
    expect(garden.finalizers('Secret', 'garden', 's2')).toEqual([ReferenceProtectionFinalizer]);
    expect(garden.finalizers('Secret', 'garden', 'old')).toEqual([]);
    expect(garden.finalizers('Secret', 'garden-local', 's1')).toEqual([]);
    expect(garden.finalizers('Seed', '', 'a')).toEqual(['gardener', ReferenceProtectionFinalizer]);
  });
});
