// The binder's claim and volume workers driven over an in-memory store (get/list/patch/update/updateStatus as the API
// server answers them), with claims and volumes as `kubectl apply` writes them.
import { ApiError, type Kind, type KubernetesObject, type ObjectKey } from '@gardener-ts/controller-runtime';
import { describe, expect, it } from 'vitest';
import type { ControllerContext } from '../shared/context.js';
import type { EventRecorder } from '../shared/events.js';
import type { PersistentVolume, PersistentVolumeClaim, StorageClass } from '../shared/kinds.js';
import { ClaimBinder, VolumeBinder } from './binder.js';

type Obj = KubernetesObject & Record<string, any>;

function store(objects: Obj[]) {
  const byKey = new Map<string, Obj>();
  const keyOf = (kind: string, namespace: string | undefined, name: string) => `${kind}/${namespace ?? ''}/${name}`;
  const put = (o: Obj) => byKey.set(keyOf(o.kind!, o.metadata?.namespace, o.metadata!.name!), structuredClone(o));
  let uid = 0;
  for (const o of objects) put({ ...o, metadata: { uid: `uid-${++uid}`, ...o.metadata } });
  const get = (kind: Kind, key: ObjectKey) => {
    const o = byKey.get(keyOf(kind.kind, key.namespace, key.name));
    if (!o) throw new ApiError(404, 'NotFound', `${kind.kind} ${key.name} not found`);
    return structuredClone(o);
  };
  const client = {
    get: async (kind: Kind, key: ObjectKey) => get(kind, key),
    list: async (kind: Kind) => ({
      items: [...byKey.values()].filter((o) => o.kind === kind.kind).map((o) => structuredClone(o)),
    }),
    patch: async (kind: Kind, key: ObjectKey, { patch }: { patch: Obj }) => {
      const o = get(kind, key);
      o.metadata = {
        ...o.metadata,
        ...patch.metadata,
        annotations: { ...o.metadata?.annotations, ...patch.metadata?.annotations },
      };
      o.spec = { ...o.spec, ...patch.spec };
      put(o);
      return o;
    },
    // An update keeps the stored status, as the API server does for the main resource.
    update: async (obj: Obj) => {
      const current = get({ kind: obj.kind! } as Kind, {
        namespace: obj.metadata?.namespace,
        name: obj.metadata!.name!,
      });
      put({ ...obj, status: current.status });
      return get({ kind: obj.kind! } as Kind, { namespace: obj.metadata?.namespace, name: obj.metadata!.name! });
    },
    updateStatus: async (obj: Obj) => {
      const current = get({ kind: obj.kind! } as Kind, {
        namespace: obj.metadata?.namespace,
        name: obj.metadata!.name!,
      });
      put({ ...current, status: obj.status });
      return obj;
    },
    create: async (obj: Obj) => {
      put({ ...obj, metadata: { uid: `uid-${++uid}`, ...obj.metadata } });
      return obj;
    },
    delete: async (kind: Kind, key: ObjectKey) => void byKey.delete(keyOf(kind.kind, key.namespace, key.name)),
  };
  const events: string[] = [];
  const recorder = {
    event: (_o: unknown, _t: string, reason: string) => events.push(reason),
  } as unknown as EventRecorder;
  const ctx = { client, api: client } as unknown as ControllerContext;
  return {
    claims: new ClaimBinder(ctx, recorder),
    volumes: new VolumeBinder(ctx),
    claim: (name: string) =>
      get({ kind: 'PersistentVolumeClaim' } as Kind, { namespace: 'default', name }) as PersistentVolumeClaim,
    volume: (name: string) => get({ kind: 'PersistentVolume' } as Kind, { namespace: '', name }) as PersistentVolume,
    client,
    events,
  };
}

