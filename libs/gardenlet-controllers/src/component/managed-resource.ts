// ManagedResources for the shoot (Gardener's `managedresources.CreateForShoot`): the objects go into a Secret
// `managedresource-<name>` in the control plane namespace and a ManagedResource without a class references it, so the
// shoot's own gardener-resource-manager applies them to the shoot and keeps them there. Pure.
import type { KubernetesObject } from '@gardener-ts/controller-runtime';
import { managedResourceSecretData } from '../controller/controllerinstallation/install.js';

/** The `origin` label of ManagedResources the gardenlet creates for a shoot. */
export const ManagedResourceOriginGardener = 'gardener';

/** The Secret and the ManagedResource (class unset: the shoot's resource manager) carrying `objects` into the shoot. */
export function renderShootManagedResource(
  namespace: string,
  name: string,
  objects: readonly KubernetesObject[],
  options: { keepObjects?: boolean } = {},
): { secret: KubernetesObject; managedResource: KubernetesObject } {
  const secretName = `managedresource-${name}`;
  const data = managedResourceSecretData(objects);
  return {
    secret: {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: secretName, namespace },
      type: 'Opaque',
      data,
    } as KubernetesObject,
    managedResource: {
      apiVersion: 'resources.gardener.cloud/v1alpha1',
      kind: 'ManagedResource',
      metadata: { name, namespace, labels: { origin: ManagedResourceOriginGardener } },
      spec: {
        secretRefs: [{ name: secretName }],
        injectLabels: { 'shoot.gardener.cloud/no-cleanup': 'true' },
        keepObjects: options.keepObjects ?? false,
      },
    } as KubernetesObject,
  };
}

/** A ClusterRoleBinding of ClusterRole `role` for ServiceAccounts in the shoot's `kube-system` (pure). */
export function clusterRoleBindingForServiceAccounts(
  name: string,
  role: string,
  serviceAccounts: readonly string[],
): KubernetesObject {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
    subjects: serviceAccounts.map((sa) => ({ kind: 'ServiceAccount', name: sa, namespace: 'kube-system' })),
  } as KubernetesObject;
}

/**
 * The shoot objects of kube-controller-manager (Gardener's `shoot-core-kube-controller-manager`): ClusterRole
 * `system:kube-controller-manager` for its ServiceAccount, whose token its shoot access Secret carries.
 */
export function renderKubeControllerManagerShootResources(namespace: string): {
  secret: KubernetesObject;
  managedResource: KubernetesObject;
} {
  return renderShootManagedResource(namespace, 'shoot-core-kube-controller-manager', [
    clusterRoleBindingForServiceAccounts(
      'gardener.cloud:target:kube-controller-manager',
      'system:kube-controller-manager',
      ['kube-controller-manager'],
    ),
  ]);
}

/**
 * The shoot objects of kube-scheduler (Gardener's `shoot-core-kube-scheduler`): ClusterRoles `system:kube-scheduler`
 * and `system:volume-scheduler` for its ServiceAccount.
 */
export function renderKubeSchedulerShootResources(namespace: string): {
  secret: KubernetesObject;
  managedResource: KubernetesObject;
} {
  return renderShootManagedResource(namespace, 'shoot-core-kube-scheduler', [
    clusterRoleBindingForServiceAccounts('gardener.cloud:target:kube-scheduler', 'system:kube-scheduler', [
      'kube-scheduler',
    ]),
    clusterRoleBindingForServiceAccounts('gardener.cloud:target:kube-scheduler-volume', 'system:volume-scheduler', [
      'kube-scheduler',
    ]),
  ]);
}
