import { describe, expect, it } from 'vitest';
import { ApiError, type Client, type KubernetesObject, type ReconcileContext } from '@gardener-ts/controller-runtime';
import { labelSelectorAsSelector } from '@gardener-ts/api';
import { createLogger } from '@gardener-ts/logging';
import { runtimeNetworksOf, type NetworkPolicy } from './policies.js';
import { NetworkPolicyReconciler } from './reconciler.js';

const ctx: ReconcileContext = {
  signal: new AbortController().signal,
  log: createLogger({ name: 'test', level: 'silent' }),
  controller: 'test',
};

/** The seed's objects by kind/namespace/name; records writes. */
class FakeSeed {
  readonly objects = new Map<string, KubernetesObject>();
  readonly writes: string[] = [];
  private k = (kind: string, namespace: string | undefined, name: string) => `${kind}/${namespace ?? ''}/${name}`;
  add(o: KubernetesObject) {
    this.objects.set(this.k(o.kind!, o.metadata?.namespace, o.metadata!.name!), structuredClone(o));
  }
  policy(namespace: string, name: string) {
    return this.objects.get(this.k('NetworkPolicy', namespace, name)) as NetworkPolicy | undefined;
  }
  policies(namespace: string) {
    return [...this.objects.values()]
      .filter((o) => o.kind === 'NetworkPolicy' && o.metadata?.namespace === namespace)
      .map((o) => o.metadata!.name)
      .sort();
  }
  get = (async (kind: { kind: string }, key: { namespace?: string; name: string }) => {
    const o = this.objects.get(this.k(kind.kind, key.namespace, key.name));
    if (!o) throw new ApiError(404, 'NotFound', `${kind.kind} ${key.name} not found`);
    return structuredClone(o);
  }) as Client['get'];
  create = (async (o: KubernetesObject) => {
    this.writes.push(`create ${o.metadata?.namespace}/${o.metadata?.name}`);
    this.add(o);
    return o;
  }) as Client['create'];
  update = (async (o: KubernetesObject) => {
    this.writes.push(`update ${o.metadata?.namespace}/${o.metadata?.name}`);
    this.add(o);
    return o;
  }) as Client['update'];
  delete = (async (kind: { kind: string }, key: { namespace?: string; name: string }) => {
    this.writes.push(`delete ${key.namespace}/${key.name}`);
    this.objects.delete(this.k(kind.kind, key.namespace, key.name));
  }) as Client['delete'];
}

const namespace = (name: string, labels: Record<string, string>, phase = 'Active') => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name, labels: { 'kubernetes.io/metadata.name': name, ...labels } },
  status: { phase },
});
const endpoints = (ip: string) => ({
  apiVersion: 'v1',
  kind: 'Endpoints',
  metadata: { namespace: 'default', name: 'kubernetes' },
  subsets: [{ addresses: [{ ip }], ports: [{ name: 'https', port: 6443, protocol: 'TCP' }] }],
});
const networks = runtimeNetworksOf({ nodes: '172.18.0.0/16', pods: '10.1.0.0/16', services: '10.2.0.0/16' });
const all = [
  'allow-to-blocked-cidrs',
  'allow-to-dns',
  'allow-to-private-networks',
  'allow-to-public-networks',
  'allow-to-runtime-apiserver',
  'deny-all',
];

