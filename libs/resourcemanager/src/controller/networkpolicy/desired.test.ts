import { describe, expect, it } from 'vitest';
import { namespaceSelectorsOf, parsePorts } from './annotations.js';
import { desiredPolicies, goMap, portsExposedByIngresses, type DesiredInput } from './desired.js';
import {
  crossNamespacePolicies,
  fromWorldPolicy,
  ingressControllerPolicies,
  sameNamespacePolicies,
  seedIngress,
  seedIngressController,
  seedService,
} from './seed-examples.js';
import type { NetworkPolicy, Service } from './types.js';

const byKey = (policies: NetworkPolicy[]) =>
  Object.fromEntries(policies.map((p) => [`${p.metadata?.namespace}/${p.metadata?.name}`, p]));

/** The fields the document shows: name, namespace, annotations (where shown) and the whole spec. */
function asShown(actual: NetworkPolicy, expected: NetworkPolicy) {
  return {
    apiVersion: actual.apiVersion,
    kind: actual.kind,
    metadata: {
      name: actual.metadata?.name,
      namespace: actual.metadata?.namespace,
      ...(expected.metadata?.annotations ? { annotations: actual.metadata?.annotations } : {}),
    },
    spec: actual.spec,
  };
}

const examples: { name: string; input: DesiredInput; expected: NetworkPolicy[] }[] = [
  {
    name: 'one port, same namespace',
    input: { service: seedService.plain, namespaces: [] },
    expected: sameNamespacePolicies,
  },
  {
    name: 'namespace-selectors selecting namespace b',
    input: { service: seedService.crossNamespace, namespaces: ['b'] },
    expected: [...sameNamespacePolicies, ...crossNamespacePolicies],
  },
  {
    name: 'from-world-to-ports',
    input: { service: seedService.fromWorld, namespaces: [] },
    expected: [...sameNamespacePolicies, ...fromWorldPolicy],
  },
  {
    name: 'exposed via an Ingress, with an ingress controller selector',
    input: {
      service: seedService.plain,
      namespaces: [],
      ingresses: [seedIngress],
      ingressController: seedIngressController,
    },
    expected: [...sameNamespacePolicies, ...ingressControllerPolicies],
  },
];

describe('desiredPolicies: the examples of the seed document', () => {
  it.each(examples)('$name', ({ input, expected }) => {
    const actual = byKey(desiredPolicies(input));
    expect(Object.keys(actual).sort()).toEqual(Object.keys(byKey(expected)).sort());
    for (const [key, want] of Object.entries(byKey(expected))) {
      expect(asShown(actual[key], want), key).toEqual(want);
      expect(actual[key].metadata?.labels, key).toEqual({
        'networking.resources.gardener.cloud/service-name': 'gardener-resource-manager',
        'networking.resources.gardener.cloud/service-namespace': 'a',
      });
    }
  });

  it('describes the from-world policy', () => {
    const world = byKey(desiredPolicies({ service: seedService.fromWorld, namespaces: [] }))[
      'a/ingress-to-gardener-resource-manager-from-world'
    ];
    expect(world.metadata?.annotations?.['gardener.cloud/description']).toBe(
      'Allows ingress traffic from everywhere to ports [TCP/10250] for pods selected by the a/gardener-resource-manager service selector.',
    );
  });
});

const svc = (
  name: string,
  namespace: string,
  annotations: Record<string, string>,
  ports = [{ port: 8080, protocol: 'TCP' }],
): Service => ({
  metadata: { name, namespace, annotations },
  spec: { selector: { app: name }, ports },
});

