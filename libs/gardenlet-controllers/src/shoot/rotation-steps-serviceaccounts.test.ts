// The legacy ServiceAccount token Secret steps of a ServiceAccount key rotation and the ETCD snapshot/labelling
// bookkeeping on the kube-apiserver Deployment, over an in-memory fake of the shoot's and the seed's API (optimistic
// locking by resourceVersion, `!=` label selectors, creation timestamps).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError } from '@gardener-ts/controller-runtime';
import {
  AnnotationEtcdSnapshotted,
  AnnotationResourcesLabeled,
  LabelKeyRotationKeyName,
  ServiceAccountTokenSecretType,
  createNewServiceAccountSecrets,
  deleteOldServiceAccountSecrets,
  labelEncryptedDataOnce,
  serviceAccountSecretSuffix,
  snapshotEtcdAfterRewrite,
  unlabelEncryptedData,
} from './rotation-steps.js';

interface Obj {
  apiVersion?: string;
  kind?: string;
  metadata: {
    name: string;
    namespace?: string;
    resourceVersion?: string;
    creationTimestamp?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  secrets?: { name?: string }[];
  type?: string;
}

const apiError = (code: number, reason: string) => new ApiError(code, reason, reason);

/** A tiny API: objects by kind, namespace and name; merge patches (null deletes), resourceVersion conflicts. */
class FakeAPI {
  objects = new Map<string, Obj>();
  version = 1;
  /** Conflicts to answer before the next patches succeed. */
  conflicts = 0;
  now = '2026-01-02T00:00:00Z';
  deleted: string[] = [];

