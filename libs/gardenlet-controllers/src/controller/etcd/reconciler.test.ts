// The Etcd reconciler driven by a fake seed client: the spec is reconciled on creation and on
// `gardener.cloud/operation=reconcile` only (or every change with autoReconcile; never while suspended), a failing
// apply becomes druid's lastErrors/lastOperation Error, the status follows the StatefulSet, and deletion removes the
// StatefulSet and Services before the finalizer.
import { ApiError, applyMergePatch, type KubernetesObject, type ObjectKey } from '@gardener-ts/controller-runtime';
import { describe, expect, it } from 'vitest';
import { renderEtcd } from '../../component/etcd.js';
import type { ShootSecretNames } from '../../component/secrets.js';
import { exampleValues } from '../../component/testdata/fixtures.js';
import type { EtcdResource } from './kinds.js';
import { EtcdFinalizer, EtcdReconciler, specReconcileRequested } from './reconciler.js';

const names: ShootSecretNames = {
  secrets: { 'etcd-server-main': 'etcd-server-main-1', 'etcd-client': 'etcd-client-1' },
  bundles: { 'ca-etcd': 'ca-etcd-bundle-1' },
};
const namespace = 'shoot--local--local';
const key = { namespace, name: 'etcd-main' };

/** An in-memory seed: get/list/patch (merge, status subresource)/apply/delete with finalizers. */
class FakeSeed {
  readonly objects = new Map<string, KubernetesObject>();
  readonly applied: KubernetesObject[] = [];
  readonly deleted: { kind: string; name: string; propagationPolicy?: string }[] = [];
  failApply?: (obj: KubernetesObject) => Error | undefined;
  private rv = 1;

  private id(kind: string, k: ObjectKey) {
    return `${kind}/${k.namespace ?? ''}/${k.name}`;
  }

  put(obj: KubernetesObject & { spec?: unknown; status?: unknown }): void {
    const stored = structuredClone(obj);
    stored.metadata = { ...stored.metadata, resourceVersion: String(++this.rv) };
    this.objects.set(this.id(obj.kind!, stored.metadata as ObjectKey), stored);
  }

  find<T extends KubernetesObject>(kind: string, k: ObjectKey = key): T | undefined {
    return this.objects.get(this.id(kind, k)) as T | undefined;
  }

  async get<T extends KubernetesObject>(kind: { kind: string }, k: ObjectKey): Promise<T> {
    const o = this.objects.get(this.id(kind.kind, k));
    if (!o) throw new ApiError(404, 'NotFound', `${kind.kind} ${k.name} not found`);
    return structuredClone(o) as T;
  }

  async list<T extends KubernetesObject>(kind: { kind: string }): Promise<{ items: T[] }> {
    return { items: [...this.objects.values()].filter((o) => o.kind === kind.kind) as T[] };
  }

  async patch<T extends KubernetesObject>(
    kind: { kind: string },
    k: ObjectKey,
    patch: { patch: unknown },
    opts?: { subresource?: string },
  ): Promise<T> {
    const current = await this.get<T>(kind, k);
    const body = structuredClone(patch.patch) as { metadata?: Record<string, unknown>; status?: unknown };
    if (body.metadata) delete body.metadata.resourceVersion;
    const next = (
      opts?.subresource === 'status'
        ? applyMergePatch(current, { status: body.status })
        : { ...(applyMergePatch(current, { ...body, status: undefined }) as object), status: (current as any).status }
    ) as T;
    if (next.metadata?.deletionTimestamp && !next.metadata.finalizers?.length) {
      this.objects.delete(this.id(kind.kind, k));
      return next;
    }
    this.put(next);
    return next;
  }

  async apply<T extends KubernetesObject>(obj: T): Promise<T> {
    const err = this.failApply?.(obj);
    if (err) throw err;
    this.applied.push(structuredClone(obj));
    this.put(obj);
    return obj;
  }

  async delete(kind: { kind: string }, k: ObjectKey, opts?: { propagationPolicy?: string }): Promise<void> {
    this.deleted.push({ kind: kind.kind, name: k.name, propagationPolicy: opts?.propagationPolicy });
    const o = this.find(kind.kind, k);
    if (!o) throw new ApiError(404, 'NotFound', `${kind.kind} ${k.name} not found`);
    if (o.metadata?.finalizers?.length) this.put({ ...o, metadata: { ...o.metadata, deletionTimestamp: 'now' } });
    else this.objects.delete(this.id(kind.kind, k));
  }
}

