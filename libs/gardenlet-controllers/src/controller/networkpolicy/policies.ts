// The pure core of Gardener's NetworkPolicy controller (pkg/controller/networkpolicy, run by the gardenlet for its
// seed): which of the "general" NetworkPolicies a namespace gets, selected by its labels, and each policy's exact
// name, description annotation, pod selector and rules — from the seed's networks (`spec.networks`: nodes, pods,
// services, `blockCIDRs`, `ipFamilies`), the `default/kubernetes` Endpoints and, in shoot namespaces, the shoot's
// networks from its Cluster resource. Data in → objects out; `reconciler.ts` writes them.
import {
  Annotations,
  formatIPAddress,
  IPNet,
  Labels,
  parseIPAddress,
  type IPFamily,
  type Selector,
} from '@gardener-ts/api';
import type { KubernetesObject } from '@gardener-ts/controller-runtime';

/** The NetworkPolicies the controller owns, in Gardener's order. */
export const PolicyName = {
  DenyAll: 'deny-all',
  AllowToRuntimeAPIServer: 'allow-to-runtime-apiserver',
  AllowToPublicNetworks: 'allow-to-public-networks',
  AllowToPrivateNetworks: 'allow-to-private-networks',
  AllowToBlockedCIDRs: 'allow-to-blocked-cidrs',
  AllowToDNS: 'allow-to-dns',
} as const;
export type PolicyName = (typeof PolicyName)[keyof typeof PolicyName];
export const PolicyNames: readonly PolicyName[] = Object.values(PolicyName);

/** Gardener's `v1beta1constants.TechnicalIDPrefix`: shoot control plane namespaces start with it. */
export const ShootNamespacePrefix = 'shoot--';
/** The label the API server puts on every namespace (its name). */
export const NamespaceNameLabel = 'kubernetes.io/metadata.name';
/** Gardener's `LabelExposureClassHandlerName`: namespaces of exposure class handlers carry it. */
export const ExposureClassHandlerLabel = 'handler.exposureclass.gardener.cloud/name';

/** One way a namespace is selected: a label with this value, or (value undefined) a label that exists. */
interface NamespaceSelector {
  key: string;
  value?: string;
}
const named = (name: string): NamespaceSelector => ({ key: NamespaceNameLabel, value: name });
const role = (value: string): NamespaceSelector => ({ key: Labels.GardenRole, value });
const garden = named('garden');
const shoot = role('shoot');
const extension = role('extension');
const istioSystem = role('istio-system');
const istioIngress = role('istio-ingress');
const exposureClassHandler: NamespaceSelector = { key: ExposureClassHandlerLabel };

/** Gardener's namespace selectors per policy (a namespace matching any of them gets the policy). */
export const NamespaceSelectors: Readonly<Record<PolicyName, readonly NamespaceSelector[]>> = {
  [PolicyName.DenyAll]: [garden, shoot, istioSystem, istioIngress, extension, exposureClassHandler],
  [PolicyName.AllowToRuntimeAPIServer]: [garden, istioSystem, istioIngress, shoot, extension],
  [PolicyName.AllowToPublicNetworks]: [garden, shoot, extension],
  [PolicyName.AllowToPrivateNetworks]: [garden, shoot, extension],
  [PolicyName.AllowToBlockedCIDRs]: [garden, shoot, extension],
  [PolicyName.AllowToDNS]: [garden, shoot, extension, istioSystem, istioIngress, exposureClassHandler],
};

const matches = (labels: Readonly<Record<string, string>>, s: NamespaceSelector) =>
  s.value === undefined ? s.key in labels : labels[s.key] === s.value;

/**
 * The policies a namespace with these labels gets, in Gardener's order; the others are deleted from it. A namespace
 * matching one of the `additional` selectors (`controllers.networkPolicy.additionalNamespaceSelectors`) gets every
 * policy, as Gardener appends them to each policy's selectors.
 */
export function policiesForNamespace(
  labels: Readonly<Record<string, string>> | undefined,
  additional: readonly Selector[] = [],
): PolicyName[] {
  const l = labels ?? {};
  if (additional.some((s) => s.matches(l))) return [...PolicyNames];
  return PolicyNames.filter((name) => NamespaceSelectors[name].some((s) => matches(l, s)));
}

/** Whether the namespace gets any of the policies (Gardener's MapToNamespaces selection). */
export const isHandledNamespace = (
  labels: Readonly<Record<string, string>> | undefined,
  additional: readonly Selector[] = [],
): boolean => policiesForNamespace(labels, additional).length > 0;

/** The networks of the runtime (seed) cluster, as Gardener's `RuntimeNetworkConfig`. */
export interface RuntimeNetworks {
  ipFamilies: IPFamily[];
  nodes: string[];
  pods: string[];
  services: string[];
  blockCIDRs: string[];
}

