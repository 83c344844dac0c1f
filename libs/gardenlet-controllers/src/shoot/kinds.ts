// The garden and seed kinds the gardenlet's Shoot controller reads and writes, typed for its clients and caches.
import { corev1beta1, extensionsv1alpha1, securityv1alpha1 } from '@gardener-ts/api';
import { kind, kindFrom, type KubernetesObject } from '@gardener-ts/controller-runtime';

export type Shoot = corev1beta1.Shoot;
export const ShootKind = kindFrom<Shoot>(corev1beta1.ShootKind);
export const CloudProfileKind = kindFrom<corev1beta1.CloudProfile>(corev1beta1.CloudProfileKind);
export const NamespacedCloudProfileKind = kindFrom<corev1beta1.NamespacedCloudProfile>(
  corev1beta1.NamespacedCloudProfileKind,
);
export const CredentialsBindingKind = kindFrom<securityv1alpha1.CredentialsBinding>(
  securityv1alpha1.CredentialsBindingKind,
);
export const SecretBindingKind = kindFrom<corev1beta1.SecretBinding>(corev1beta1.SecretBindingKind);
export const ControllerRegistrationKind = kindFrom<corev1beta1.ControllerRegistration>(
  corev1beta1.ControllerRegistrationKind,
);
/** etcd-druid's Etcd (druid.gardener.cloud/v1alpha1). */
export const EtcdKind = kind<
  KubernetesObject & {
    status?: { ready?: boolean; observedGeneration?: number; lastErrors?: { description?: string }[] };
  }
>('druid.gardener.cloud/v1alpha1', 'Etcd');
/** The shoot's Infrastructure extension resource (extensions.gardener.cloud/v1alpha1). */
export const InfrastructureKind = kind<extensionsv1alpha1.Infrastructure & KubernetesObject>(
  'extensions.gardener.cloud/v1alpha1',
  'Infrastructure',
);