describe('NetworkPolicyReconciler', () => {
  it('creates the policies of a namespace, follows the API server endpoints and reverts drift', async () => {
    const seed = new FakeSeed();
    seed.add(namespace('garden', {}));
    seed.add(endpoints('10.0.0.1'));
    const r = new NetworkPolicyReconciler({ seed, networks });

    await r.reconcile({ namespace: '', name: 'garden' }, ctx);
    expect(seed.policies('garden')).toEqual(all);
    expect(seed.policy('garden', 'allow-to-runtime-apiserver')!.spec!.egress).toEqual([
      { to: [{ ipBlock: { cidr: '10.0.0.1/32' } }], ports: [{ protocol: 'TCP', port: 6443 }] },
    ]);

    // In step: no writes (the stored form without empty arrays compares equal).
    seed.writes.length = 0;
    await r.reconcile({ namespace: '', name: 'garden' }, ctx);
    expect(seed.writes).toEqual([]);

    // The API server moves; someone edits deny-all and adds a label: the spec is restored, the label kept.
    seed.add(endpoints('10.0.0.2'));
    const denyAll = seed.policy('garden', 'deny-all')!;
    seed.add({
      ...denyAll,
      metadata: { ...denyAll.metadata, labels: { mine: 'yes' } },
      spec: { podSelector: { matchLabels: { app: 'x' } }, policyTypes: ['Ingress'] },
    } as NetworkPolicy);
    await r.reconcile({ namespace: '', name: 'garden' }, ctx);
    expect(seed.writes.sort()).toEqual(['update garden/allow-to-runtime-apiserver', 'update garden/deny-all']);
    expect(seed.policy('garden', 'allow-to-runtime-apiserver')!.spec!.egress![0]!.to).toEqual([
      { ipBlock: { cidr: '10.0.0.2/32' } },
    ]);
    expect(seed.policy('garden', 'deny-all')).toMatchObject({
      metadata: { labels: { mine: 'yes' } },
      spec: { podSelector: {}, policyTypes: ['Ingress', 'Egress'] },
    });
  });

  it('excludes the shoot networks of the Cluster in a shoot namespace, and fails without a Cluster', async () => {
    const seed = new FakeSeed();
    seed.add(namespace('shoot--local--local', { 'gardener.cloud/role': 'shoot' }));
    seed.add(endpoints('10.0.0.1'));
    const r = new NetworkPolicyReconciler({ seed, networks });
    await expect(r.reconcile({ namespace: '', name: 'shoot--local--local' }, ctx)).rejects.toThrow(
      'failed to reconcile NetworkPolicy shoot--local--local/allow-to-private-networks',
    );
    seed.add({
      apiVersion: 'extensions.gardener.cloud/v1alpha1',
      kind: 'Cluster',
      metadata: { name: 'shoot--local--local' },
      spec: { shoot: { spec: { networking: { nodes: '10.10.0.0/16' } } } },
    } as KubernetesObject);
    await r.reconcile({ namespace: '', name: 'shoot--local--local' }, ctx);
    expect(seed.policies('shoot--local--local')).toEqual(all);
    expect(seed.policy('shoot--local--local', 'allow-to-private-networks')!.spec!.egress![0]!.to![0]).toEqual({
      ipBlock: { cidr: '10.0.0.0/8', except: ['10.1.0.0/16', '10.2.0.0/16', '10.10.0.0/16'] },
    });
  });

  it('deletes the policies a namespace no longer gets, and leaves terminating or unknown namespaces alone', async () => {
    const seed = new FakeSeed();
    seed.add(namespace('istio-ingress', { 'gardener.cloud/role': 'istio-ingress' }));
    seed.add(endpoints('10.0.0.1'));
    seed.add({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { namespace: 'istio-ingress', name: 'allow-to-public-networks' },
    });
    const r = new NetworkPolicyReconciler({ seed, networks });
    await r.reconcile({ namespace: '', name: 'istio-ingress' }, ctx);
    expect(seed.policies('istio-ingress')).toEqual(['allow-to-dns', 'allow-to-runtime-apiserver', 'deny-all']);
    expect(seed.writes).toContain('delete istio-ingress/allow-to-public-networks');

    seed.writes.length = 0;
    seed.add(namespace('garden', {}, 'Terminating'));
    await r.reconcile({ namespace: '', name: 'garden' }, ctx);
    await r.reconcile({ namespace: '', name: 'missing' }, ctx);
    expect(seed.writes).toEqual([]);
  });

  it('gives every policy to a namespace matching an additional namespace selector, and takes them back', async () => {
    const seed = new FakeSeed();
    seed.add(namespace('custom', { custom: 'namespace' }));
    seed.add(endpoints('10.0.0.1'));
    const additionalNamespaceSelectors = [labelSelectorAsSelector({ matchLabels: { custom: 'namespace' } })];
    await new NetworkPolicyReconciler({ seed, networks }).reconcile({ namespace: '', name: 'custom' }, ctx);
    expect(seed.policies('custom')).toEqual([]);

    const r = new NetworkPolicyReconciler({ seed, networks, additionalNamespaceSelectors });
    await r.reconcile({ namespace: '', name: 'custom' }, ctx);
    expect(seed.policies('custom')).toEqual(all);

    seed.add(namespace('custom', { custom: 'gone' }));
    await r.reconcile({ namespace: '', name: 'custom' }, ctx);
    expect(seed.policies('custom')).toEqual([]);
  });

  it('adds the resolved addresses of the API server hostname to allow-to-runtime-apiserver', async () => {
    const seed = new FakeSeed();
    seed.add(namespace('garden', {}));
    seed.add(endpoints('10.0.0.1'));
    const resolver = { subsets: () => [{ addresses: [{ ip: '192.0.2.7' }], ports: [{ port: 443, protocol: 'TCP' }] }] };
    await new NetworkPolicyReconciler({ seed, networks, resolver }).reconcile({ namespace: '', name: 'garden' }, ctx);
    expect(seed.policy('garden', 'allow-to-runtime-apiserver')!.spec!.egress).toEqual([
      { to: [{ ipBlock: { cidr: '10.0.0.1/32' } }], ports: [{ protocol: 'TCP', port: 6443 }] },
      { to: [{ ipBlock: { cidr: '192.0.2.7/32' } }], ports: [{ protocol: 'TCP', port: 443 }] },
    ]);
  });
});
