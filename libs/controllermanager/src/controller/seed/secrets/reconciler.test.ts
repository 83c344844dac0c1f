import { describe, expect, it } from 'vitest';
import type { Seed } from '@gardener-ts/api';
import { ApiError, type Client, type KubernetesObject, type Secret } from '@gardener-ts/controller-runtime';
import { ctx } from '../testing/fake-seed-client.js';
import { SeedSecretsReconciler } from './reconciler.js';

/** Objects by kind/namespace/name; records every write. */
class FakeGarden {
  readonly objects = new Map<string, KubernetesObject>();
  readonly writes: string[] = [];
  private rv = 1;
  private key = (kind: string, namespace: string | undefined, name: string) => `${kind}/${namespace ?? ''}/${name}`;
  add(obj: KubernetesObject) {
    this.objects.set(this.key(obj.kind!, obj.metadata?.namespace, obj.metadata!.name!), structuredClone(obj));
  }
  find(kind: string, namespace: string, name: string) {
    return this.objects.get(this.key(kind, namespace, name));
  }
  get = (async (kind: { kind: string }, key: { namespace?: string; name: string }) => {
    const o = this.objects.get(this.key(kind.kind, key.namespace, key.name));
    if (!o) throw new ApiError(404, 'NotFound', `${kind.kind} ${key.name} not found`);
    return structuredClone(o);
  }) as Client['get'];
  list = (async (kind: { kind: string }, opts: { namespace?: string } = {}) => ({
    items: [...this.objects.values()]
      .filter((o) => o.kind === kind.kind && (!opts.namespace || o.metadata?.namespace === opts.namespace))
      .map((o) => structuredClone(o)),
  })) as unknown as Client['list'];
  create = (async (obj: KubernetesObject) => {
    this.writes.push(`create ${obj.kind} ${obj.metadata?.namespace ?? ''}/${obj.metadata!.name}`);
    if (this.find(obj.kind!, obj.metadata?.namespace ?? '', obj.metadata!.name!))
      throw new ApiError(409, 'AlreadyExists', 'exists');
    this.add({ ...obj, metadata: { ...obj.metadata, resourceVersion: String(this.rv++) } });
    return obj;
  }) as Client['create'];
  update = (async (obj: KubernetesObject) => {
    this.writes.push(`update ${obj.kind} ${obj.metadata?.namespace ?? ''}/${obj.metadata!.name}`);
    this.add(obj);
    return obj;
  }) as Client['update'];
  patch = (async (kind: { kind: string }, key: { name: string }, p: { patch: any }) => {
    this.writes.push(`patch ${kind.kind} ${key.name}`);
    const o = this.find(kind.kind, '', key.name)!;
    o.metadata!.labels = p.patch.metadata.labels;
    return o;
  }) as unknown as Client['patch'];
  delete = (async (kind: { kind: string }, key: { namespace?: string; name: string }) => {
    this.writes.push(`delete ${kind.kind} ${key.namespace}/${key.name}`);
    if (!this.objects.delete(this.key(kind.kind, key.namespace, key.name))) throw new ApiError(404, 'NotFound', 'gone');
  }) as Client['delete'];
}

const seed = { kind: 'Seed', metadata: { name: 'local', uid: 'uid-1' }, spec: {} } as unknown as Seed;
const secret = (name: string, namespace: string, role: string, data: string): Secret => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name, namespace, labels: { 'gardener.cloud/role': role } },
  type: 'Opaque',
  data: { k: data },
});
const request = { namespace: '', name: 'local' };

describe('SeedSecretsReconciler', () => {
  it('creates seed-<name>, copies the garden secrets, follows changes and deletions, and is quiet when in sync', async () => {
    const garden = new FakeGarden();
    garden.add(seed);
    garden.add(secret('alerting', 'garden', 'alerting', 'MQ=='));
    garden.add(secret('internal-domain', 'garden', 'internal-domain', 'Mg=='));
    garden.add(secret('shoot-kubeconfig', 'garden', 'kubeconfig', 'Mw=='));
    const r = new SeedSecretsReconciler({ client: garden, api: garden, gardenNamespace: 'garden' });

    await r.reconcile(request, ctx);
    expect(garden.find('Namespace', '', 'seed-local')).toMatchObject({
      metadata: { labels: { 'gardener.cloud/role': 'seed' }, ownerReferences: [{ kind: 'Seed', uid: 'uid-1' }] },
    });
    expect(garden.find('Secret', 'seed-local', 'alerting')).toMatchObject({ data: { k: 'MQ==' } });
    expect(garden.find('Secret', 'seed-local', 'internal-domain')).toMatchObject({ data: { k: 'Mg==' } });
    expect(garden.find('Secret', 'seed-local', 'shoot-kubeconfig')).toBeUndefined();

    garden.writes.length = 0;
    await r.reconcile(request, ctx);
    expect(garden.writes).toEqual([]);

    // The original changes, another one goes: the copy follows, the stale copy is deleted.
    garden.add(secret('alerting', 'garden', 'alerting', 'NA=='));
    garden.objects.delete('Secret/garden/internal-domain');
    await r.reconcile(request, ctx);
    expect(garden.find('Secret', 'seed-local', 'alerting')).toMatchObject({ data: { k: 'NA==' } });
    expect(garden.find('Secret', 'seed-local', 'internal-domain')).toBeUndefined();
    expect(garden.writes.sort()).toEqual([
      'delete Secret seed-local/internal-domain',
      'update Secret seed-local/alerting',
    ]);
  });

  it('fails for a seed-<name> namespace the seed does not control, and adds a missing role label', async () => {
    const garden = new FakeGarden();
    garden.add(seed);
    garden.add({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'seed-local' } });
    const r = new SeedSecretsReconciler({ client: garden, api: garden, gardenNamespace: 'garden' });
    await expect(r.reconcile(request, ctx)).rejects.toThrow('namespace "seed-local" is not controlled by seed "local"');

    garden.add({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: {
        name: 'seed-local',
        ownerReferences: [{ kind: 'Seed', name: 'local', uid: 'uid-1', controller: true }],
      },
    } as KubernetesObject);
    await r.reconcile(request, ctx);
    expect(garden.find('Namespace', '', 'seed-local')!.metadata!.labels).toEqual({ 'gardener.cloud/role': 'seed' });
  });

  it('is done for a seed that is gone', async () => {
    const garden = new FakeGarden();
    garden.add(secret('alerting', 'garden', 'alerting', 'MQ=='));
    await new SeedSecretsReconciler({ client: garden, api: garden, gardenNamespace: 'garden' }).reconcile(request, ctx);
    expect(garden.writes).toEqual([]);
  });
});
