import { describe, expect, it } from 'vitest';
import { ApiError, type Client } from '@gardener-ts/controller-runtime';
import { IngressReconciler } from './reconciler.js';

/** A seed with namespace `ns` (role `role`) and an Ingress in it; records the applied DNSRecords. */
function seed(role: string | undefined, ip: string | undefined) {
  const applied: { name: string; host: string; fieldManager: string }[] = [];
  const client = {
    get: async (kind: { kind: string }, key: { name: string }) => {
      if (kind.kind === 'Namespace')
        return { metadata: { name: key.name, labels: role ? { 'gardener.cloud/role': role } : {} } };
      if (kind.kind === 'Ingress' && key.name === 'web')
        return {
          metadata: { name: 'web', namespace: 'ns', uid: 'u' },
          spec: { rules: [{ host: 'web.ingress.local.gardener.cloud' }] },
          status: { loadBalancer: { ingress: ip ? [{ ip }] : [] } },
        };
      throw new ApiError(404, 'NotFound', 'not found');
    },
    patch: async (_kind: unknown, key: { name: string }, patch: { patch: any; fieldManager: string }) => {
      applied.push({ name: key.name, host: patch.patch.spec.name, fieldManager: patch.fieldManager });
      return patch.patch;
    },
  } as unknown as Pick<Client, 'get' | 'patch'>;
  return { reconciler: new IngressReconciler(client), applied };
}

describe('IngressReconciler', () => {
  it('applies a DNSRecord per host of an Ingress in a shoot namespace', async () => {
    const s = seed('shoot', '172.18.255.3');
    await s.reconciler.reconcile({ namespace: 'ns', name: 'web' });
    expect(s.applied).toEqual([
      {
        name: expect.stringMatching(/^web-[0-9a-f]{8}$/),
        host: 'web.ingress.local.gardener.cloud',
        fieldManager: 'provider-local',
      },
    ]);
  });

  it('leaves Ingresses outside shoot namespaces, without a load balancer IP, or gone', async () => {
    for (const s of [seed(undefined, '172.18.255.3'), seed('garden', '172.18.255.3'), seed('shoot', undefined)]) {
      await s.reconciler.reconcile({ namespace: 'ns', name: 'web' });
      await s.reconciler.reconcile({ namespace: 'ns', name: 'missing' });
      expect(s.applied).toEqual([]);
    }
  });
});
