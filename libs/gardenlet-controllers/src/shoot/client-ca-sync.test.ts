// The shoot's client CA in the garden on a fake garden client: the InternalSecret `<shoot>.ca-client` Gardener's
// adminkubeconfig reads, with the current CA's certificate and key, controlled by the Shoot, replaced on rotation.
import { describe, expect, it } from 'vitest';
import type { KubernetesObject, Patch } from '@gardener-ts/controller-runtime';
import { clientCAInternalSecretName, renderClientCAInternalSecret, syncClientCAToGarden } from './client-ca-sync.js';

const shoot = { metadata: { name: 'local', namespace: 'garden-local', uid: 'u-1' } };
const b64 = (text: string) => Buffer.from(text).toString('base64');

// A garden that keeps what the gardenlet applies, by namespace/name (server-side apply with force: the last apply wins).
function fakeGarden() {
  const objects = new Map<string, KubernetesObject & { data?: Record<string, string> }>();
  const patches: { kind: string; key: { namespace?: string; name: string }; patch: Patch }[] = [];
  return {
    objects,
    patches,
    patch: async (kind: { kind: string }, key: { namespace?: string; name: string }, patch: Patch) => {
      patches.push({ kind: kind.kind, key, patch });
      const obj = patch.patch as KubernetesObject & { data?: Record<string, string> };
      objects.set(`${key.namespace}/${key.name}`, obj);
      return obj;
    },
  };
}

describe('the client CA in the garden', () => {
  it('is the InternalSecret <shoot>.ca-client in the project namespace with the CA certificate and key', async () => {
    const garden = fakeGarden();
    await syncClientCAToGarden(garden as never, shoot, { 'ca.crt': b64('CERT-1'), 'ca.key': b64('KEY-1') });
    expect(garden.patches).toHaveLength(1);
    expect(garden.patches[0]).toMatchObject({
      kind: 'InternalSecret',
      key: { namespace: 'garden-local', name: 'local.ca-client' },
      patch: { type: 'apply', fieldManager: 'gardenlet', force: true },
    });
    const stored = garden.objects.get('garden-local/local.ca-client')!;
    expect(stored).toMatchObject({
      apiVersion: 'core.gardener.cloud/v1beta1',
      kind: 'InternalSecret',
      metadata: { name: 'local.ca-client', namespace: 'garden-local', labels: { 'gardener.cloud/role': 'ca-client' } },
      type: 'Opaque',
    });
    expect(stored.data).toEqual({ 'ca.crt': b64('CERT-1'), 'ca.key': b64('KEY-1') });
  });

  it('is controlled by the Shoot, so the garbage collector deletes it with the Shoot', () => {
    const secret = renderClientCAInternalSecret(shoot, { 'ca.crt': 'Qw==', 'ca.key': 'Sw==' });
    expect(secret.metadata?.ownerReferences).toEqual([
      {
        apiVersion: 'core.gardener.cloud/v1beta1',
        kind: 'Shoot',
        name: 'local',
        uid: 'u-1',
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
  });

  it('carries the new CA after a rotation', async () => {
    const garden = fakeGarden();
    await syncClientCAToGarden(garden as never, shoot, { 'ca.crt': b64('CERT-1'), 'ca.key': b64('KEY-1') });
    await syncClientCAToGarden(garden as never, shoot, { 'ca.crt': b64('CERT-2'), 'ca.key': b64('KEY-2') });
    expect(garden.objects.get('garden-local/local.ca-client')?.data).toEqual({
      'ca.crt': b64('CERT-2'),
      'ca.key': b64('KEY-2'),
    });
  });

  it('refuses a client CA secret without its key, naming the shoot', async () => {
    const garden = fakeGarden();
    await expect(syncClientCAToGarden(garden as never, shoot, { 'ca.crt': b64('CERT') })).rejects.toThrow(
      'the client CA secret of shoot garden-local/local has no ca.key',
    );
    await expect(syncClientCAToGarden(garden as never, shoot, undefined)).rejects.toThrow('has no ca.crt');
    expect(garden.patches).toHaveLength(0);
  });

  it('is named <shoot>.ca-client', () => {
    expect(clientCAInternalSecretName('my-shoot')).toBe('my-shoot.ca-client');
  });
});