const claim = (name: string, spec: Record<string, unknown> = {}, annotations?: Record<string, string>): Obj => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name, namespace: 'default', ...(annotations ? { annotations } : {}) },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec },
});
const standard: StorageClass & Obj = {
  apiVersion: 'storage.k8s.io/v1',
  kind: 'StorageClass',
  metadata: { name: 'standard', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
  provisioner: 'rancher.io/local-path',
  volumeBindingMode: 'WaitForFirstConsumer',
};
const manualVolume: Obj = {
  apiVersion: 'v1',
  kind: 'PersistentVolume',
  metadata: { name: 'task-pv-volume' },
  spec: {
    storageClassName: 'manual',
    capacity: { storage: '10Gi' },
    accessModes: ['ReadWriteOnce'],
    hostPath: { path: '/mnt/data' },
  },
};
const req = (name: string) => ({ namespace: 'default', name });

describe('ClaimBinder', () => {
  it('gives a claim without a class the default class, waits for its first consumer, then hands it to the provisioner', async () => {
    const s = store([standard, claim('data')]);
    await s.claims.reconcile(req('data'));
    expect(s.claim('data').spec?.storageClassName).toBe('standard');
    await s.claims.reconcile(req('data'));
    expect(s.claim('data').status?.phase).toBe('Pending');
    expect(s.claim('data').metadata?.annotations?.['volume.kubernetes.io/storage-provisioner']).toBeUndefined();
    expect(s.events).toEqual(['WaitForFirstConsumer']);
    await s.claims.reconcile(req('data'));
    expect(s.events).toEqual(['WaitForFirstConsumer']); // told once

    await s.client.patch({ kind: 'PersistentVolumeClaim' } as Kind, req('data'), {
      patch: { metadata: { annotations: { 'volume.kubernetes.io/selected-node': 'node-1' } } } as Obj,
    });
    await s.claims.reconcile(req('data'));
    expect(s.claim('data').metadata?.annotations).toMatchObject({
      'volume.kubernetes.io/storage-provisioner': 'rancher.io/local-path',
      'volume.beta.kubernetes.io/storage-provisioner': 'rancher.io/local-path',
    });
    expect(s.events).toEqual(['WaitForFirstConsumer', 'ExternalProvisioning']);
  });

  it('binds a claim to a static volume of its class, and the volume is Released once the claim is gone', async () => {
    const s = store([
      manualVolume,
      claim('task-pv-claim', { storageClassName: 'manual', resources: { requests: { storage: '3Gi' } } }),
    ]);
    await s.volumes.reconcile({ namespace: '', name: 'task-pv-volume' });
    expect(s.volume('task-pv-volume').status?.phase).toBe('Available');

    await s.claims.reconcile(req('task-pv-claim'));
    const bound = s.claim('task-pv-claim');
    expect(bound.spec?.volumeName).toBe('task-pv-volume');
    expect(bound.metadata?.annotations).toMatchObject({
      'pv.kubernetes.io/bind-completed': 'yes',
      'pv.kubernetes.io/bound-by-controller': 'yes',
    });
    expect(bound.status).toEqual({ phase: 'Bound', accessModes: ['ReadWriteOnce'], capacity: { storage: '10Gi' } });
    const volume = s.volume('task-pv-volume');
    expect(volume.spec?.claimRef).toMatchObject({
      namespace: 'default',
      name: 'task-pv-claim',
      uid: bound.metadata?.uid,
    });
    expect(volume.status?.phase).toBe('Bound');

    await s.client.delete({ kind: 'PersistentVolumeClaim' } as Kind, req('task-pv-claim'));
    await s.volumes.reconcile({ namespace: '', name: 'task-pv-volume' });
    expect(s.volume('task-pv-volume').status?.phase).toBe('Released');
    // A new claim of the same name is another claim: the released volume is not given back to it.
    await s.client.create(claim('task-pv-claim', { storageClassName: 'manual' }));
    await s.volumes.reconcile({ namespace: '', name: 'task-pv-volume' });
    await s.claims.reconcile(req('task-pv-claim'));
    expect(s.volume('task-pv-volume').status?.phase).toBe('Released');
    expect(s.claim('task-pv-claim').spec?.volumeName).toBeUndefined();
    expect(s.claim('task-pv-claim').status?.phase).toBe('Pending');
  });

  it('leaves a claim Pending when no volume fits and its class is missing, and a bound claim Lost without its volume', async () => {
    const s = store([claim('orphan', { storageClassName: 'gone' }), claim('lost', { volumeName: 'pv-x' })]);
    await s.claims.reconcile(req('orphan'));
    expect(s.claim('orphan').status?.phase).toBe('Pending');
    expect(s.events).toEqual(['ProvisioningFailed']);

    await s.client.updateStatus({ ...s.claim('lost'), status: { phase: 'Bound' } } as Obj);
    await s.claims.reconcile(req('lost'));
    expect(s.claim('lost').status?.phase).toBe('Lost');
    expect(s.events).toEqual(['ProvisioningFailed', 'ClaimLost']);
  });
});