/** The fields of a Seed's `spec.networks` read here. */
export interface SeedNetworksLike {
  nodes?: string;
  pods?: string;
  services?: string;
  blockCIDRs?: string[];
  ipFamilies?: IPFamily[];
}

/** The runtime networks from a Seed's `spec.networks`; `ipFamilies` defaults to IPv4 as Gardener defaults it. */
export function runtimeNetworksOf(networks: SeedNetworksLike | undefined): RuntimeNetworks {
  return {
    ipFamilies: networks?.ipFamilies?.length ? [...networks.ipFamilies] : ['IPv4'],
    nodes: networks?.nodes ? [networks.nodes] : [],
    pods: networks?.pods ? [networks.pods] : [],
    services: networks?.services ? [networks.services] : [],
    blockCIDRs: [...(networks?.blockCIDRs ?? [])],
  };
}

/**
 * Gardener's `getBlockedNetworkPeers`: CIDRs to exclude from blocks of `family` — the blocked CIDRs, and the cluster's
 * own networks when the cluster is single-stack of that family.
 */
export function blockedNetworkPeers(networks: RuntimeNetworks, family: IPFamily): string[] {
  const peers = [...networks.blockCIDRs];
  if (networks.ipFamilies.length === 1 && networks.ipFamilies[0] === family) {
    peers.push(...networks.pods, ...networks.services, ...networks.nodes);
  }
  return peers;
}

/** Private (RFC 1918) and carrier-grade NAT (RFC 6598) IPv4 blocks. */
export const PrivateNetworkBlocksV4: readonly string[] = [
  '10.0.0.0/8',
  '172.16.0.0/12',
  '192.168.0.0/16',
  '100.64.0.0/10',
];
/** Link-local and unique local IPv6 blocks. */
export const PrivateNetworkBlocksV6: readonly string[] = ['fe80::/10', 'fc00::/7'];

/**
 * Gardener's `excludeBlock`: the CIDRs (as written) whose address lies in `parent` and whose prefix is longer than
 * the parent's. Throws on a CIDR that does not parse.
 */
export function excludedFrom(parent: IPNet, cidrs: readonly string[]): string[] {
  return cidrs.filter((cidr) => {
    const net = IPNet.parse(cidr);
    return parent.contains({ family: net.family, value: net.ip, bits: net.bits }) && parent.prefix < net.prefix;
  });
}

/** A NetworkPolicy peer (only the forms these policies use). */
export interface NetworkPolicyPeer {
  ipBlock?: { cidr: string; except?: string[] };
  namespaceSelector?: { matchLabels: Record<string, string> };
  podSelector?: { matchExpressions: { key: string; operator: 'In'; values: string[] }[] };
}
export interface NetworkPolicyPort {
  protocol: string;
  port: number;
}
export interface NetworkPolicyEgressRule {
  to?: NetworkPolicyPeer[];
  ports?: NetworkPolicyPort[];
}
export interface NetworkPolicySpec {
  podSelector: { matchLabels?: Record<string, string> };
  egress?: NetworkPolicyEgressRule[];
  policyTypes: ('Ingress' | 'Egress')[];
}
/** A networking.k8s.io/v1 NetworkPolicy as this controller writes it. */
export interface NetworkPolicy extends KubernetesObject {
  spec?: NetworkPolicySpec;
}

/** Peers `cidr` (normalised) with `except` holding the given CIDRs inside it (omitted when none). */
export function peersWithExceptions(networks: readonly string[], except: readonly string[]): NetworkPolicyPeer[] {
  return networks.map((n) => {
    const parent = IPNet.parse(n);
    const excluded = excludedFrom(parent, except);
    return { ipBlock: { cidr: parent.toString(), ...(excluded.length ? { except: excluded } : {}) } };
  });
}

/** Gardener's `<ip>/<bit length>`: an `ip/32` or `ip/128` CIDR of one address, the address as written. */
function hostCIDR(ip: string): string {
  const address = parseIPAddress(ip);
  if (!address) throw new Error(`invalid IP address ${JSON.stringify(ip)}`);
  return `${ip}/${address.bits}`;
}

/** An Endpoints subset (core/v1) with the fields read here. */
export interface EndpointSubset {
  addresses?: { ip: string }[];
  ports?: { port: number; protocol?: string }[];
}

/** Gardener's `GetEgressRules`: per subset, its addresses (each once) as host CIDRs and its ports by number. */
export function egressRulesFromSubsets(subsets: readonly EndpointSubset[]): NetworkPolicyEgressRule[] {
  return subsets.map((subset) => {
    const seen = new Set<string>();
    const to: NetworkPolicyPeer[] = [];
    for (const { ip } of subset.addresses ?? []) {
      if (seen.has(ip)) continue;
      seen.add(ip);
      to.push({ ipBlock: { cidr: hostCIDR(ip) } });
    }
    // Named ports are not used (not supported by every network plugin, e.g. Weave).
    const ports = (subset.ports ?? []).map((p) => ({ protocol: p.protocol ?? 'TCP', port: p.port }));
    return { ...(to.length ? { to } : {}), ...(ports.length ? { ports } : {}) };
  });
}

