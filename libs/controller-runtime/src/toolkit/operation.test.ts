import { describe, expect, it } from 'vitest';
import {
  OPERATION_ANNOTATION,
  OPERATION_MIGRATE,
  OPERATION_RECONCILE,
  OPERATION_RESTORE,
  operationOf,
  removeOperationAnnotation,
} from './operation.js';
import { FakeClient } from './testing/fake-client.js';

const infra = (operation?: string) => ({
  apiVersion: 'extensions.gardener.cloud/v1alpha1',
  kind: 'Infrastructure',
  metadata: {
    name: 'shoot--dev--a',
    namespace: 'shoot--dev--a',
    annotations: { other: 'x', ...(operation ? { [OPERATION_ANNOTATION]: operation } : {}) },
  },
  spec: { type: 'local' },
});

describe('operation annotation', () => {
  it("uses Gardener's key and values", () => {
    expect(OPERATION_ANNOTATION).toBe('gardener.cloud/operation');
    expect([OPERATION_RECONCILE, OPERATION_MIGRATE, OPERATION_RESTORE]).toEqual(['reconcile', 'migrate', 'restore']);
  });

  it('reads the value', () => {
    expect(operationOf(infra('migrate'))).toBe('migrate');
    expect(operationOf(infra())).toBeUndefined();
    expect(operationOf({})).toBeUndefined();
  });

  it('removes the annotation and keeps the others', async () => {
    const client = new FakeClient();
    const obj = client.put(infra('reconcile'));
    const updated = await removeOperationAnnotation(client, obj);
    expect(updated.metadata?.annotations).toEqual({ other: 'x' });
    expect(client.stored(obj)?.metadata?.annotations).toEqual({ other: 'x' });
  });

  it('is a no-op without the annotation', async () => {
    const client = new FakeClient();
    const obj = client.put(infra());
    expect(await removeOperationAnnotation(client, obj)).toBe(obj);
    expect(client.patches).toHaveLength(0);
  });

  it('keeps a newer request set after the object was read', async () => {
    const client = new FakeClient();
    const read = client.put(infra('reconcile'));
    client.put(infra('migrate')); // gardenlet asks for a migration meanwhile
    const result = await removeOperationAnnotation(client, read);
    expect(operationOf(result)).toBe('migrate');
    expect(operationOf(client.stored(read)!)).toBe('migrate');
  });

  it('retries when something else changed but the value and the generation are the same', async () => {
    const client = new FakeClient();
    const at = (generation: number, labels: Record<string, string> = {}) => {
      const obj = infra('restore');
      return { ...obj, metadata: { ...obj.metadata, generation, labels } };
    };
    const read = client.put(at(1));
    client.put(at(1, { changed: 'true' })); // metadata only: the spec the reconcile acted on is still current
    const result = await removeOperationAnnotation(client, read);
    expect(operationOf(result)).toBeUndefined();
    expect(client.stored<ReturnType<typeof at>>(read)?.metadata?.labels).toEqual({ changed: 'true' });
  });

  it('keeps the annotation when a new spec was written with it after the object was read', async () => {
    // The delete flow's etcd: deployed (replicas 0, reconcile), then scaled up (replicas 1, reconcile) while the
    // controller still acted on the first write. Removing the second request would leave replicas 1 never reconciled.
    const client = new FakeClient();
    const at = (generation: number, replicas: number) => {
      const obj = infra('reconcile');
      return { ...obj, metadata: { ...obj.metadata, generation }, spec: { ...obj.spec, replicas } };
    };
    const read = client.put(at(1, 0));
    client.put(at(2, 1));
    const result = await removeOperationAnnotation(client, read);
    expect(operationOf(result)).toBe('reconcile');
    expect(operationOf(client.stored(read)!)).toBe('reconcile');
  });

  it('treats a gone object as done', async () => {
    const client = new FakeClient();
    const read = client.put(infra('reconcile'));
    client.remove(read);
    await expect(removeOperationAnnotation(client, read)).resolves.toBe(read);
  });

  it('re-reads a conflicting object from the API server, not from a stale cache', async () => {
    const api = new FakeClient();
    const read = api.put(infra('reconcile'));
    api.put({ ...infra('reconcile'), status: { written: 'by the last reconcile' } });
    // A cache-backed client whose cache never saw the last write: every read from it would conflict again.
    const cached = {
      get: (async () => structuredClone(read)) as unknown as FakeClient['get'],
      patch: api.patch.bind(api),
      api,
    };
    const result = await removeOperationAnnotation(cached, read);
    expect(operationOf(result)).toBeUndefined();
    expect(operationOf(api.stored(read)!)).toBeUndefined();
  });
});
