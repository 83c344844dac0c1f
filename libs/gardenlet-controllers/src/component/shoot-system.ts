// The shoot's system resources (Gardener's `shoot/system` component, ManagedResource `shoot-core-system`), pure: in the
// shoot's kube-system the deny-all NetworkPolicy (Kubernetes >= 1.33) and the four `gardener.cloud--allow-to-*`
// policies that system Pods opt into by label, the `shoot-info` ConfigMap (project, shoot, provider, region, version,
// networks, maintenance window, domain, extensions), Gardener's `gardener-shoot-system-*` PriorityClasses, and the
// `gardener.cloud:system:read-only` ClusterRole over every readable resource the shoot's API discovery lists except
// the encrypted ones, bound to the group `gardener.cloud:system:viewers` (what a viewer kubeconfig authenticates as).
// The local API server serves NetworkPolicies but does not enforce them (no pod network): they are deployed for the
// contract, and take effect on a cluster that enforces them.
import type { Shoot } from '@gardener-ts/api';
import type { KubernetesObject } from '@gardener-ts/controller-runtime';
import { renderShootManagedResource } from './managed-resource.js';

/** The name of the ManagedResource with the shoot's system resources. */
export const ShootSystemManagedResourceName = 'shoot-core-system';
/** The read-only ClusterRole (and its binding's name). */
export const ShootReadOnlyClusterRoleName = 'gardener.cloud:system:read-only';
/** The group of a shoot's system viewers. */
export const ShootSystemViewersGroupName = 'gardener.cloud:system:viewers';

/** One group-version of the shoot's API discovery: its resources and their verbs. */
export interface APIResourceList {
  readonly groupVersion: string;
  readonly resources: readonly { readonly name: string; readonly verbs: readonly string[] }[];
}

export interface ShootSystemValues {
  readonly shoot: Shoot;
  readonly projectName: string;
  /** The Extension types of the shoot, sorted. */
  readonly extensions: readonly string[];
  readonly podNetworks: readonly string[];
  readonly serviceNetworks: readonly string[];
  readonly nodeNetworks: readonly string[];
  readonly externalDomain?: string;
  /** The shoot's preferred API resources; the read-only ClusterRole is rendered only when known. */
  readonly apiResources?: readonly APIResourceList[];
  /** Resources the kube-apiserver encrypts (`secrets`, `<resource>.<group>`): never readable through the role. */
  readonly encryptedResources: readonly string[];
}

const Allowed = 'allowed';
const PriorityClasses = [900, 800, 700, 600].map((n) => ({
  name: `gardener-shoot-system-${n}`,
  value: 999_999_000 + n,
}));

/** The Secret and ManagedResource `shoot-core-system` (pure). */
export function renderShootSystemResources(
  namespace: string,
  values: ShootSystemValues,
): { secret: KubernetesObject; managedResource: KubernetesObject } {
  return renderShootManagedResource(namespace, ShootSystemManagedResourceName, shootSystemObjects(values));
}

/** The objects of `shoot-core-system` (pure). */
export function shootSystemObjects(values: ShootSystemValues): KubernetesObject[] {
  const objects: KubernetesObject[] = [];
  if (minorAtLeast(values.shoot.spec.kubernetes.version, 33)) {
    objects.push(
      networkPolicy('gardener.cloud--deny-all', 'Disables all ingress and egress traffic into/from this namespace.', {
        podSelector: {},
        ingress: [],
        egress: [],
        policyTypes: ['Ingress', 'Egress'],
      }),
    );
  }
  if ((values.shoot.spec.provider.workers ?? []).length > 0) {
    objects.push(
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'shoot-info', namespace: 'kube-system' },
        data: shootInfo(values),
      } as KubernetesObject,
      ...allowPolicies(),
      ...PriorityClasses.map(
        ({ name, value }) =>
          ({
            apiVersion: 'scheduling.k8s.io/v1',
            kind: 'PriorityClass',
            metadata: { name },
            description: 'PriorityClass for Shoot system components',
            globalDefault: false,
            value,
          }) as KubernetesObject,
      ),
    );
  }
  if (values.apiResources && values.apiResources.length > 0) {
    objects.push(
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: ShootReadOnlyClusterRoleName },
        rules: readOnlyRules(values.apiResources, values.encryptedResources),
      } as KubernetesObject,
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: {
          name: ShootReadOnlyClusterRoleName,
          annotations: { 'resources.gardener.cloud/delete-on-invalid-update': 'true' },
        },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: ShootReadOnlyClusterRoleName },
        subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: ShootSystemViewersGroupName }],
      } as KubernetesObject,
    );
  }
  return objects;
}

