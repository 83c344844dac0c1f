import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ApiError, type Client, type KubernetesObject } from '@gardener-ts/controller-runtime';
import { RequeueAfterError, type ActuatorContext, type Cluster, type ExtensionObject } from '@gardener-ts/extensions';
import { createLogger } from '@gardener-ts/logging';
import {
  ShootObjectsActuator,
  managedResourceSecretName,
  objectDataKey,
  shootObjectsManagedResource,
} from './shoot-objects.js';

const namespace = 'shoot--local--local';
const extension: ExtensionObject = {
  apiVersion: 'extensions.gardener.cloud/v1alpha1',
  kind: 'Extension',
  metadata: { name: 'test-ext', namespace },
  spec: { type: 'test-ext' },
};
const serviceAccount: KubernetesObject = {
  apiVersion: 'v1',
  kind: 'ServiceAccount',
  metadata: { name: 'a.b', namespace: 'kube-system' },
};

type Obj = KubernetesObject & Record<string, any>;

/**
 * A seed over a map ("Kind/name"), recording writes. An applied ManagedResource gets generation 1 and the status that
 * `mrStatus` gives (the shoot's resource manager); a deleted one stays while `held` (the resource manager's finalizer).
 */
function fakeSeed(opts: { mrStatus?: () => Obj['status']; held?: () => boolean } = {}) {
  const objects = new Map<string, Obj>();
  const writes: string[] = [];
  const notFound = () => new ApiError(404, 'NotFound', 'not found');
  const client = {
    get: async (kind: { kind: string }, key: { name: string }) => {
      const obj = objects.get(`${kind.kind}/${key.name}`);
      if (!obj) throw notFound();
      return structuredClone(obj);
    },
    patch: async (kind: { kind: string }, key: { name: string }, patch: { type: string; patch: Obj }) => {
      writes.push(`${patch.type} ${kind.kind}/${key.name}`);
      const id = `${kind.kind}/${key.name}`;
      if (patch.type === 'apply') {
        const obj: Obj = structuredClone(patch.patch);
        if (kind.kind === 'ManagedResource') {
          obj.metadata = { ...obj.metadata, generation: 1 };
          const status = opts.mrStatus?.();
          if (status) obj.status = status;
        }
        objects.set(id, obj);
      } else {
        const existing = objects.get(id);
        if (!existing) throw notFound();
        existing.spec = { ...existing.spec, ...patch.patch.spec };
      }
      return structuredClone(objects.get(id));
    },
    delete: async (kind: { kind: string }, key: { name: string }) => {
      writes.push(`delete ${kind.kind}/${key.name}`);
      const id = `${kind.kind}/${key.name}`;
      if (!objects.has(id)) throw notFound();
      if (kind.kind === 'ManagedResource' && opts.held?.()) return;
      objects.delete(id);
    },
  } as unknown as Client;
  return { client, objects, writes };
}

const context = (client: Client, cluster?: Cluster): ActuatorContext => ({
  client,
  log: createLogger({ name: 'test', level: 'silent' }),
  signal: new AbortController().signal,
  ...(cluster ? { cluster } : {}),
});

const healthy = {
  observedGeneration: 1,
  conditions: [
    { type: 'ResourcesApplied', status: 'True' },
    { type: 'ResourcesHealthy', status: 'True' },
  ],
};

describe('shootObjectsManagedResource', () => {
  it('carries every object in its Secret under the registry key, for the shoot, with no-cleanup labels', () => {
    const { secret, managedResource } = shootObjectsManagedResource(namespace, 'test-ext', [serviceAccount]);
    expect(secret.metadata).toEqual({ name: 'managedresource-test-ext', namespace });
    expect(Object.keys(secret.data!)).toEqual(['serviceaccount__kube-system__a_b.yaml']);
    expect(parse(Buffer.from(secret.data!['serviceaccount__kube-system__a_b.yaml']!, 'base64').toString())).toEqual(
      serviceAccount,
    );
    expect(managedResource.metadata).toEqual({ name: 'test-ext', namespace });
    expect(managedResource.spec).toEqual({
      secretRefs: [{ name: 'managedresource-test-ext' }],
      injectLabels: { 'shoot.gardener.cloud/no-cleanup': 'true' },
      keepObjects: false,
    });
    // No class: the shoot's resource manager (target: the shoot) applies it, not the seed's.
    expect(managedResource.spec.class).toBeUndefined();
  });

  it('names data keys and Secrets as Gardener does', () => {
    expect(objectDataKey({ kind: 'Deployment', metadata: { name: 'x', namespace: 'kube-system' } })).toBe(
      'deployment__kube-system__x.yaml',
    );
    expect(objectDataKey({ kind: 'ClusterRole', metadata: { name: 'system:a.b' } })).toBe(
      'clusterrole____system:a_b.yaml',
    );
    expect(managedResourceSecretName('local-ext-shoot')).toBe('managedresource-local-ext-shoot');
  });
});

