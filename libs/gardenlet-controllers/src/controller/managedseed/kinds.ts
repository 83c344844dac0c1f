// The kinds of the ManagedSeed controller: the ManagedSeed (seedmanagement.gardener.cloud/v1alpha1) and the Shoot it
// registers, both in the garden's `garden` namespace, and the Seed the child gardenlet registers.
import { seedmanagementv1alpha1, type ManagedSeed } from '@gardener-ts/api';
import { kindFrom } from '@gardener-ts/controller-runtime';

export { ShootKind, type Shoot } from '../../shoot/kinds.js';
export { SeedKind, type Seed } from '../../seed-kind.js';
export type { ManagedSeed };

/** The ManagedSeed kind for clients and caches. */
export const ManagedSeedKind = kindFrom<ManagedSeed>(seedmanagementv1alpha1.ManagedSeedKind);