  private id(kind: string, ns: string | undefined, name: string) {
    return `${kind}/${ns ?? ''}/${name}`;
  }
  add(kind: string, obj: Obj) {
    obj.metadata.resourceVersion = String(this.version++);
    this.objects.set(this.id(kind, obj.metadata.namespace, obj.metadata.name), obj);
  }
  find(kind: string, ns: string, name: string) {
    return this.objects.get(this.id(kind, ns, name));
  }
  async list(kind: { kind: string }, opts: { labelSelector?: string }) {
    const items = [...this.objects.entries()]
      .filter(([id]) => id.startsWith(`${kind.kind}/`))
      .map(([, o]) => o)
      .filter((o) => {
        if (!opts.labelSelector) return true;
        const [key, value] = opts.labelSelector.split('!=');
        return o.metadata.labels?.[key!] !== value;
      });
    return { items: structuredClone(items) };
  }
  async get(kind: { kind: string }, key: { namespace?: string; name: string }) {
    const o = this.objects.get(this.id(kind.kind, key.namespace, key.name));
    if (!o) throw apiError(404, 'NotFound');
    return structuredClone(o);
  }
  async create(obj: Obj) {
    if (this.objects.has(this.id(obj.kind!, obj.metadata.namespace, obj.metadata.name)))
      throw apiError(409, 'AlreadyExists');
    this.add(obj.kind!, { ...structuredClone(obj), metadata: { ...obj.metadata, creationTimestamp: this.now } });
    return obj;
  }
  async delete(kind: { kind: string }, key: { namespace?: string; name: string }) {
    const id = this.id(kind.kind, key.namespace, key.name);
    if (!this.objects.delete(id)) throw apiError(404, 'NotFound');
    this.deleted.push(key.name);
  }
  async patch(
    kind: { kind: string },
    key: { namespace?: string; name: string },
    p: { patch: Record<string, unknown> },
  ) {
    const o = this.objects.get(this.id(kind.kind, key.namespace, key.name));
    if (!o) throw apiError(404, 'NotFound');
    const meta = (p.patch.metadata ?? {}) as Record<string, unknown>;
    if (
      this.conflicts > 0 ||
      (meta.resourceVersion !== undefined && meta.resourceVersion !== o.metadata.resourceVersion)
    ) {
      this.conflicts = Math.max(0, this.conflicts - 1);
      o.metadata.resourceVersion = String(this.version++);
      throw apiError(409, 'Conflict');
    }
    for (const field of ['labels', 'annotations'] as const) {
      const changes = meta[field] as Record<string, string | null> | undefined;
      if (!changes) continue;
      const next = { ...o.metadata[field] };
      for (const [k, v] of Object.entries(changes)) {
        if (v === null) delete next[k];
        else next[k] = v;
      }
      o.metadata[field] = next;
    }
    if ('secrets' in p.patch) o.secrets = p.patch.secrets as Obj['secrets'];
    o.metadata.resourceVersion = String(this.version++);
    return structuredClone(o);
  }
}

const key = { name: 'service-account-key-abc', data: { id_rsa: 'a2V5' } };
const suffix = serviceAccountSecretSuffix(key.data);

function shootWith(sas: { ns: string; name: string; secrets: string[]; secretCreated?: string }[]) {
  const api = new FakeAPI();
  for (const sa of sas) {
    api.add('ServiceAccount', {
      metadata: { name: sa.name, namespace: sa.ns },
      ...(sa.secrets.length > 0 ? { secrets: sa.secrets.map((name) => ({ name })) } : {}),
    });
    for (const s of sa.secrets) {
      api.add('Secret', {
        metadata: { name: s, namespace: sa.ns, creationTimestamp: sa.secretCreated ?? '2025-12-01T00:00:00Z' },
        type: ServiceAccountTokenSecretType,
      });
    }
  }
  return api;
}

describe('serviceAccountSecretSuffix', () => {
  it('is six hex digits of the checksum of the data, independent of key order', () => {
    expect(suffix).toMatch(/^[0-9a-f]{6}$/);
    expect(serviceAccountSecretSuffix({ b: 'Yg==', a: 'YQ==' })).toBe(
      serviceAccountSecretSuffix({ a: 'YQ==', b: 'Yg==' }),
    );
    expect(serviceAccountSecretSuffix({ a: 'YQ==' })).not.toBe(serviceAccountSecretSuffix({ a: 'Yg==' }));
  });
});

describe('createNewServiceAccountSecrets', () => {
  it('creates a token Secret for each ServiceAccount with legacy Secrets, referenced first, and labels it', async () => {
    const api = shootWith([
      { ns: 'default', name: 'builder', secrets: ['builder-token-old'] },
      { ns: 'kube-system', name: 'bound-only', secrets: [] },
    ]);
    expect(await createNewServiceAccountSecrets(api as never, key)).toBe(1);
    const sa = api.find('ServiceAccount', 'default', 'builder')!;
    expect(sa.secrets).toEqual([{ name: `builder-token-${suffix}` }, { name: 'builder-token-old' }]);
    expect(sa.metadata.labels).toEqual({ [LabelKeyRotationKeyName]: key.name });
    const secret = api.find('Secret', 'default', `builder-token-${suffix}`)!;
    expect(secret.type).toBe('kubernetes.io/service-account-token');
    expect(secret.metadata.annotations).toEqual({ 'kubernetes.io/service-account.name': 'builder' });
    expect(api.find('ServiceAccount', 'kube-system', 'bound-only')!.metadata.labels).toBeUndefined();
  });

  it('is idempotent: a second run (labelled, or the Secret referenced already) creates nothing', async () => {
    const api = shootWith([{ ns: 'default', name: 'builder', secrets: ['builder-token-old'] }]);
    await createNewServiceAccountSecrets(api as never, key);
    expect(await createNewServiceAccountSecrets(api as never, key)).toBe(0);
    // A run interrupted after the Secret's creation (no label, Secret exists): the reference is added once.
    delete api.find('ServiceAccount', 'default', 'builder')!.metadata.labels;
    api.find('ServiceAccount', 'default', 'builder')!.secrets = [{ name: 'builder-token-old' }];
    expect(await createNewServiceAccountSecrets(api as never, key)).toBe(1);
    expect(api.find('ServiceAccount', 'default', 'builder')!.secrets).toEqual([
      { name: `builder-token-${suffix}` },
      { name: 'builder-token-old' },
    ]);
  });

  it('retries the ServiceAccount patch on a conflict', async () => {
    const api = shootWith([{ ns: 'default', name: 'builder', secrets: ['builder-token-old'] }]);
    api.conflicts = 2;
    await createNewServiceAccountSecrets(api as never, key);
    expect(api.find('ServiceAccount', 'default', 'builder')!.secrets?.[0]).toEqual({ name: `builder-token-${suffix}` });
  });
});

describe('deleteOldServiceAccountSecrets', () => {
  const preparedAt = new Date('2026-01-01T00:00:00Z');

  it('deletes the Secrets created before the preparation finished and keeps newer and missing ones listed', async () => {
    const api = shootWith([{ ns: 'default', name: 'builder', secrets: ['builder-token-old'] }]);
    api.now = '2026-01-01T12:00:00Z';
    await createNewServiceAccountSecrets(api as never, key);
    api.find('ServiceAccount', 'default', 'builder')!.secrets!.push({ name: 'gone' });
    expect(await deleteOldServiceAccountSecrets(api as never, preparedAt)).toBe(1);
    expect(api.deleted).toEqual(['builder-token-old']);
    const sa = api.find('ServiceAccount', 'default', 'builder')!;
    expect(sa.secrets).toEqual([{ name: `builder-token-${suffix}` }, { name: 'gone' }]);
    expect(sa.metadata.labels).toEqual({});
  });

  it('leaves ServiceAccounts without old Secrets untouched (label included)', async () => {
    const api = shootWith([
      { ns: 'default', name: 'fresh', secrets: ['fresh-token'], secretCreated: '2026-01-01T01:00:00Z' },
    ]);
    api.find('ServiceAccount', 'default', 'fresh')!.metadata.labels = { [LabelKeyRotationKeyName]: 'k' };
    expect(await deleteOldServiceAccountSecrets(api as never, preparedAt)).toBe(0);
    expect(api.find('ServiceAccount', 'default', 'fresh')!.metadata.labels).toEqual({ [LabelKeyRotationKeyName]: 'k' });
  });

  it('property: exactly the Secrets older than the preparation are deleted', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: -48, max: 48 }), { maxLength: 6 }), async (hours) => {
        const api = new FakeAPI();
        const names = hours.map((_, i) => `s${i}`);
        api.add('ServiceAccount', {
          metadata: { name: 'sa', namespace: 'ns' },
          secrets: names.map((name) => ({ name })),
        });
        hours.forEach((h, i) =>
          api.add('Secret', {
            metadata: {
              name: names[i]!,
              namespace: 'ns',
              creationTimestamp: new Date(preparedAt.getTime() + h * 3600_000).toISOString(),
            },
          }),
        );
        await deleteOldServiceAccountSecrets(api as never, preparedAt);
        const old = names.filter((_, i) => hours[i]! < 0);
        expect(api.deleted.sort()).toEqual(old.sort());
        expect(api.find('ServiceAccount', 'ns', 'sa')!.secrets!.map((s) => s.name)).toEqual(
          names.filter((n) => !old.includes(n)),
        );
      }),
    );
  });
});