/** The `shoot-info` ConfigMap's data (Gardener's keys). */
export function shootInfo(values: ShootSystemValues): Record<string, string> {
  const { shoot } = values;
  const data: Record<string, string> = {
    extensions: values.extensions.join(','),
    projectName: values.projectName,
    shootName: shoot.metadata?.name ?? '',
    provider: shoot.spec.provider.type,
    region: shoot.spec.region,
    kubernetesVersion: shoot.spec.kubernetes.version ?? '',
    podNetwork: values.podNetworks[0] ?? '',
    serviceNetwork: values.serviceNetworks[0] ?? '',
    maintenanceBegin: shoot.spec.maintenance?.timeWindow?.begin ?? '',
    maintenanceEnd: shoot.spec.maintenance?.timeWindow?.end ?? '',
  };
  if (values.externalDomain) data.domain = values.externalDomain;
  if (values.nodeNetworks.length > 0) data.nodeNetwork = values.nodeNetworks[0];
  const lists: [string, readonly string[]][] = [
    ['podNetworks', values.podNetworks],
    ['serviceNetworks', values.serviceNetworks],
    ['nodeNetworks', values.nodeNetworks],
  ];
  for (const [key, cidrs] of lists) if (cidrs.length > 0) data[key] = cidrs.join(',');
  return data;
}

/**
 * The read-only rules (pure): per API group, sorted, every resource whose verbs include get or list and that is not
 * encrypted, plus `pods/log`; verbs get, list, watch.
 */
export function readOnlyRules(
  apiResources: readonly APIResourceList[],
  encrypted: readonly string[],
): { apiGroups: string[]; resources: string[]; verbs: string[] }[] {
  const byGroup = new Map<string, Set<string>>();
  for (const list of apiResources) {
    const slash = list.groupVersion.indexOf('/');
    const group = slash < 0 ? '' : list.groupVersion.slice(0, slash);
    for (const resource of list.resources) {
      if (resource.name.includes('/')) continue;
      if (encrypted.includes(group === '' ? resource.name : `${resource.name}.${group}`)) continue;
      if (!resource.verbs.some((verb) => verb === 'get' || verb === 'list')) continue;
      const names = byGroup.get(group) ?? new Set<string>();
      names.add(resource.name);
      if (group === '' && resource.name === 'pods') names.add('pods/log');
      byGroup.set(group, names);
    }
  }
  return [...byGroup.keys()].sort().map((group) => ({
    apiGroups: [group],
    resources: [...byGroup.get(group)!].sort(),
    verbs: ['get', 'list', 'watch'],
  }));
}

function allowPolicies(): KubernetesObject[] {
  const tcp = (port: number) => ({ protocol: 'TCP', port });
  const udp = (port: number) => ({ protocol: 'UDP', port });
  const everywhere = [{ ipBlock: { cidr: '0.0.0.0/0' } }, { ipBlock: { cidr: '::/0' } }];
  const dnsPods = (value: string) => ({
    podSelector: { matchExpressions: [{ key: 'k8s-app', operator: 'In', values: [value] }] },
  });
  const egress = (name: string, label: string, description: string, rules: unknown[]) =>
    networkPolicy(name, description, {
      podSelector: { matchLabels: { [label]: Allowed } },
      egress: rules,
      policyTypes: ['Egress'],
    });
  return [
    egress(
      'gardener.cloud--allow-to-apiserver',
      'networking.gardener.cloud/to-apiserver',
      "Allows traffic to the API server in TCP port 443 for pods labeled with 'networking.gardener.cloud/to-apiserver=allowed'.",
      [{ ports: [tcp(443)] }],
    ),
    egress(
      'gardener.cloud--allow-to-dns',
      'networking.gardener.cloud/to-dns',
      "Allows egress traffic from pods labeled with 'networking.gardener.cloud/to-dns=allowed' to DNS running in the 'kube-system' namespace.",
      [
        { to: [dnsPods('kube-dns')], ports: [udp(8053), tcp(8053)] },
        // Pods with `dnsPolicy: Default` reach the node's DNS.
        { to: [...everywhere, dnsPods('node-local-dns')], ports: [udp(53), tcp(53)] },
      ],
    ),
    egress(
      'gardener.cloud--allow-to-kubelet',
      'networking.gardener.cloud/to-kubelet',
      "Allows egress traffic to kubelet in TCP port 10250 for pods labeled with 'networking.gardener.cloud/to-kubelet=allowed'.",
      [{ ports: [tcp(10250)] }],
    ),
    egress(
      'gardener.cloud--allow-to-public-networks',
      'networking.gardener.cloud/to-public-networks',
      "Allows egress traffic to all networks for pods labeled with 'networking.gardener.cloud/to-public-networks=allowed'.",
      [{ to: everywhere }],
    ),
  ];
}

function networkPolicy(name: string, description: string, spec: Record<string, unknown>): KubernetesObject {
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: { name, namespace: 'kube-system', annotations: { 'gardener.cloud/description': description } },
    spec,
  } as KubernetesObject;
}

function minorAtLeast(version: string | undefined, minor: number): boolean {
  const match = /^v?(\d+)\.(\d+)/.exec(version ?? '');
  if (!match) return false;
  return Number(match[1]) > 1 || Number(match[2]) >= minor;
}
