import { describe, expect, it } from 'vitest';
import { labelSelectorAsSelector } from '@gardener-ts/api';
import type { KubernetesObject } from '@gardener-ts/controller-runtime';
import { parseComponentConfig, gardenletConfigSpec } from '@gardener-ts/component-config';
import { CONTROLLERS } from '../add.js';
import type { Cluster } from '../bastion/kinds.js';
import {
  clusterNetworksChanged,
  handledNamespaces,
  parseNamespaceSelectors,
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

  it('also maps namespaces matching controllers.networkPolicy.additionalNamespaceSelectors', () => {
    const namespaces: KubernetesObject[] = [
      { metadata: { name: 'garden', labels: { 'kubernetes.io/metadata.name': 'garden' } } },
      { metadata: { name: 'custom', labels: { 'kubernetes.io/metadata.name': 'custom', custom: 'namespace' } } },
      { metadata: { name: 'default', labels: { 'kubernetes.io/metadata.name': 'default' } } },
    ];
    expect(handledNamespaces(namespaces, [labelSelectorAsSelector({ matchLabels: { custom: 'namespace' } })])).toEqual([
      { namespace: '', name: 'garden' },
      { namespace: '', name: 'custom' },
    ]);
  });

  it('parses the additional namespace selectors and names the one that does not convert', () => {
    const [selector] = parseNamespaceSelectors([
      { matchExpressions: [{ key: 'team', operator: 'In', values: ['a'] }] },
    ]);
    expect(selector!.matches({ team: 'a' })).toBe(true);
    expect(selector!.matches({ team: 'b' })).toBe(false);
    expect(parseNamespaceSelectors(undefined)).toEqual([]);
    expect(() => parseNamespaceSelectors([{ matchLabels: { foo: 'no/slash/allowed' } }])).toThrow(
      'failed parsing namespace selector {"matchLabels":{"foo":"no/slash/allowed"}} to a label selector',
    );
  });

  it('is gated by controllers.networkPolicy.concurrentSyncs (default 5, 0 disables)', () => {
    const load = (block: string) =>
      parseComponentConfig(
        gardenletConfigSpec,
        `apiVersion: gardenlet.config.gardener.cloud/v1alpha1\nkind: GardenletConfiguration\n${block}`,
      ).config;
    const defaulted = load('');
    expect(defaulted.controllers.networkPolicy).toEqual({ concurrentSyncs: 5 });
    expect(CONTROLLERS.networkpolicy!.enabled(defaulted)).toBe(true);
    expect(CONTROLLERS.networkpolicy!.enabled(load('controllers:\n  networkPolicy:\n    concurrentSyncs: 0\n'))).toBe(
      false,
    );
  });
});
