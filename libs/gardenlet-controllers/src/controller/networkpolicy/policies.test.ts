import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IPNet, labelSelectorAsSelector } from '@gardener-ts/api';
import {
  blockedNetworkPeers,
  desiredPolicy,
  egressRulesFromSubsets,
  excludedFrom,
  policiesForNamespace,
  runtimeNetworksOf,
  shootNetworksOf,
  type PolicyInputs,
} from './policies.js';

const networks = runtimeNetworksOf({
  nodes: '172.18.0.0/16',
  pods: '10.1.0.0/16',
  services: '10.2.0.0/16',
  blockCIDRs: ['169.254.169.254/32', '2001:db8::/64'],
});
const inputs: PolicyInputs = { networks };

describe('namespace selection', () => {
  it("follows Gardener's selectors per policy", () => {
    const all = [
      'deny-all',
      'allow-to-runtime-apiserver',
      'allow-to-public-networks',
      'allow-to-private-networks',
      'allow-to-blocked-cidrs',
      'allow-to-dns',
    ];
    expect(policiesForNamespace({ 'kubernetes.io/metadata.name': 'garden' })).toEqual(all);
    expect(policiesForNamespace({ 'gardener.cloud/role': 'shoot' })).toEqual(all);
    expect(policiesForNamespace({ 'gardener.cloud/role': 'extension' })).toEqual(all);
    expect(policiesForNamespace({ 'gardener.cloud/role': 'istio-system' })).toEqual([
      'deny-all',
      'allow-to-runtime-apiserver',
      'allow-to-dns',
    ]);
    expect(policiesForNamespace({ 'gardener.cloud/role': 'istio-ingress' })).toEqual([
      'deny-all',
      'allow-to-runtime-apiserver',
      'allow-to-dns',
    ]);
    expect(policiesForNamespace({ 'handler.exposureclass.gardener.cloud/name': '' })).toEqual([
      'deny-all',
      'allow-to-dns',
    ]);
    // A shoot--* name alone, the default namespace, a project namespace: nothing.
    expect(policiesForNamespace({ 'kubernetes.io/metadata.name': 'shoot--local--local' })).toEqual([]);
    expect(policiesForNamespace({ 'kubernetes.io/metadata.name': 'default' })).toEqual([]);
    expect(policiesForNamespace({ 'gardener.cloud/role': 'project' })).toEqual([]);
    expect(policiesForNamespace(undefined)).toEqual([]);
  });

  it('gives every policy to namespaces matching an additional namespace selector', () => {
    const additional = [
      labelSelectorAsSelector({ matchLabels: { custom: 'namespace' } }),
      labelSelectorAsSelector({ matchExpressions: [{ key: 'team', operator: 'Exists' }] }),
    ];
    const all = policiesForNamespace({ 'kubernetes.io/metadata.name': 'garden' });
    expect(policiesForNamespace({ custom: 'namespace' }, additional)).toEqual(all);
    expect(policiesForNamespace({ 'gardener.cloud/role': 'istio-system', team: 'x' }, additional)).toEqual(all);
    expect(policiesForNamespace({ custom: 'other' }, additional)).toEqual([]);
    expect(policiesForNamespace({ 'gardener.cloud/role': 'istio-ingress' }, additional)).toEqual([
      'deny-all',
      'allow-to-runtime-apiserver',
      'allow-to-dns',
    ]);
  });
});

