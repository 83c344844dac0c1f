// The NetworkPolicies a Service asks for (Gardener's networkpolicy controller): per port of the Service an ingress
// policy for its pods and an egress policy for the pods allowed to reach them, for its own namespace and each
// namespace its `namespace-selectors` select; the same per `from-<alias>-allowed-ports` port; one
// `from-world-to-ports` ingress policy; and per port exposed by an Ingress a pair for the ingress controller.
import type { LabelSelector } from '@gardener-ts/controller-runtime';
import { fromPolicies, parsePorts } from './annotations.js';
import { shortenLabelKey } from './label-key.js';
import {
  DescriptionAnnotation,
  NetworkingAnnotation,
  NetworkingLabel,
  type Ingress,
  type IngressControllerSelector,
  type NetworkPolicy,
  type NetworkPolicyPeer,
  type NetworkPolicyPort,
  type Service,
} from './types.js';

export interface DesiredInput {
  service: Service;
  /** The namespaces (not terminating) selected by the Service's namespace selectors; its own is always added. */
  namespaces: string[];
  /** The Ingresses in the Service's namespace; only used with an ingress controller selector. */
  ingresses?: Ingress[];
  ingressController?: IngressControllerSelector;
  /** Told about each pod label key longer than 63 characters and what it was shortened to. */
  onShortenedLabelKey?: (original: string, shortened: string) => void;
}

