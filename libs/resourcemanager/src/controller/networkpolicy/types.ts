// The shapes of the objects the NetworkPolicy controller reads and writes (plain JSON, as on the wire), and the
// well-known keys of Gardener's `networking.resources.gardener.cloud` API it implements.
import type { KubernetesObject, LabelSelector } from '@gardener-ts/controller-runtime';

export const NetworkingAnnotation = {
  /** JSON list of namespace label selectors (OR-ed): also allow traffic from/to pods in these namespaces. */
  NamespaceSelectors: 'networking.resources.gardener.cloud/namespace-selectors',
  /** Used instead of the Service's namespace in cross-namespace pod labels (`to-<alias>-<service>-...`). */
  PodLabelSelectorNamespaceAlias: 'networking.resources.gardener.cloud/pod-label-selector-namespace-alias',
  /** JSON list of ports to which ingress from everywhere (in and outside the cluster) is allowed. */
  FromWorldToPorts: 'networking.resources.gardener.cloud/from-world-to-ports',
  /** `<prefix><alias><suffix>`: JSON list of container ports pods labelled `to-<alias>=allowed` may reach. */
  FromPolicyPrefix: 'networking.resources.gardener.cloud/from-',
  FromPolicySuffix: '-allowed-ports',
} as const;

export const NetworkingLabel = {
  /** On every generated NetworkPolicy: the name and namespace of the Service it belongs to. */
  ServiceName: 'networking.resources.gardener.cloud/service-name',
  ServiceNamespace: 'networking.resources.gardener.cloud/service-namespace',
  /** The value of the pod labels that opt pods into the generated policies. */
  Allowed: 'allowed',
  /** The namespace label the API server sets on every namespace. */
  MetadataName: 'kubernetes.io/metadata.name',
} as const;

/** The annotation describing a generated NetworkPolicy. */
export const DescriptionAnnotation = 'gardener.cloud/description';

export interface ServicePort {
  name?: string;
  protocol?: string;
  port: number;
  targetPort?: number | string;
}

export interface Service extends KubernetesObject {
  spec?: { selector?: Record<string, string>; ports?: ServicePort[]; type?: string };
}

export interface NetworkPolicyPort {
  protocol?: string;
  port?: number | string;
  endPort?: number;
}

export interface NetworkPolicyPeer {
  podSelector?: LabelSelector;
  namespaceSelector?: LabelSelector;
  ipBlock?: { cidr: string; except?: string[] };
}

export interface NetworkPolicySpec {
  podSelector: LabelSelector;
  ingress?: { from?: NetworkPolicyPeer[]; ports?: NetworkPolicyPort[] }[];
  egress?: { to?: NetworkPolicyPeer[]; ports?: NetworkPolicyPort[] }[];
  policyTypes: ('Ingress' | 'Egress')[];
}

export interface NetworkPolicy extends KubernetesObject {
  spec?: NetworkPolicySpec;
}

export interface IngressBackendPort {
  name?: string;
  number?: number;
}

export interface Ingress extends KubernetesObject {
  spec?: {
    rules?: {
      host?: string;
      http?: { paths?: { path?: string; backend?: { service?: { name: string; port?: IngressBackendPort } } }[] };
    }[];
  };
}

/** Where the ingress controller runs (`controllers.networkPolicy.ingressControllerSelector`). */
export interface IngressControllerSelector {
  namespace: string;
  podSelector: LabelSelector;
}