describe('policies', () => {
  it('deny-all selects every pod and denies ingress and egress', () => {
    expect(desiredPolicy('deny-all', 'garden', inputs)).toEqual({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: {
        name: 'deny-all',
        namespace: 'garden',
        annotations: {
          'gardener.cloud/description': 'Disables all ingress and egress traffic into/from this namespace.',
        },
      },
      spec: { podSelector: {}, policyTypes: ['Ingress', 'Egress'] },
    });
  });

  it('allow-to-runtime-apiserver allows the addresses and ports of the default/kubernetes Endpoints', () => {
    const policy = desiredPolicy('allow-to-runtime-apiserver', 'shoot--local--local', {
      networks,
      apiServerSubsets: [
        {
          addresses: [{ ip: '10.0.0.1' }, { ip: '10.0.0.1' }, { ip: 'fd00::1' }],
          ports: [{ port: 6443, protocol: 'TCP' }],
        },
      ],
    });
    expect(policy.metadata?.annotations?.['gardener.cloud/description']).toBe(
      "Allows egress traffic from pods labeled with 'networking.gardener.cloud/to-runtime-apiserver=allowed' to the " +
        'endpoints in the default namespace of the kube-apiserver of the runtime cluster.',
    );
    expect(policy.spec).toEqual({
      podSelector: { matchLabels: { 'networking.gardener.cloud/to-runtime-apiserver': 'allowed' } },
      egress: [
        {
          to: [{ ipBlock: { cidr: '10.0.0.1/32' } }, { ipBlock: { cidr: 'fd00::1/128' } }],
          ports: [{ protocol: 'TCP', port: 6443 }],
        },
      ],
      policyTypes: ['Egress'],
    });
  });

  it('allow-to-public-networks allows everything but the private blocks and the blocked CIDRs', () => {
    expect(desiredPolicy('allow-to-public-networks', 'garden', inputs).spec).toEqual({
      podSelector: { matchLabels: { 'networking.gardener.cloud/to-public-networks': 'allowed' } },
      egress: [
        {
          to: [
            {
              ipBlock: {
                cidr: '0.0.0.0/0',
                except: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10', '169.254.169.254/32'],
              },
            },
            // The seed is IPv4 single-stack: only the blocked IPv6 CIDR joins the private IPv6 blocks.
            { ipBlock: { cidr: '::/0', except: ['fe80::/10', 'fc00::/7', '2001:db8::/64'] } },
          ],
        },
      ],
      policyTypes: ['Egress'],
    });
  });

  it('allow-to-private-networks excludes the seed networks, the blocked CIDRs and in shoot namespaces the shoot networks', () => {
    const shootNetworks = shootNetworksOf({
      spec: {
        shoot: {
          spec: { networking: { nodes: '10.10.0.0/16', pods: '100.96.0.0/11', services: '100.64.0.0/13' } },
          status: { networking: { pods: ['100.96.0.0/11'], nodes: ['10.11.0.0/16'] } },
        },
      },
    });
    expect(shootNetworks).toEqual({
      ipv4SingleStack: true,
      cidrs: ['10.10.0.0/16', '100.96.0.0/11', '100.64.0.0/13', '10.11.0.0/16'],
    });
    const policy = desiredPolicy('allow-to-private-networks', 'shoot--local--local', { networks, shootNetworks });
    expect(policy.metadata?.annotations?.['gardener.cloud/description']).toBe(
      "Allows egress from pods labeled with 'networking.gardener.cloud/to-private-networks=allowed' to the private " +
        'networks (RFC1918) and carrier-grade NAT (RFC6598), except for cluster-specific networks.',
    );
    expect(policy.spec?.egress).toEqual([
      {
        to: [
          { ipBlock: { cidr: '10.0.0.0/8', except: ['10.1.0.0/16', '10.2.0.0/16', '10.10.0.0/16', '10.11.0.0/16'] } },
          { ipBlock: { cidr: '172.16.0.0/12', except: ['172.18.0.0/16'] } },
          { ipBlock: { cidr: '192.168.0.0/16' } },
          { ipBlock: { cidr: '100.64.0.0/10', except: ['100.96.0.0/11', '100.64.0.0/13'] } },
        ],
      },
      { to: [{ ipBlock: { cidr: 'fe80::/10' } }, { ipBlock: { cidr: 'fc00::/7' } }] },
    ]);
  });

  it('allow-to-blocked-cidrs has one rule per blocked CIDR, none without', () => {
    expect(desiredPolicy('allow-to-blocked-cidrs', 'garden', inputs).spec).toEqual({
      podSelector: { matchLabels: { 'networking.gardener.cloud/to-blocked-cidrs': 'allowed' } },
      egress: [{ to: [{ ipBlock: { cidr: '169.254.169.254/32' } }] }, { to: [{ ipBlock: { cidr: '2001:db8::/64' } }] }],
      policyTypes: ['Egress'],
    });
    expect(
      desiredPolicy('allow-to-blocked-cidrs', 'garden', { networks: runtimeNetworksOf({ pods: 'x', services: 'y' }) })
        .spec,
    ).toEqual({
      podSelector: { matchLabels: { 'networking.gardener.cloud/to-blocked-cidrs': 'allowed' } },
      policyTypes: ['Egress'],
    });
  });

  it('allow-to-dns allows CoreDNS and node-local-dns in kube-system and the 10th address of the service network', () => {
    const kubeSystem = { matchLabels: { 'kubernetes.io/metadata.name': 'kube-system' } };
    expect(desiredPolicy('allow-to-dns', 'garden', inputs).spec).toEqual({
      podSelector: { matchLabels: { 'networking.gardener.cloud/to-dns': 'allowed' } },
      egress: [
        {
          to: [
            {
              namespaceSelector: kubeSystem,
              podSelector: { matchExpressions: [{ key: 'k8s-app', operator: 'In', values: ['kube-dns'] }] },
            },
            {
              namespaceSelector: kubeSystem,
              podSelector: { matchExpressions: [{ key: 'k8s-app', operator: 'In', values: ['node-local-dns'] }] },
            },
            { ipBlock: { cidr: '169.254.20.10/32' } },
            { ipBlock: { cidr: 'fd30:1319:f1e:230b::1/128' } },
            { ipBlock: { cidr: '10.2.0.10/32' } },
          ],
          ports: [
            { protocol: 'UDP', port: 53 },
            { protocol: 'TCP', port: 53 },
            { protocol: 'UDP', port: 8053 },
            { protocol: 'TCP', port: 8053 },
          ],
        },
      ],
      policyTypes: ['Egress'],
    });
    expect(() => desiredPolicy('allow-to-dns', 'garden', { networks: runtimeNetworksOf(undefined) })).toThrow(
      'no service range configured',
    );
  });

  it("excludes a single-stack cluster's own networks only from blocks of its family", () => {
    const v6 = runtimeNetworksOf({ pods: 'fd00:1::/64', services: 'fd00:2::/112', ipFamilies: ['IPv6'] });
    expect(blockedNetworkPeers(v6, 'IPv6')).toEqual(['fd00:1::/64', 'fd00:2::/112']);
    expect(blockedNetworkPeers(v6, 'IPv4')).toEqual([]);
    const dual = runtimeNetworksOf({ pods: '10.1.0.0/16', services: '10.2.0.0/16', ipFamilies: ['IPv4', 'IPv6'] });
    expect(blockedNetworkPeers(dual, 'IPv4')).toEqual([]);
  });
});

