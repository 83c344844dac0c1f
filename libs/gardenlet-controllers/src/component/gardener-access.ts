// Gardener's own access to the shoot (Gardener's `pkg/component/gardener/access`, the botanist's
// `DefaultGardenerAccess`): the shoot access Secrets `gardener` (the API server's out-of-cluster address) and
// `gardener-internal` (its in-cluster address `kube-apiserver.<namespace>.svc`), each a kubeconfig whose token the
// shoot's gardener-resource-manager fills for ServiceAccount `kube-system/<name>`, and a ManagedResource binding both
// ServiceAccounts to `cluster-admin`. Pure.
import type { KubernetesObject } from '@gardener-ts/controller-runtime';
import type { V1Secret } from '@kubernetes/client-node';
import { KubeAPIServerName } from './kube-apiserver.js';
import { clusterRoleBindingForServiceAccounts, renderShootManagedResource } from './managed-resource.js';
import { kubeconfigToken, kubeconfigYAML, renderShootAccessSecret, withKubeconfigToken } from './shoot-access.js';
import type { ShootValues } from './values.js';

/** The shoot access Secret (and ServiceAccount) for the gardenlet through the external address. */
export const GardenerAccessName = 'gardener';
/** The shoot access Secret (and ServiceAccount) for the gardenlet inside the seed. */
export const GardenerInternalAccessName = 'gardener-internal';
/** The ManagedResource with the ClusterRoleBindings of Gardener's access. */
export const GardenerAccessManagedResourceName = 'shoot-core-gardeneraccess';

/** The API server addresses of Gardener's access. */
export interface GardenerAccessServers {
  /** The out-of-cluster address (Gardener: the internal domain; locally the advertised load balancer address). */
  readonly outOfCluster: string;
  /** The in-cluster address (default `https://kube-apiserver.<namespace>.svc`). */
  readonly inCluster?: string;
}

/** The in-cluster address of the shoot's API server from another namespace of the seed. */
export function inClusterAPIServerURL(values: ShootValues): string {
  return `https://${KubeAPIServerName}.${values.namespace}.svc`;
}

/**
 * The `gardener` and `gardener-internal` shoot access Secrets; `existing` (by name) are the live Secrets, whose
 * filled tokens are kept in the new kubeconfigs.
 */
export function renderGardenerAccessSecrets(
  values: ShootValues,
  caBundlePEM: string,
  servers: GardenerAccessServers,
  existing: ReadonlyMap<string, V1Secret> = new Map(),
): V1Secret[] {
  const entries = [
    [GardenerAccessName, servers.outOfCluster],
    [GardenerInternalAccessName, servers.inCluster ?? inClusterAPIServerURL(values)],
  ] as const;
  return entries.map(([name, server]) => {
    const live = existing.get(name)?.data?.kubeconfig;
    const token = live ? kubeconfigToken(Buffer.from(live, 'base64').toString()) : undefined;
    const kubeconfig = withKubeconfigToken(
      kubeconfigYAML(values.namespace, { server, caPEM: caBundlePEM }, { token: '' }),
      token,
    );
    return renderShootAccessSecret(values, name, { secretName: name, kubeconfig });
  });
}

/**
 * The shoot objects of Gardener's access: `gardener.cloud:system:gardener`, ClusterRole `cluster-admin` for both
 * ServiceAccounts. (Gardener also binds the groups of the admin and viewer kubeconfigs here; not rendered yet.)
 */
export function renderGardenerAccessShootResources(values: ShootValues): {
  secret: KubernetesObject;
  managedResource: KubernetesObject;
} {
  return renderShootManagedResource(values.namespace, GardenerAccessManagedResourceName, [
    clusterRoleBindingForServiceAccounts('gardener.cloud:system:gardener', 'cluster-admin', [
      GardenerAccessName,
      GardenerInternalAccessName,
    ]),
  ]);
}
