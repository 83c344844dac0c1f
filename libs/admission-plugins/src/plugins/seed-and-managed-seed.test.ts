import { describe, expect, it } from 'vitest';
import { example, request } from '../../test/examples.js';
import { staticListers } from '../listers.js';
import { runChain } from '../chain.js';
import type { KubeObject } from '../attributes.js';
import { ManagedSeedShoot, ShootManagedSeed } from './seed-and-managed-seed.js';

// A ManagedSeed registering Gardener's example Shoot, its seed template using zone europe-1a.
const managedSeed = (): KubeObject => ({
  apiVersion: 'seedmanagement.gardener.cloud/v1alpha1',
  kind: 'ManagedSeed',
  metadata: { name: 'local-seed', namespace: 'garden-local' },
  spec: {
    shoot: { name: 'local' },
    gardenlet: {
      config: {
        apiVersion: 'gardenlet.config.gardener.cloud/v1alpha1',
        kind: 'GardenletConfiguration',
        seedConfig: { spec: { provider: { type: 'local', region: 'local', zones: ['europe-1a'] } } },
      },
    },
  },
});
// The example Shoot as a seed needs it: VPA on, workers in zones.
const seedShoot = () => {
  const s = example('local/shoot.yaml');
  s.spec.kubernetes.verticalPodAutoscaler = { enabled: true };
  s.spec.provider.workers[0].zones = ['europe-1a', 'europe-1b'];
  return s;
};
const shootOn = (seedName: string): KubeObject => {
  const s = example('local/shoot.yaml');
  s.metadata!.name = 'user';
  s.spec.seedName = seedName;
  return s;
};

describe('ShootManagedSeed', () => {
  const update = (s: KubeObject, objects: KubeObject[] = [managedSeed()]) =>
    runChain([ShootManagedSeed], request('UPDATE', s, seedShoot()), staticListers(objects));

  it('accepts an update that keeps what the seed needs, and any update of a Shoot no ManagedSeed registers', async () => {
    const s = seedShoot();
    s.spec.provider.workers[0].zones = ['europe-1a'];
    expect((await update(s)).allowed).toBe(true);
    const plain = example('local/shoot.yaml');
    expect((await update(plain, [])).allowed).toBe(true);
  });

  it("refuses the nginx-ingress addon, VPA off, a changed nodes network and dropping a seed zone, with Gardener's paths", async () => {
    const s = seedShoot();
    s.spec.addons = { nginxIngress: { enabled: true } };
    s.spec.kubernetes.verticalPodAutoscaler.enabled = false;
    s.spec.networking.nodes = '10.1.0.0/16';
    s.spec.provider.workers[0].zones = ['europe-1b'];
    expect(await update(s)).toMatchObject({
      allowed: false,
      code: 422,
      message:
        'Shoot.core.gardener.cloud "local" is invalid: [' +
        'spec.addons.nginxIngress.enabled: Invalid value: true: shoot ingress addon is not supported for managed seeds - use the managed seed ingress controller, ' +
        'spec.kubernetes.verticalPodAutoscaler.enabled: Invalid value: false: shoot VPA has to be enabled for managed seeds, ' +
        'spec.networking.nodes: Invalid value: "10.1.0.0/16": field is immutable for managed seeds, ' +
        'spec.providers.workers: Forbidden: shoot worker zone(s) must not be removed as long as registered in managedseed]',
    });
  });

  it('refuses deleting the Shoot, also in a collection', async () => {
    const message =
      'shoots.core.gardener.cloud "local" is forbidden: cannot delete shoot garden-local/local since it is still referenced by a managed seed';
    expect(
      await runChain([ShootManagedSeed], request('DELETE', undefined, seedShoot()), staticListers([managedSeed()])),
    ).toMatchObject({ allowed: false, code: 403, message });
    const collection = { ...request('DELETE', undefined, seedShoot()), name: undefined };
    expect(
      await runChain([ShootManagedSeed], collection, staticListers([managedSeed(), seedShoot(), shootOn('x')])),
    ).toMatchObject({ allowed: false, message });
  });
});

describe('ManagedSeedShoot', () => {
  const del = (objects: KubeObject[]) =>
    runChain([ManagedSeedShoot], request('DELETE', undefined, managedSeed()), staticListers(objects));

  it('refuses deleting a ManagedSeed whose Seed has Shoots scheduled to it', async () => {
    expect(await del([shootOn('local-seed')])).toMatchObject({
      allowed: false,
      code: 403,
      message:
        'managedseeds.seedmanagement.gardener.cloud "local-seed" is forbidden: cannot delete managed seed garden-local/local-seed since its seed local-seed is still used by shoot(s)',
    });
    const running = shootOn('other');
    running.status = { seedName: 'local-seed' };
    expect((await del([running])).allowed).toBe(false);
  });

  it('allows deleting a ManagedSeed whose Seed has no Shoots', async () => {
    expect((await del([shootOn('other'), seedShoot()])).allowed).toBe(true);
  });
});
