// The Seed kind of the garden cluster as the gardenlet's clients and caches read it.
import { corev1beta1 } from '@gardener-ts/api';
import { kindFrom } from '@gardener-ts/controller-runtime';

/** A Seed (core.gardener.cloud/v1beta1). */
export type Seed = corev1beta1.Seed;
/** The Seed kind for clients and caches. */
export const SeedKind = kindFrom<Seed>(corev1beta1.SeedKind);
/** The Seed's apiVersion. */
export const SEED_API_VERSION = 'core.gardener.cloud/v1beta1';
