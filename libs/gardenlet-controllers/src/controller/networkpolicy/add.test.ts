import { describe, expect, it } from 'vitest';
import type { Cluster } from '../bastion/kinds.js';
import {
  clusterNetworksChanged,
  handledNamespaces,
  isKubernetesEndpoints,
  isOwnedPolicyName,
  mapObjectToName,
  mapObjectToNamespace,
  namespaceCreatedOrUpdated,
} from './add.js';

const obj = (namespace: string, name: string) => ({ metadata: { namespace, name } });
const cluster = (pods: string, statusPods?: string[]): Cluster =>
  ({
    metadata: { name: 'shoot--local--local' },
    spec: {
      shoot: {
        spec: { networking: { pods, services: '100.64.0.0/13' } },
        ...(statusPods ? { status: { networking: { pods: statusPods } } } : {}),
      },
    },
  }) as unknown as Cluster;

describe('networkpolicy wiring', () => {
  it('reacts to namespace creations and updates, not deletions', () => {
    expect(namespaceCreatedOrUpdated({ type: 'create', object: {} })).toBe(true);
    expect(namespaceCreatedOrUpdated({ type: 'update', oldObject: {}, object: {} })).toBe(true);
    expect(namespaceCreatedOrUpdated({ type: 'delete', object: {} })).toBe(false);
  });

  it('maps the default/kubernetes Endpoints to every handled namespace', () => {
    expect(isKubernetesEndpoints({ type: 'update', oldObject: {}, object: obj('default', 'kubernetes') })).toBe(true);
    expect(isKubernetesEndpoints({ type: 'update', oldObject: {}, object: obj('garden', 'kubernetes') })).toBe(false);
    expect(
      handledNamespaces([
        { metadata: { name: 'garden', labels: { 'kubernetes.io/metadata.name': 'garden' } } },
        { metadata: { name: 'shoot--a--b', labels: { 'gardener.cloud/role': 'shoot' } } },
        { metadata: { name: 'default', labels: { 'kubernetes.io/metadata.name': 'default' } } },
      ]),
    ).toEqual([
      { namespace: '', name: 'garden' },
      { namespace: '', name: 'shoot--a--b' },
    ]);
  });

  it('maps owned policies to their namespace and Clusters to the namespace of their name', () => {
    expect(isOwnedPolicyName({ type: 'delete', object: obj('garden', 'deny-all') })).toBe(true);
    expect(isOwnedPolicyName({ type: 'delete', object: obj('garden', 'allow-to-dns') })).toBe(true);
    expect(isOwnedPolicyName({ type: 'delete', object: obj('garden', 'allow-to-seed-apiserver') })).toBe(false);
    expect(mapObjectToNamespace(obj('garden', 'deny-all'))).toEqual([{ namespace: '', name: 'garden' }]);
    expect(mapObjectToName({ metadata: { name: 'shoot--a--b' } })).toEqual([{ namespace: '', name: 'shoot--a--b' }]);
  });

  it('passes Cluster updates only when the shoot networks changed', () => {
    const a = cluster('100.96.0.0/11');
    expect(clusterNetworksChanged({ type: 'update', oldObject: a, object: structuredClone(a) })).toBe(false);
    expect(clusterNetworksChanged({ type: 'update', oldObject: a, object: cluster('100.128.0.0/11') })).toBe(true);
    expect(
      clusterNetworksChanged({ type: 'update', oldObject: a, object: cluster('100.96.0.0/11', ['100.96.0.0/11']) }),
    ).toBe(true);
    expect(clusterNetworksChanged({ type: 'create', object: a })).toBe(false);
  });
});