/** The networks of a shoot, from its Cluster resource: excluded from `allow-to-private-networks` in its namespace. */
export interface ShootNetworks {
  /** Gardener's `IsIPv4SingleStack` of `spec.networking.ipFamilies` (none given counts as IPv4). */
  ipv4SingleStack: boolean;
  cidrs: string[];
}

interface ShootLike {
  spec?: { networking?: { nodes?: string; pods?: string; services?: string; ipFamilies?: string[] } };
  status?: { networking?: { nodes?: string[]; pods?: string[]; services?: string[] } };
}

/**
 * The shoot networks in the Cluster's `spec.shoot`: `spec.networking` nodes, pods and services, plus those of
 * `status.networking`, each once; undefined when the shoot has no `spec.networking` (Gardener then excludes nothing).
 */
export function shootNetworksOf(cluster: { spec?: { shoot?: unknown } } | undefined): ShootNetworks | undefined {
  const shoot = cluster?.spec?.shoot as ShootLike | undefined;
  const networking = shoot?.spec?.networking;
  if (!networking) return undefined;
  const cidrs: string[] = [];
  for (const v of [networking.nodes, networking.pods, networking.services]) if (v) cidrs.push(v);
  const status = shoot?.status?.networking;
  if (status) {
    for (const v of [...(status.nodes ?? []), ...(status.pods ?? []), ...(status.services ?? [])]) {
      if (!cidrs.includes(v)) cidrs.push(v);
    }
  }
  const families = networking.ipFamilies ?? [];
  return { ipv4SingleStack: families.length === 0 || (families.length === 1 && families[0] === 'IPv4'), cidrs };
}

/** CoreDNS and node-local-dns: labels, ports and node-local-dns' IPVS addresses (Gardener's constants). */
const DNS = {
  labelKey: 'k8s-app',
  coreDNS: 'kube-dns',
  nodeLocalDNS: 'node-local-dns',
  portServiceServer: 53,
  portServer: 8053,
  ipvsAddress: '169.254.20.10',
  ipvsIPv6Address: 'fd30:1319:f1e:230b::1',
};

/** Everything the policies are built from. */
export interface PolicyInputs {
  networks: RuntimeNetworks;
  /** Subsets of the `default/kubernetes` Endpoints (only read for `allow-to-runtime-apiserver`). */
  apiServerSubsets?: readonly EndpointSubset[];
  /** The shoot's networks, in a shoot namespace (`shoot--*`) whose shoot has networking. */
  shootNetworks?: ShootNetworks;
}

const allowed = (key: string) => ({ matchLabels: { [key]: Labels.NetworkPolicyAllowed } });

/** A policy's description annotation and spec. */
interface PolicyContent {
  description: string;
  spec: NetworkPolicySpec;
}

function denyAll(): PolicyContent {
  return {
    description: 'Disables all ingress and egress traffic into/from this namespace.',
    spec: { podSelector: {}, policyTypes: ['Ingress', 'Egress'] },
  };
}

function allowToRuntimeAPIServer(inputs: PolicyInputs): PolicyContent {
  const key = Labels.NetworkPolicyToRuntimeAPIServer;
  const egress = egressRulesFromSubsets(inputs.apiServerSubsets ?? []);
  return {
    description:
      `Allows egress traffic from pods labeled with '${key}=${Labels.NetworkPolicyAllowed}' to the endpoints in the ` +
      'default namespace of the kube-apiserver of the runtime cluster.',
    spec: { podSelector: allowed(key), ...(egress.length ? { egress } : {}), policyTypes: ['Egress'] },
  };
}

function allowToPublicNetworks({ networks }: PolicyInputs): PolicyContent {
  const key = Labels.NetworkPolicyToPublicNetworks;
  const v4 = peersWithExceptions(['0.0.0.0/0'], [...PrivateNetworkBlocksV4, ...networks.blockCIDRs]);
  // IPv6 cluster networks may be public addresses: they are excluded too (in IPv4 the private blocks hold them).
  const v6 = peersWithExceptions(['::/0'], [...PrivateNetworkBlocksV6, ...blockedNetworkPeers(networks, 'IPv6')]);
  return {
    description:
      `Allows egress from pods labeled with '${key}=${Labels.NetworkPolicyAllowed}' to all public network IPs, except ` +
      'for private networks (RFC1918), carrier-grade NAT (RFC6598), and explicitly blocked addresses configured by ' +
      'human operators. In practice, this blocks egress traffic to all networks in the cluster and only allows ' +
      'egress traffic to public IPv4 addresses.',
    spec: { podSelector: allowed(key), egress: [{ to: [...v4, ...v6] }], policyTypes: ['Egress'] },
  };
}

