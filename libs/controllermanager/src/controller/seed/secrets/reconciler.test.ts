import { describe, expect, it } from 'vitest';
import type { Seed } from '@gardener-ts/api';
import type { KubernetesObject, Secret } from '@gardener-ts/controller-runtime';
import { FakeGarden } from '../../testing/fake-garden.js';
import { ctx } from '../testing/fake-seed-client.js';
import { SeedSecretsReconciler } from './reconciler.js';

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
    garden.put(seed);
    garden.put(secret('alerting', 'garden', 'alerting', 'MQ=='));
    garden.put(secret('internal-domain', 'garden', 'internal-domain', 'Mg=='));
    garden.put(secret('shoot-kubeconfig', 'garden', 'kubeconfig', 'Mw=='));
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
    garden.put(secret('alerting', 'garden', 'alerting', 'NA=='));
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
    garden.put(seed);
    garden.put({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'seed-local' } });
    const r = new SeedSecretsReconciler({ client: garden, api: garden, gardenNamespace: 'garden' });
    await expect(r.reconcile(request, ctx)).rejects.toThrow('namespace "seed-local" is not controlled by seed "local"');

    garden.put({
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
    garden.put(secret('alerting', 'garden', 'alerting', 'MQ=='));
    await new SeedSecretsReconciler({ client: garden, api: garden, gardenNamespace: 'garden' }).reconcile(request, ctx);
    expect(garden.writes).toEqual([]);
  });
});