describe('egress rules from Endpoints', () => {
  it('makes one rule per subset, each address once, ports by number', () => {
    expect(
      egressRulesFromSubsets([
        { addresses: [{ ip: '1.2.3.4' }], ports: [{ port: 443 }] },
        { addresses: [], ports: [] },
      ]),
    ).toEqual([{ to: [{ ipBlock: { cidr: '1.2.3.4/32' } }], ports: [{ protocol: 'TCP', port: 443 }] }, {}]);
  });
});

describe('excludedFrom (property)', () => {
  const v4 = fc
    .tuple(fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.integer({ min: 0, max: 32 }))
    .map(([n, prefix]) => `${[24, 16, 8, 0].map((s) => (n >>> s) & 255).join('.')}/${prefix}`);

  it('keeps exactly the CIDRs strictly inside the parent, as written, in order', () => {
    fc.assert(
      fc.property(v4, fc.array(v4, { maxLength: 8 }), (parentText, cidrs) => {
        const parent = IPNet.parse(parentText);
        const kept = excludedFrom(parent, cidrs);
        // Order and text are preserved: `kept` is a subsequence of `cidrs`.
        expect(kept).toEqual(cidrs.filter((c) => kept.includes(c)));
        for (const c of cidrs) {
          const net = IPNet.parse(c);
          const inside = parent.containsNet(net) && net.prefix > parent.prefix;
          expect(kept.includes(c)).toBe(inside);
        }
      }),
    );
  });

  it('never excludes from a block an address range of the other family', () => {
    fc.assert(
      fc.property(v4, (cidr) => {
        expect(excludedFrom(IPNet.parse('::/0'), [cidr])).toEqual([]);
      }),
    );
  });
});