function allowToPrivateNetworks({ networks, shootNetworks }: PolicyInputs): PolicyContent {
  const key = Labels.NetworkPolicyToPrivateNetworks;
  const blockedV4 = blockedNetworkPeers(networks, 'IPv4');
  const blockedV6 = blockedNetworkPeers(networks, 'IPv6');
  if (shootNetworks) (shootNetworks.ipv4SingleStack ? blockedV4 : blockedV6).push(...shootNetworks.cidrs);
  return {
    description:
      `Allows egress from pods labeled with '${key}=${Labels.NetworkPolicyAllowed}' to the private networks ` +
      '(RFC1918) and carrier-grade NAT (RFC6598), except for cluster-specific networks.',
    spec: {
      podSelector: allowed(key),
      egress: [
        { to: peersWithExceptions(PrivateNetworkBlocksV4, blockedV4) },
        { to: peersWithExceptions(PrivateNetworkBlocksV6, blockedV6) },
      ],
      policyTypes: ['Egress'],
    },
  };
}

function allowToBlockedCIDRs({ networks }: PolicyInputs): PolicyContent {
  const key = Labels.NetworkPolicyToBlockedCIDRs;
  const egress = networks.blockCIDRs.map((cidr) => ({ to: [{ ipBlock: { cidr } }] }));
  return {
    description:
      `Allows egress from pods labeled with '${key}=${Labels.NetworkPolicyAllowed}' to explicitly blocked addresses ` +
      'configured by human operators.',
    spec: { podSelector: allowed(key), ...(egress.length ? { egress } : {}), policyTypes: ['Egress'] },
  };
}

function allowToDNS({ networks }: PolicyInputs): PolicyContent {
  const key = Labels.NetworkPolicyToDNS;
  if (networks.services.length === 0) throw new Error('no service range configured');
  // CoreDNS' ClusterIP: the 10th address of each service network.
  const dnsServers = networks.services.map((s) => {
    const net = IPNet.parse(s);
    if (net.size() <= 10n) throw new Error(`cannot calculate CoreDNS ClusterIP: ${s} has no address at offset 10`);
    return `${formatIPAddress(net.address(10))}/${net.bits}`;
  });
  const kubeSystem = { matchLabels: { [NamespaceNameLabel]: 'kube-system' } };
  const dnsPods = (value: string) => ({
    matchExpressions: [{ key: DNS.labelKey, operator: 'In' as const, values: [value] }],
  });
  return {
    description:
      `Allows egress from pods labeled with '${key}=${Labels.NetworkPolicyAllowed}' to DNS running in 'kube-system'. ` +
      'In practice, most of the pods which require network egress need this label.',
    spec: {
      podSelector: allowed(key),
      egress: [
        {
          to: [
            { namespaceSelector: kubeSystem, podSelector: dnsPods(DNS.coreDNS) },
            { namespaceSelector: kubeSystem, podSelector: dnsPods(DNS.nodeLocalDNS) },
            // node-local-dns (IPv4 or IPv6 single-stack only) and CoreDNS behind it.
            { ipBlock: { cidr: `${DNS.ipvsAddress}/32` } },
            { ipBlock: { cidr: `${DNS.ipvsIPv6Address}/128` } },
            ...dnsServers.map((cidr) => ({ ipBlock: { cidr } })),
          ],
          ports: [
            { protocol: 'UDP', port: DNS.portServiceServer },
            { protocol: 'TCP', port: DNS.portServiceServer },
            { protocol: 'UDP', port: DNS.portServer },
            { protocol: 'TCP', port: DNS.portServer },
          ],
        },
      ],
      policyTypes: ['Egress'],
    },
  };
}

const BUILDERS: Record<PolicyName, (inputs: PolicyInputs) => PolicyContent> = {
  [PolicyName.DenyAll]: denyAll,
  [PolicyName.AllowToRuntimeAPIServer]: allowToRuntimeAPIServer,
  [PolicyName.AllowToPublicNetworks]: allowToPublicNetworks,
  [PolicyName.AllowToPrivateNetworks]: allowToPrivateNetworks,
  [PolicyName.AllowToBlockedCIDRs]: allowToBlockedCIDRs,
  [PolicyName.AllowToDNS]: allowToDNS,
};

/** The desired NetworkPolicy `name` in `namespace`: Gardener's description annotation and spec (no labels). */
export function desiredPolicy(name: PolicyName, namespace: string, inputs: PolicyInputs): NetworkPolicy {
  const { description, spec } = BUILDERS[name](inputs);
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: { name, namespace, annotations: { [Annotations.GardenerDescription]: description } },
    spec,
  };
}