describe('desiredPolicies: the other rules of the document', () => {
  it('uses the pod-label-selector-namespace-alias in cross-namespace labels only', () => {
    const service = svc('example', 'foo-1', {
      'networking.resources.gardener.cloud/namespace-selectors':
        '[{"matchLabels":{"kubernetes.io/metadata.name":"bar"}}]',
      'networking.resources.gardener.cloud/pod-label-selector-namespace-alias': 'all-foos',
    });
    const policies = byKey(desiredPolicies({ service, namespaces: ['bar'] }));
    expect(Object.keys(policies).sort()).toEqual([
      'bar/egress-to-foo-1-example-tcp-8080',
      'foo-1/egress-to-example-tcp-8080',
      'foo-1/ingress-to-example-tcp-8080',
      'foo-1/ingress-to-example-tcp-8080-from-bar',
    ]);
    expect(policies['bar/egress-to-foo-1-example-tcp-8080'].spec?.podSelector).toEqual({
      matchLabels: { 'networking.resources.gardener.cloud/to-all-foos-example-tcp-8080': 'allowed' },
    });
    expect(policies['foo-1/ingress-to-example-tcp-8080'].spec?.ingress?.[0].from?.[0].podSelector).toEqual({
      matchLabels: { 'networking.resources.gardener.cloud/to-example-tcp-8080': 'allowed' },
    });
  });

  it('creates -via-<alias> policies for from-<alias>-allowed-ports, selecting pods labelled to-<alias>', () => {
    const service = svc(
      'bar3',
      'a',
      { 'networking.resources.gardener.cloud/from-all-bars-allowed-ports': '[{"port":8083,"protocol":"TCP"}]' },
      [],
    );
    const policies = byKey(desiredPolicies({ service, namespaces: ['c'] }));
    expect(Object.keys(policies).sort()).toEqual([
      'a/egress-to-bar3-tcp-8083-via-all-bars',
      'a/ingress-to-bar3-tcp-8083-via-all-bars',
      'a/ingress-to-bar3-tcp-8083-via-all-bars-from-c',
      'c/egress-to-a-bar3-tcp-8083-via-all-bars',
    ]);
    expect(policies['a/egress-to-bar3-tcp-8083-via-all-bars'].spec).toEqual({
      podSelector: { matchLabels: { 'networking.resources.gardener.cloud/to-all-bars': 'allowed' } },
      egress: [{ to: [{ podSelector: { matchLabels: { app: 'bar3' } } }], ports: [{ port: 8083, protocol: 'TCP' }] }],
      policyTypes: ['Egress'],
    });
    expect(policies['c/egress-to-a-bar3-tcp-8083-via-all-bars'].spec?.podSelector).toEqual({
      matchLabels: { 'networking.resources.gardener.cloud/to-a-all-bars': 'allowed' },
    });
  });

  it('allows all ports from the world when from-world-to-ports is []', () => {
    const service = svc('web', 'a', { 'networking.resources.gardener.cloud/from-world-to-ports': '[]' }, []);
    const [world] = desiredPolicies({ service, namespaces: [] });
    expect(world.metadata?.name).toBe('ingress-to-web-from-world');
    expect(world.spec?.ingress).toEqual([
      {
        from: [
          { namespaceSelector: {}, podSelector: {} },
          { ipBlock: { cidr: '0.0.0.0/0' } },
          { ipBlock: { cidr: '::/0' } },
        ],
      },
    ]);
  });

  it('creates one pair per port, named by target port and lower-cased protocol', () => {
    const service = svc('dns', 'kube-system', {}, [
      { port: 53, protocol: 'UDP', targetPort: 8053 } as never,
      { port: 53, protocol: 'TCP', targetPort: 'dns-tcp' } as never,
    ]);
    expect(
      desiredPolicies({ service, namespaces: [] })
        .map((p) => p.metadata?.name)
        .sort(),
    ).toEqual([
      'egress-to-dns-tcp-dns-tcp',
      'egress-to-dns-udp-8053',
      'ingress-to-dns-tcp-dns-tcp',
      'ingress-to-dns-udp-8053',
    ]);
  });

  it('creates nothing for a Service without pod selector', () => {
    expect(
      desiredPolicies({
        service: { metadata: { name: 'x', namespace: 'a' }, spec: { ports: [{ port: 1 }] } },
        namespaces: ['b'],
      }),
    ).toEqual([]);
  });

  it('rejects annotations that are not JSON', () => {
    const service = svc('x', 'a', { 'networking.resources.gardener.cloud/from-world-to-ports': 'nope' });
    expect(() => desiredPolicies({ service, namespaces: [] })).toThrow(/failed unmarshalling nope/);
    expect(() =>
      namespaceSelectorsOf(svc('x', 'a', { 'networking.resources.gardener.cloud/namespace-selectors': '{}' })),
    ).toThrow(/not a list/);
  });
});

