import {
  ApiError,
  type Client,
  type ConfigMap,
  type KubernetesObject,
  type ObjectKey,
} from '@gardener-ts/controller-runtime';
import { createLogger } from '@gardener-ts/logging';
import { describe, expect, it } from 'vitest';
import { DESCRIPTION, ROOT_CA_CONFIGMAP } from './publish.js';
import { RootCACertPublisherReconciler } from './reconciler.js';

const ctx = { log: createLogger({ name: 'test', level: 'silent' }) } as never;
const CA = 'shoot-ca-pem';
const req = { namespace: '', name: 'garden' };

/** A client over a map of objects by kind/namespace/name; `fail` makes the next write throw. */
function fakeClient(objects: KubernetesObject[], fail?: ApiError) {
  const store = new Map(objects.map((o) => [keyOf(o.kind!, o.metadata!), o]));
  const writes: { verb: string; object: KubernetesObject }[] = [];
  const client: Pick<Client, 'get' | 'create' | 'update'> = {
    get: async (kind, key) => {
      const obj = store.get(keyOf(kind.kind, key));
      if (!obj) throw new ApiError(404, 'NotFound', `${key.name} not found`);
      return obj as never;
    },
    create: async (obj) => write('create', obj),
    update: async (obj) => write('update', obj),
  };
  async function write<T extends KubernetesObject>(verb: string, obj: T): Promise<T> {
    writes.push({ verb, object: obj });
    if (fail) throw fail;
    store.set(keyOf(obj.kind!, obj.metadata!), obj);
    return obj;
  }
  return { client, writes, store };
}

function keyOf(kind: string, key: ObjectKey | { namespace?: string; name?: string }): string {
  return `${kind}/${key.namespace ?? ''}/${key.name}`;
}

const namespace = (extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name: 'garden', ...extra },
});
const configMap = (data: Record<string, string>): ConfigMap => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: ROOT_CA_CONFIGMAP, namespace: 'garden', resourceVersion: '7', annotations: { a: 'b' } },
  data,
});

describe('RootCACertPublisherReconciler', () => {
  it('creates the ConfigMap in an active namespace that has none, then does nothing more', async () => {
    const { client, writes } = fakeClient([namespace()]);
    const reconciler = new RootCACertPublisherReconciler(client, CA);
    expect(await reconciler.reconcile(req, ctx)).toBeUndefined();
    expect(writes).toEqual([
      {
        verb: 'create',
        object: expect.objectContaining({
          metadata: expect.objectContaining({ namespace: 'garden', name: ROOT_CA_CONFIGMAP }),
          data: { 'ca.crt': CA },
        }),
      },
    ]);
    await reconciler.reconcile(req, ctx);
    expect(writes).toHaveLength(1);
  });

  it("overwrites another CA (the API server's own) in place", async () => {
    const { client, writes } = fakeClient([namespace(), configMap({ 'ca.crt': 'substrate-ca' })]);
    await new RootCACertPublisherReconciler(client, CA).reconcile(req, ctx);
    expect(writes).toEqual([
      {
        verb: 'update',
        object: expect.objectContaining({
          metadata: expect.objectContaining({
            resourceVersion: '7',
            annotations: { a: 'b', 'kubernetes.io/description': DESCRIPTION },
          }),
          data: { 'ca.crt': CA },
        }),
      },
    ]);
  });

  it('leaves a namespace alone that is gone or terminating', async () => {
    for (const objects of [
      [],
      [namespace({ deletionTimestamp: '2026-01-01T00:00:00Z' })],
      [{ ...namespace(), status: { phase: 'Terminating' } }],
    ]) {
      const { client, writes } = fakeClient(objects);
      await new RootCACertPublisherReconciler(client, CA).reconcile(req, ctx);
      expect(writes).toEqual([]);
    }
  });

  it('ignores a create refused because the namespace is gone or terminating', async () => {
    const terminating = new ApiError(403, 'Forbidden', 'unable to create new content', {
      causes: [{ reason: 'NamespaceTerminating' }],
    });
    for (const err of [terminating, new ApiError(404, 'NotFound', 'namespaces "garden" not found')]) {
      const { client } = fakeClient([namespace()], err);
      expect(await new RootCACertPublisherReconciler(client, CA).reconcile(req, ctx)).toBeUndefined();
    }
  });

  it('retries a write that lost a race, and fails on any other refusal', async () => {
    const races: [KubernetesObject[], ApiError][] = [
      [[namespace()], new ApiError(409, 'AlreadyExists', 'exists')],
      [[namespace(), configMap({})], new ApiError(409, 'Conflict', 'changed')],
      [[namespace(), configMap({})], new ApiError(404, 'NotFound', 'gone')],
    ];
    for (const [objects, err] of races) {
      const { client } = fakeClient(objects, err);
      expect(await new RootCACertPublisherReconciler(client, CA).reconcile(req, ctx)).toEqual({ requeue: true });
    }
    const { client } = fakeClient([namespace()], new ApiError(403, 'Forbidden', 'no create'));
    await expect(new RootCACertPublisherReconciler(client, CA).reconcile(req, ctx)).rejects.toThrow(
      /creating ConfigMap garden\/kube-root-ca.crt/,
    );
  });
});
