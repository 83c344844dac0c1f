// The garden kinds of the ControllerInstallation controllers.
import { corev1beta1 } from '@gardener-ts/api';
import { kind, kindFrom, type KubernetesObject } from '@gardener-ts/controller-runtime';

export type ControllerInstallation = corev1beta1.ControllerInstallation;
export type ControllerRegistration = corev1beta1.ControllerRegistration;
export type ControllerDeployment = corev1beta1.ControllerDeployment;
export const ControllerInstallationKind = kindFrom<ControllerInstallation>(corev1beta1.ControllerInstallationKind);
export const ControllerRegistrationKind = kindFrom<ControllerRegistration>(corev1beta1.ControllerRegistrationKind);
export const ControllerDeploymentKind = kindFrom<ControllerDeployment>(corev1beta1.ControllerDeploymentKind);

/** A ManagedResource (resources.gardener.cloud/v1alpha1) as far as the gardenlet reads it. */
export interface ManagedResourceObject extends KubernetesObject {
  status?: {
    observedGeneration?: number;
    conditions?: { type: string; status: string; reason?: string; message?: string }[];
  };
}
export const ManagedResourceKind = kind<ManagedResourceObject>('resources.gardener.cloud/v1alpha1', 'ManagedResource');
