import { describe, expect, it } from 'vitest';
import { ctx, FakeSeedClient, gardenletReady, installation, manualClock, seed } from '../testing/fake-seed-client.js';
import { SeedExtensionsCheckReconciler } from './reconciler.js';

const request = { namespace: '', name: 'local' };

describe('SeedExtensionsCheckReconciler', () => {
  it('sets ExtensionsReady from the installations of the seed only, keeps other conditions, and requeues', async () => {
    const clock = manualClock();
    const fake = new FakeSeedClient(new Map([['local', seed('local', [gardenletReady])]]), [
      installation('ok', 'local', 'True'),
      installation('elsewhere', 'other', 'False'),
    ]);
    const r = new SeedExtensionsCheckReconciler({
      client: fake,
      syncPeriodMs: 30_000,
      thresholds: { ExtensionsReady: 60_000 },
      clock,
    });
    expect(await r.reconcile(request, ctx)).toEqual({ requeueAfter: 30_000 });
    expect(fake.patches).toHaveLength(1);
    expect(fake.patches[0]!.resourceVersion).toBe('1');
    expect(fake.patches[0]!.conditions.map((c) => [c.type, c.status, c.reason])).toEqual([
      ['GardenletReady', 'True', 'GardenletReady'],
      ['ExtensionsReady', 'True', 'AllExtensionsReady'],
    ]);

    // Unchanged: no write.
    await r.reconcile(request, ctx);
    expect(fake.patches).toHaveLength(1);

    // An unhealthy installation: Progressing within the threshold, False after it.
    fake.items.push(installation('broken', 'local', 'False'));
    clock.advance(1000);
    await r.reconcile(request, ctx);
    expect(fake.patches.at(-1)!.conditions[1]).toMatchObject({
      status: 'Progressing',
      reason: 'NotAllExtensionsHealthy',
      message: 'Some extensions are not healthy: map[broken:Healthy is False]',
    });
    clock.advance(61_000);
    await r.reconcile(request, ctx);
    expect(fake.patches.at(-1)!.conditions[1]).toMatchObject({ status: 'False', reason: 'NotAllExtensionsHealthy' });
  });

  it('is done for a seed that is gone', async () => {
    const fake = new FakeSeedClient(new Map(), [installation('ok', 'local', 'True')]);
    const r = new SeedExtensionsCheckReconciler({ client: fake, syncPeriodMs: 30_000, thresholds: {} });
    expect(await r.reconcile(request, ctx)).toBeUndefined();
    expect(fake.patches).toEqual([]);
  });
});
