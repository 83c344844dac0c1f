import { describe, expect, it } from 'vitest';
import { ApiError, type Client, type Lease } from '@gardener-ts/controller-runtime';
import { HeartbeatReconciler, heartbeatLease } from './reconciler.js';

describe('heartbeat', () => {
  it('creates the Lease, then renews it keeping what others wrote', async () => {
    let stored: Lease | undefined;
    const client = {
      get: async () => {
        if (!stored) throw new ApiError(404, 'NotFound', 'not found');
        return structuredClone(stored);
      },
      create: async (lease: Lease) => (stored = { ...lease, metadata: { ...lease.metadata, resourceVersion: '1' } }),
      update: async (lease: Lease) => (stored = lease),
    };
    let now = new Date('2026-01-01T00:00:00Z');
    const reconciler = new HeartbeatReconciler({
      client: client as unknown as Client,
      extensionName: 'provider-local',
      namespace: 'extension-provider-local',
      now: () => now,
    });
    await reconciler.reconcile();
    expect(stored).toMatchObject({
      metadata: { name: 'gardener-extension-heartbeat', namespace: 'extension-provider-local' },
      spec: { holderIdentity: 'provider-local', leaseDurationSeconds: 30, renewTime: '2026-01-01T00:00:00.000000Z' },
    });
    now = new Date('2026-01-01T00:00:30Z');
    await reconciler.reconcile();
    expect(stored?.spec?.renewTime).toBe('2026-01-01T00:00:30.000000Z');
    expect(stored?.metadata?.resourceVersion).toBe('1');
  });

  it('writes the renew interval as the lease duration', () => {
    expect(
      heartbeatLease({ extensionName: 'x', namespace: 'y', renewIntervalSeconds: 10 }, new Date(0)).spec
        ?.leaseDurationSeconds,
    ).toBe(10);
  });
});