describe('helpers', () => {
  it('parses ports: digit strings become numbers, names stay names', () => {
    expect(parsePorts('[{"port":"10250","protocol":"TCP"},{"port":"metrics"},{"port":80,"endPort":90}]')).toEqual([
      { port: 10250, protocol: 'TCP' },
      { port: 'metrics' },
      { port: 80, endPort: 90 },
    ]);
  });

  it("formats selectors like Go's %v of a map", () => {
    expect(goMap({ b: '2', a: '1' })).toBe('map[a:1 b:2]');
  });

  it('translates Ingress backends (by number or name) to target ports and ignores other Services', () => {
    const service: Service = {
      metadata: { name: 's', namespace: 'a' },
      spec: {
        selector: { app: 's' },
        ports: [
          { name: 'http', port: 80, targetPort: 8080 },
          { name: 'https', port: 443, protocol: 'TCP', targetPort: 8443 },
        ],
      },
    };
    const ingress = (namespace: string, backends: { name: string; port: { name?: string; number?: number } }[]) => ({
      metadata: { name: 'i', namespace },
      spec: { rules: [{ http: { paths: backends.map((b) => ({ backend: { service: b } })) } }] },
    });
    expect(
      portsExposedByIngresses(service, [
        ingress('a', [
          { name: 's', port: { name: 'https' } },
          { name: 'other', port: { number: 80 } },
        ]),
        ingress('a', [{ name: 's', port: { number: 80 } }]),
        ingress('b', [{ name: 's', port: { number: 80 } }]),
      ]),
    ).toEqual([
      { protocol: 'TCP', port: 8443 },
      { protocol: 'TCP', port: 8080 },
    ]);
  });
});

describe('pod label keys of long shoot namespaces', () => {
  // A kube-apiserver Service in a long shoot namespace reached from the istio-ingress namespace.
  const shootNamespace = 'shoot--my-long-project--my-very-long-shoot-name';
  const service: Service = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name: 'kube-apiserver',
      namespace: shootNamespace,
      annotations: {
        'networking.resources.gardener.cloud/namespace-selectors': '[{"matchLabels":{"app":"istio-ingressgateway"}}]',
      },
    },
    spec: {
      selector: { app: 'kubernetes', role: 'apiserver' },
      ports: [{ protocol: 'TCP', port: 443, targetPort: 443 }],
    },
  };

  it('shortens keys longer than 63 characters to valid keys, as Gardener does, and reports them', () => {
    const shortened: [string, string][] = [];
    const policies = desiredPolicies({
      service,
      namespaces: ['istio-ingress'],
      onShortenedLabelKey: (original, short) => shortened.push([original, short]),
    });
    const keys = policies.flatMap((p) => [
      ...Object.keys(p.spec?.podSelector?.matchLabels ?? {}),
      ...(p.spec?.ingress ?? []).flatMap((r) =>
        (r.from ?? []).flatMap((f) => Object.keys(f.podSelector?.matchLabels ?? {})),
      ),
    ]);
    const crossKey = `networking.resources.gardener.cloud/to-${shootNamespace}-kube-apiserver-tcp-443`;
    expect(crossKey.split('/')[1].length).toBeGreaterThan(63);
    expect(keys).not.toContain(crossKey);
    for (const key of keys) expect(key.split('/').at(-1)!.length).toBeLessThanOrEqual(63);
    expect(shortened).toEqual([
      [
        crossKey,
        'networking.resources.gardener.cloud/to-shoot--my-long-project--my-very-long-shoot-name-kube-a-' +
          shortened[0][1].slice(-5),
      ],
    ]);
    expect(keys).toContain(shortened[0][1]);
  });
});
