// The Seed of the integration tests as the gardenlet registers and reconciles it (registration, seed reconciler,
// heartbeat): Gardener's example Seed under `name`, with the status the shoot controller waits for (Gardener's
// health.CheckSeed: this gardenlet version, the observed generation, GardenletReady and SeedSystemComponentsHealthy).
import type { ApiClient, KubernetesObject } from '@gardener-ts/controller-runtime';
import { exampleSeed } from '../../src/component/testdata/fixtures.js';
import { SeedKind } from '../../src/seed-kind.js';

export async function registerReadySeed(admin: ApiClient, name: string, gardenerVersion: string): Promise<void> {
  const seed = exampleSeed();
  delete seed.metadata!.uid;
  seed.metadata!.name = name;
  await admin.create({ ...seed, apiVersion: 'core.gardener.cloud/v1beta1', kind: 'Seed' } as KubernetesObject);
  const created = await admin.get(SeedKind, { name });
  const condition = (type: string, reason: string) => ({
    type,
    status: 'True',
    reason,
    message: '',
    lastTransitionTime: '2026-11-25T00:00:00Z',
    lastUpdateTime: '2026-11-25T00:00:00Z',
  });
  await admin.patch(
    SeedKind,
    { name },
    {
      type: 'merge',
      patch: {
        status: {
          observedGeneration: created.metadata?.generation,
          gardener: { id: 'test', name: 'gardenlet', version: gardenerVersion },
          conditions: [
            condition('GardenletReady', 'GardenletReady'),
            condition('SeedSystemComponentsHealthy', 'SystemComponentsRunning'),
          ],
        },
      },
    },
    { subresource: 'status' },
  );
}