const etcdMain = (mutate?: (e: EtcdResource) => void): EtcdResource => {
  const e = renderEtcd(exampleValues(), 'main', names, { now: '2026-01-01T00:00:00Z' }) as unknown as EtcdResource;
  e.metadata = { ...e.metadata, uid: 'uid-1', generation: 1 };
  mutate?.(e);
  return e;
};

const setup = (etcd = etcdMain(), autoReconcile = false) => {
  const seed = new FakeSeed();
  seed.put(etcd);
  const reconciler = new EtcdReconciler({
    client: seed as never,
    autoReconcile,
    now: () => new Date('2026-01-01T00:00:00Z'),
    runID: () => 'run-1',
  });
  return { seed, reconciler, etcd: () => seed.find<EtcdResource>('Etcd')! };
};

describe('the Etcd reconciler', () => {
  it('creates the StatefulSet and Services of a new Etcd, removes the operation annotation and observes the generation', async () => {
    const { seed, reconciler, etcd } = setup();
    const result = await reconciler.reconcile(key);
    expect(result).toEqual({ requeueAfter: 15_000 });
    expect(seed.applied.map((o) => `${o.kind}/${o.metadata?.name}`)).toEqual([
      'Service/etcd-main-client',
      'Service/etcd-main-peer',
      'StatefulSet/etcd-main',
    ]);
    const after = etcd();
    expect(after.metadata?.finalizers).toEqual([EtcdFinalizer]);
    expect(after.metadata?.annotations?.['gardener.cloud/operation']).toBeUndefined();
    expect(after.status).toMatchObject({
      observedGeneration: 1,
      lastOperation: { type: 'Create', state: 'Succeeded', runID: 'run-1' },
      ready: false,
    });
  });

  it('reconciles a spec change only when asked, or always with autoReconcile, never while suspended', async () => {
    const { seed, reconciler, etcd } = setup();
    await reconciler.reconcile(key);
    seed.applied.length = 0;
    seed.put({ ...etcd(), metadata: { ...etcd().metadata, generation: 2 }, spec: { ...etcd().spec, replicas: 0 } });
    await reconciler.reconcile(key);
    expect(seed.applied).toEqual([]);
    expect(specReconcileRequested(etcd(), true)).toBe(true);

    const annotated = etcd();
    annotated.metadata!.annotations = { ...annotated.metadata!.annotations, 'gardener.cloud/operation': 'reconcile' };
    expect(
      specReconcileRequested(
        {
          ...annotated,
          metadata: {
            ...annotated.metadata,
            annotations: {
              ...annotated.metadata!.annotations,
              'druid.gardener.cloud/suspend-etcd-spec-reconcile': 'true',
            },
          },
        },
        true,
      ),
    ).toBe(false);
    seed.put(annotated);
    await reconciler.reconcile(key);
    const sts = seed.applied.find((o) => o.kind === 'StatefulSet') as { spec: { replicas: number } } | undefined;
    expect(sts?.spec.replicas).toBe(0);
    expect(etcd().status).toMatchObject({
      observedGeneration: 2,
      lastOperation: { type: 'Reconcile', state: 'Succeeded' },
    });
  });

  it("mounts the Local store's bucket below the store Secret's hostPath, and fails naming a missing Secret", async () => {
    const withStore = etcdMain((e) => {
      e.spec.backup.store = {
        provider: 'local',
        container: 'bucket-1',
        prefix: 'entry/etcd-main',
        secretRef: { name: 'etcd-backup' },
      };
    });
    const { seed, reconciler, etcd } = setup(withStore);
    await expect(reconciler.reconcile(key)).rejects.toThrow(/reading the backup store Secret etcd-backup/);
    expect(etcd().status?.lastErrors?.[0]?.code).toBe('ERR_SYNC_STATEFULSET');
    seed.put({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { namespace, name: 'etcd-backup' },
      data: {
        bucketName: Buffer.from('bucket-1').toString('base64'),
        hostPath: Buffer.from('/srv/buckets').toString('base64'),
      },
    } as KubernetesObject);
    await reconciler.reconcile(key);
    const sts = seed.find<KubernetesObject & { spec: any }>('StatefulSet')!;
    expect(sts.spec.template.spec.volumes).toContainEqual({
      name: 'local-backup',
      hostPath: { path: '/srv/buckets/bucket-1', type: 'Directory' },
    });
    expect(sts.spec.template.spec.containers.map((c: { name: string }) => c.name)).toEqual(['etcd', 'backup-restore']);
    expect(etcd().status?.lastErrors).toBeUndefined();
  });

  it("writes druid's lastErrors and an Error lastOperation when the StatefulSet cannot be applied", async () => {
    const { seed, reconciler, etcd } = setup();
    seed.failApply = (obj) =>
      obj.kind === 'StatefulSet' ? new ApiError(422, 'Invalid', 'StatefulSet.apps "etcd-main" is invalid') : undefined;
    await expect(reconciler.reconcile(key)).rejects.toThrow(
      'reconciling Etcd shoot--local--local/etcd-main: StatefulSet.apps "etcd-main" is invalid',
    );
    expect(etcd().status).toMatchObject({
      lastErrors: [
        {
          code: 'ERR_SYNC_STATEFULSET',
          description: 'Etcd shoot--local--local/etcd-main: StatefulSet.apps "etcd-main" is invalid',
        },
      ],
      lastOperation: { type: 'Create', state: 'Error' },
    });
    expect(etcd().status?.observedGeneration).toBeUndefined();
    // The next attempt succeeds and clears the errors.
    seed.failApply = undefined;
    await reconciler.reconcile(key);
    expect(etcd().status?.lastErrors).toBeUndefined();
    expect(etcd().status?.lastOperation?.state).toBe('Succeeded');
  });

  it('recreates a StatefulSet whose immutable fields changed, leaving its Pods (orphan)', async () => {
    const { seed, reconciler, etcd } = setup();
    await reconciler.reconcile(key);
    let refused = false;
    seed.failApply = (obj) => {
      if (obj.kind !== 'StatefulSet' || refused) return undefined;
      refused = true;
      return new ApiError(
        422,
        'Invalid',
        `StatefulSet.apps "etcd-main" is invalid: spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden`,
      );
    };
    const annotated = etcd();
    annotated.metadata!.annotations = { ...annotated.metadata!.annotations, 'gardener.cloud/operation': 'reconcile' };
    seed.put(annotated);
    await reconciler.reconcile(key);
    expect(seed.deleted).toEqual([{ kind: 'StatefulSet', name: 'etcd-main', propagationPolicy: 'Orphan' }]);
    expect(seed.find('StatefulSet')).toBeDefined();
    expect(etcd().status?.lastOperation?.state).toBe('Succeeded');
  });

  it('refuses a bad quota with ERR_INVALID_ETCD_SPEC', async () => {
    const { reconciler, etcd } = setup(etcdMain((e) => (e.spec.etcd.quota = 'lots')));
    await expect(reconciler.reconcile(key)).rejects.toThrow('spec.etcd.quota');
    expect(etcd().status?.lastErrors?.[0]?.code).toBe('ERR_INVALID_ETCD_SPEC');
  });

  it('is ready once its StatefulSet has the ready replicas', async () => {
    const { seed, reconciler, etcd } = setup();
    await reconciler.reconcile(key);
    const sts = seed.find('StatefulSet')!;
    seed.put({
      ...sts,
      metadata: { ...sts.metadata, generation: 1 },
      status: { observedGeneration: 1, replicas: 1, readyReplicas: 1 },
    } as KubernetesObject);
    seed.put({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'etcd-main-0', namespace },
      status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
    } as KubernetesObject);
    await reconciler.reconcile(key);
    expect(etcd().status).toMatchObject({
      ready: true,
      readyReplicas: 1,
      members: [{ name: 'etcd-main-0', status: 'Ready' }],
    });
  });

  it('deletes the StatefulSet and Services, then releases the finalizer', async () => {
    const { seed, reconciler } = setup();
    await reconciler.reconcile(key);
    await seed.delete({ kind: 'Etcd' }, key);
    await reconciler.reconcile(key);
    expect(seed.find('StatefulSet')).toBeUndefined();
    expect(seed.find('Service', { namespace, name: 'etcd-main-client' })).toBeUndefined();
    expect(seed.find('Service', { namespace, name: 'etcd-main-peer' })).toBeUndefined();
    expect(seed.find('Etcd')).toBeUndefined();
  });
});