/** Go's `%v` of a map: `map[k1:v1 k2:v2]`, keys sorted. */
export function goMap(labels: Record<string, string> | undefined): string {
  const entries = Object.entries(labels ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `map[${entries.map(([k, v]) => `${k}:${v}`).join(' ')}]`;
}

function describeSelector(s: LabelSelector): string {
  const exprs = (s.matchExpressions ?? []).map(
    (e) => `${e.key} ${e.operator}${e.values ? ` [${e.values.join(' ')}]` : ''}`,
  );
  return goMap(s.matchLabels) + (exprs.length ? ` and expressions [${exprs.join(', ')}]` : '');
}

const protocolOf = (p: NetworkPolicyPort) => p.protocol ?? 'TCP';
const portString = (p: NetworkPolicyPort) => String(p.port ?? '');
const nsSelector = (namespace: string): LabelSelector => ({
  matchLabels: { [NetworkingLabel.MetadataName]: namespace },
});
const peer = (podSelector: LabelSelector, namespaceSelector?: LabelSelector): NetworkPolicyPeer =>
  namespaceSelector ? { podSelector, namespaceSelector } : { podSelector };

/** The NetworkPolicies for `input.service`; none if it has no pod selector. Throws on unparsable annotations. */
export function desiredPolicies(input: DesiredInput): NetworkPolicy[] {
  const { service } = input;
  const name = service.metadata?.name ?? '';
  const namespace = service.metadata?.namespace ?? '';
  const selector = service.spec?.selector ?? {};
  if (Object.keys(selector).length === 0) return [];
  const annotations = service.metadata?.annotations ?? {};
  const serviceKey = `${namespace}/${name}`;
  const targets: LabelSelector = { matchLabels: { ...selector } };
  const namespaces = [namespace, ...[...new Set(input.namespaces)].filter((n) => n !== namespace).sort()];
  const policies = new Map<string, NetworkPolicy>();

  const add = (policyNamespace: string, policyName: string, description: string, spec: NetworkPolicy['spec']) => {
    policies.set(`${policyNamespace}/${policyName}`, {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: {
        name: policyName,
        namespace: policyNamespace,
        labels: { [NetworkingLabel.ServiceName]: name, [NetworkingLabel.ServiceNamespace]: namespace },
        annotations: { [DescriptionAnnotation]: description },
      },
      spec,
    });
  };

  const ingressText = (port: NetworkPolicyPort) =>
    `Allows ingress ${protocolOf(port)} traffic to port ${portString(port)} for pods selected by the ${serviceKey} service selector`;
  const egressText = (port: NetworkPolicyPort) =>
    `Allows egress ${protocolOf(port)} traffic to port ${portString(port)}`;

  // A pair of policies for one port and one namespace whose pods (labelled `to-...=allowed`) may connect.
  const addPair = (port: NetworkPolicyPort, policyID: string, podLabel: string) => {
    for (const from of namespaces) {
      const cross = from !== namespace;
      const infix = cross ? `${annotations[NetworkingAnnotation.PodLabelSelectorNamespaceAlias] ?? namespace}-` : '';
      const usualKey = `networking.resources.gardener.cloud/to-${infix}${podLabel}`;
      const clientKey = shortenLabelKey(usualKey);
      if (clientKey !== usualKey) input.onShortenedLabelKey?.(usualKey, clientKey);
      const clients: LabelSelector = { matchLabels: { [clientKey]: NetworkingLabel.Allowed } };
      add(
        namespace,
        `ingress-to-${policyID}${cross ? `-from-${from}` : ''}`,
        `${ingressText(port)} from pods running in namespace ${from} labeled with ${describeSelector(clients)}.`,
        {
          podSelector: targets,
          ingress: [{ from: [peer(clients, cross ? nsSelector(from) : undefined)], ports: [port] }],
          policyTypes: ['Ingress'],
        },
      );
      add(
        from,
        `egress-to-${cross ? `${namespace}-` : ''}${policyID}`,
        `${egressText(port)} from pods running in namespace ${from} labeled with ${describeSelector(clients)} to pods selected by the ${serviceKey} service selector.`,
        {
          podSelector: clients,
          egress: [{ to: [peer(targets, cross ? nsSelector(namespace) : undefined)], ports: [port] }],
          policyTypes: ['Egress'],
        },
      );
    }
  };

  const idFor = (port: NetworkPolicyPort) => `${name}-${protocolOf(port).toLowerCase()}-${portString(port)}`;

  for (const p of service.spec?.ports ?? []) {
    const port = { protocol: p.protocol ?? 'TCP', port: p.targetPort ?? p.port };
    addPair(port, idFor(port), idFor(port));
  }

  for (const [alias, value] of fromPolicies(annotations)) {
    for (const port of parsePorts(value)) addPair(withProtocol(port), `${idFor(port)}-via-${alias}`, alias);
  }

  const world = annotations[NetworkingAnnotation.FromWorldToPorts];
  if (world !== undefined) {
    const ports = parsePorts(world);
    const list = ports.map((p) => (p.protocol === undefined ? portString(p) : `${p.protocol}/${portString(p)}`));
    add(
      namespace,
      `ingress-to-${name}-from-world`,
      `Allows ingress traffic from everywhere to ports [${list.join(' ')}] for pods selected by the ${serviceKey} service selector.`,
      {
        podSelector: targets,
        ingress: [
          {
            from: [
              { namespaceSelector: {}, podSelector: {} },
              { ipBlock: { cidr: '0.0.0.0/0' } },
              { ipBlock: { cidr: '::/0' } },
            ],
            ...(ports.length > 0 ? { ports: ports.map(withProtocol) } : {}),
          },
        ],
        policyTypes: ['Ingress'],
      },
    );
  }

  const ctrl = input.ingressController;
  if (ctrl) {
    for (const port of portsExposedByIngresses(service, input.ingresses ?? [])) {
      const cross = ctrl.namespace !== namespace;
      add(
        namespace,
        `ingress-to-${idFor(port)}-from-ingress-controller`,
        `${ingressText(port)} from ingress controller pods running in the ${ctrl.namespace} namespace labeled with ${describeSelector(ctrl.podSelector)}.`,
        {
          podSelector: targets,
          ingress: [{ from: [peer(ctrl.podSelector, cross ? nsSelector(ctrl.namespace) : undefined)], ports: [port] }],
          policyTypes: ['Ingress'],
        },
      );
      add(
        ctrl.namespace,
        `egress-to-${cross ? `${namespace}-` : ''}${idFor(port)}-from-ingress-controller`,
        `${egressText(port)} from pods running in the ${ctrl.namespace} namespace labeled with ${describeSelector(ctrl.podSelector)} to pods selected by the ${serviceKey} service selector.`,
        {
          podSelector: ctrl.podSelector,
          egress: [{ to: [peer(targets, cross ? nsSelector(namespace) : undefined)], ports: [port] }],
          policyTypes: ['Egress'],
        },
      );
    }
  }
  return [...policies.values()];
}

/** The API server defaults a port's protocol to TCP; the desired policies say so, so they compare equal. */
function withProtocol(port: NetworkPolicyPort): NetworkPolicyPort {
  return { ...port, protocol: protocolOf(port) };
}

/**
 * The Service's ports that Ingresses route to, as container ports: an Ingress names the Service port (by name or
 * number), a NetworkPolicy needs its target port.
 */
export function portsExposedByIngresses(service: Service, ingresses: Ingress[]): NetworkPolicyPort[] {
  const ports: NetworkPolicyPort[] = [];
  for (const ingress of ingresses) {
    if (ingress.metadata?.namespace !== service.metadata?.namespace) continue;
    for (const rule of ingress.spec?.rules ?? []) {
      for (const path of rule.http?.paths ?? []) {
        const backend = path.backend?.service;
        if (!backend || backend.name !== service.metadata?.name) continue;
        const sp = (service.spec?.ports ?? []).find(
          (p) =>
            (backend.port?.name !== undefined && backend.port.name === p.name) ||
            (backend.port?.number !== undefined && backend.port.number === p.port),
        );
        if (sp) ports.push({ protocol: sp.protocol ?? 'TCP', port: sp.targetPort ?? sp.port });
      }
    }
  }
  return ports;
}