describe('ETCD encryption key rewrite bookkeeping on the kube-apiserver Deployment', () => {
  function seed() {
    const api = new FakeAPI();
    api.add('Deployment', { metadata: { name: 'kube-apiserver', namespace: 'shoot--a--b' } });
    return api;
  }
  const annotations = (api: FakeAPI) => api.find('Deployment', 'shoot--a--b', 'kube-apiserver')!.metadata.annotations;

  it('labels and snapshots once, then forgets both when the labels are removed', async () => {
    const api = seed();
    const calls: string[] = [];
    const label = () =>
      labelEncryptedDataOnce(api as never, 'shoot--a--b', 'kube-apiserver', async () => calls.push('label'));
    const snap = () =>
      snapshotEtcdAfterRewrite(api as never, 'shoot--a--b', 'kube-apiserver', async () => calls.push('snapshot'));
    await label();
    await snap();
    await label();
    await snap();
    expect(calls).toEqual(['label', 'snapshot']);
    expect(annotations(api)).toEqual({ [AnnotationResourcesLabeled]: 'true', [AnnotationEtcdSnapshotted]: 'true' });
    await unlabelEncryptedData(api as never, 'shoot--a--b', 'kube-apiserver', async () => calls.push('unlabel'));
    expect(annotations(api)).toEqual({});
    await snap();
    expect(calls).toEqual(['label', 'snapshot', 'unlabel', 'snapshot']);
  });

  it('does not mark a failed snapshot as taken', async () => {
    const api = seed();
    const failing = snapshotEtcdAfterRewrite(api as never, 'shoot--a--b', 'kube-apiserver', async () => {
      throw new Error('503 not the leader');
    });
    await expect(failing).rejects.toThrow('503 not the leader');
    expect(annotations(api)).toBeUndefined();
  });
});
