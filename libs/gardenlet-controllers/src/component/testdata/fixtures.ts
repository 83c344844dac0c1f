// Test inputs as users write them: Gardener's provider-local example Shoot and CloudProfile, a local Seed, read from
// the YAML files beside this one; the Shoot as the garden returns it after scheduling (uid, seedName, status).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CloudProfile, Seed, Shoot } from '@gardener-ts/api';
import { parse } from 'yaml';
import { controlPlaneNamespaceOf, type ShootValues } from '../values.js';

const here = dirname(fileURLToPath(import.meta.url));
const files = new Map<string, unknown>();
// Parsed once, cloned per call: every test gets its own objects to mutate.
const read = <T>(file: string): T => {
  if (!files.has(file)) files.set(file, parse(readFileSync(join(here, file), 'utf8')));
  return structuredClone(files.get(file)) as T;
};

/** The example shoot, scheduled to seed `local` with version 1.33.0 (what the garden's defaulting picks). */
export function exampleShoot(mutate?: (shoot: Shoot) => void): Shoot {
  const shoot = read<Shoot>('shoot.yaml');
  shoot.metadata = { ...shoot.metadata, uid: '0d5b5b84-2222-4a4a-8b8b-000000000002', generation: 1 };
  shoot.spec.kubernetes.version ??= '1.33.0';
  shoot.spec.seedName = 'local';
  shoot.spec.maintenance ??= { timeWindow: { begin: '220000+0000', end: '230000+0000' } };
  mutate?.(shoot);
  return shoot;
}

/** The example local seed. */
export function exampleSeed(mutate?: (seed: Seed) => void): Seed {
  const seed = read<Seed>('seed.yaml');
  mutate?.(seed);
  return seed;
}

/** The example local cloud profile. */
export function exampleCloudProfile(): CloudProfile {
  return read<CloudProfile>('cloudprofile.yaml');
}

/** Component values of the example objects. */
export function exampleValues(mutateShoot?: (shoot: Shoot) => void, mutateSeed?: (seed: Seed) => void): ShootValues {
  const shoot = exampleShoot(mutateShoot);
  return {
    shoot,
    seed: exampleSeed(mutateSeed),
    cloudProfile: exampleCloudProfile(),
    namespace: controlPlaneNamespaceOf(shoot),
  };
}
