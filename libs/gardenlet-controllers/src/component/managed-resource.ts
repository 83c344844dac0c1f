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

/** The `cluster-identity` ConfigMap's name and keys in the shoot's kube-system (Gardener's constants). */
export const ClusterIdentityName = 'cluster-identity';
const ClusterIdentityOriginKey = 'cluster-identity-origin';

/**
 * The shoot's cluster identity (Gardener's `clusteridentity.NewForShoot`, `shoot-core-cluster-identity`): the immutable
 * ConfigMap `kube-system/cluster-identity` with the identity from `status.clusterIdentity` and origin `shoot`.
 */
export function renderShootClusterIdentityResources(
  namespace: string,
  identity: string,
): { secret: KubernetesObject; managedResource: KubernetesObject } {
  return renderShootManagedResource(namespace, `shoot-core-${ClusterIdentityName}`, [
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: ClusterIdentityName, namespace: 'kube-system' },
      immutable: true,
      data: { [ClusterIdentityName]: identity, [ClusterIdentityOriginKey]: 'shoot' },
    } as KubernetesObject,
  ]);
}

/** The name of the shoot namespaces' ManagedResource (Gardener's `shoot/namespaces` component). */
export const ShootNamespacesManagedResourceName = 'shoot-core-namespaces';

/** What the namespaces component reads of a worker pool. */
export interface WorkerPoolZones {
  readonly maximum: number;
  readonly zones?: readonly string[];
  readonly systemComponents?: { readonly allow?: boolean };
}

/**
 * The shoot's `kube-system` namespace as Gardener labels it (`shoot-core-namespaces`, objects kept when the
 * ManagedResource goes): purpose `kube-system`, considered by the high-availability webhook, and pinned to the zones of
 * the pools that may run system components (`systemComponents.allow`, unset means allowed) and can have nodes.
 */
export function renderShootNamespacesResources(
  namespace: string,
  workers: readonly WorkerPoolZones[],
): { secret: KubernetesObject; managedResource: KubernetesObject } {
  const zones = new Set<string>();
  for (const pool of workers) {
    if (pool.systemComponents?.allow === false || pool.maximum <= 0) continue;
    for (const zone of pool.zones ?? []) zones.add(zone);
  }
  return renderShootManagedResource(
    namespace,
    ShootNamespacesManagedResourceName,
    [
      {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: {
          name: 'kube-system',
          labels: {
            'gardener.cloud/purpose': 'kube-system',
            'high-availability-config.resources.gardener.cloud/consider': 'true',
          },
          annotations: { 'high-availability-config.resources.gardener.cloud/zones': [...zones].sort().join(',') },
        },
      } as KubernetesObject,
    ],
    { keepObjects: true },
  );
}
