// The kinds the scheduler reads and writes, for the controller-runtime client and caches.
import { corev1beta1, type CloudProfile, type NamespacedCloudProfile, type Seed, type Shoot } from '@gardener-ts/api';
import { kindFrom } from '@gardener-ts/controller-runtime';

export const ShootKind = kindFrom<Shoot>(corev1beta1.ShootKind);
export const SeedKind = kindFrom<Seed>(corev1beta1.SeedKind);
export const CloudProfileKind = kindFrom<CloudProfile>(corev1beta1.CloudProfileKind);
export const NamespacedCloudProfileKind = kindFrom<NamespacedCloudProfile>(corev1beta1.NamespacedCloudProfileKind);
