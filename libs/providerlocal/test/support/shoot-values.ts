// The gardenlet's example fixtures (libs/gardenlet-controllers/src/component/testdata: Gardener's provider-local example
// Shoot, a local Seed with internal domain internal.local.gardener.cloud, the local CloudProfile) as the component
// values its renderers take, the Shoot as the garden returns it after scheduling.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { CloudProfile, Seed, Shoot } from '@gardener-ts/api';
import { controlPlaneNamespaceOf, type ShootValues } from '@gardener-ts/gardenlet-controllers';
import { workspaceRoot } from '@gardener-ts/testing';

const testdata = <T>(file: string): T =>
  parse(
    readFileSync(join(workspaceRoot(), 'libs', 'gardenlet-controllers', 'src', 'component', 'testdata', file), 'utf8'),
  ) as T;

/** The example shoot `local` of project `local`, scheduled to seed `local`, its seed and cloud profile. */
export function exampleShootValues(): ShootValues {
  const shoot = testdata<Shoot>('shoot.yaml');
  shoot.metadata = { ...shoot.metadata, uid: '0d5b5b84-2222-4a4a-8b8b-000000000002', generation: 1 };
  shoot.spec.kubernetes.version ??= '1.33.0';
  shoot.spec.seedName = 'local';
  shoot.status = {
    lastOperation: {
      type: 'Reconcile',
      state: 'Processing',
      progress: 10,
      description: '',
      lastUpdateTime: '2026-01-01T00:00:00Z',
    },
  } as Shoot['status'];
  return {
    shoot,
    seed: testdata<Seed>('seed.yaml'),
    cloudProfile: testdata<CloudProfile>('cloudprofile.yaml'),
    namespace: controlPlaneNamespaceOf(shoot),
  };
}