describe('ShootObjectsActuator', () => {
  const actuator = (opts: Partial<ConstructorParameters<typeof ShootObjectsActuator>[0]> = {}) =>
    new ShootObjectsActuator({ name: 'test-ext', objects: () => [serviceAccount], pollMs: 1234, ...opts });

  it('writes the Secret before the ManagedResource and does not wait unless asked to', async () => {
    const { client, writes } = fakeSeed();
    await actuator().reconcile(context(client), extension);
    expect(writes).toEqual(['apply Secret/managedresource-test-ext', 'apply ManagedResource/test-ext']);
  });

  it('waits (requeue) until the ManagedResource is applied and healthy when asked to', async () => {
    let status: Obj['status'] = undefined;
    const { client } = fakeSeed({ mrStatus: () => status });
    const waiting = actuator({ waitUntilHealthy: true });
    const err = await waiting.reconcile(context(client), extension).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RequeueAfterError);
    expect((err as RequeueAfterError).requeueAfterMs).toBe(1234);
    expect((err as Error).message).toMatch(/ManagedResource shoot--local--local\/test-ext to become healthy/);

    status = { ...healthy, conditions: [healthy.conditions[0], { type: 'ResourcesHealthy', status: 'False' }] };
    await expect(waiting.reconcile(context(client), extension)).rejects.toThrow(/ResourcesHealthy has invalid status/);
    status = healthy;
    await expect(waiting.reconcile(context(client), extension)).resolves.toBeUndefined();
  });

  it('does not wait for a shoot whose hibernation is enabled', async () => {
    const { client } = fakeSeed();
    const cluster = { shoot: { spec: { hibernation: { enabled: true } } } } as unknown as Cluster;
    await expect(actuator({ waitUntilHealthy: true }).reconcile(context(client, cluster), extension)).resolves.toBe(
      undefined,
    );
  });

  it('deletes the ManagedResource, waits until it is gone, and only then deletes its Secret', async () => {
    let held = true;
    const { client, objects, writes } = fakeSeed({ held: () => held });
    await actuator().reconcile(context(client), extension);
    writes.length = 0;
    await expect(actuator().delete(context(client), extension)).rejects.toBeInstanceOf(RequeueAfterError);
    expect(objects.has('Secret/managedresource-test-ext')).toBe(true);
    held = false;
    await actuator().delete(context(client), extension);
    expect(objects.size).toBe(0);
    // A retry finds nothing and succeeds.
    await actuator().delete(context(client), extension);
  });

  it('keeps the objects in the shoot on migration (keepObjects before the deletion)', async () => {
    const { client, objects, writes } = fakeSeed();
    await actuator().reconcile(context(client), extension);
    let keptWhenDeleted: unknown;
    const spy = {
      ...client,
      delete: async (kind: { kind: string }, key: { name: string }) => {
        if (kind.kind === 'ManagedResource')
          keptWhenDeleted = objects.get('ManagedResource/test-ext')?.spec?.keepObjects;
        return client.delete(kind as never, key as never);
      },
    } as unknown as Client;
    writes.length = 0;
    await actuator().migrate(context(spy), extension);
    expect(keptWhenDeleted).toBe(true);
    expect(writes).toEqual([
      'merge ManagedResource/test-ext',
      'delete ManagedResource/test-ext',
      'delete Secret/managedresource-test-ext',
    ]);
    expect(objects.size).toBe(0);
  });

  it('force-deletes both without waiting for the shoot', async () => {
    const { client, objects } = fakeSeed({ held: () => true });
    await actuator().reconcile(context(client), extension);
    await actuator().forceDelete(context(client), extension);
    expect([...objects.keys()]).toEqual(['ManagedResource/test-ext']); // still held by the resource manager's finalizer
  });
});
