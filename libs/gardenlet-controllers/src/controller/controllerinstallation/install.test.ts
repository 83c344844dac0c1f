import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  chartValues,
  extensionNamespaceObject,
  installationManagedResource,
  managedResourceDataKey,
} from './install.js';

describe('ControllerInstallation deployment objects', () => {
  it('names and labels the extension namespace, with the pod security level of the registration', () => {
    const registration = {
      apiVersion: 'core.gardener.cloud/v1beta1',
      kind: 'ControllerRegistration',
      metadata: {
        name: 'provider-local',
        annotations: { 'security.gardener.cloud/pod-security-enforce': 'privileged' },
      },
    };
    expect(extensionNamespaceObject('provider-local-abcde', registration).metadata).toEqual({
      name: 'extension-provider-local-abcde',
      labels: {
        'gardener.cloud/role': 'extension',
        'controllerregistration.core.gardener.cloud/name': 'provider-local',
        'pod-security.kubernetes.io/enforce': 'privileged',
        'pod-security.kubernetes.io/enforce-version': 'latest',
      },
    });
    expect(
      extensionNamespaceObject('x', { ...registration, metadata: { name: 'r' } }).metadata?.labels?.[
        'pod-security.kubernetes.io/enforce'
      ],
    ).toBe('baseline');
  });

  it("extends the deployment's values with Gardener's gardener block", () => {
    const values = chartValues(
      { image: { tag: 'v1' }, gardener: { seed: { extra: true } } },
      {
        version: '1.2.3',
        featureGates: { Foo: true },
        seed: { name: 'local', labels: { a: 'b' }, spec: { provider: { type: 'local' } } },
      },
    );
    expect(values).toEqual({
      image: { tag: 'v1' },
      gardener: {
        version: '1.2.3',
        garden: { clusterIdentity: '' },
        gardenlet: { featureGates: { Foo: true } },
        seed: {
          extra: true,
          name: 'local',
          clusterIdentity: '',
          annotations: {},
          labels: { a: 'b' },
          spec: { provider: { type: 'local' } },
        },
      },
    });
    expect(chartValues(undefined, { version: 'v', featureGates: {}, seed: { name: 's', spec: {} } })).toHaveProperty(
      'gardener.seed.name',
      's',
    );
  });

  it('packs the rendered objects into a ManagedResource of class seed labelled with the installation', () => {
    const { secret, managedResource } = installationManagedResource('ci-1', [
      { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', namespace: 'extension-ci-1' } },
      { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'c' } },
    ]);
    expect(managedResource).toEqual({
      apiVersion: 'resources.gardener.cloud/v1alpha1',
      kind: 'ManagedResource',
      metadata: { name: 'ci-1', namespace: 'garden', labels: { 'controllerinstallation-name': 'ci-1' } },
      spec: { class: 'seed', secretRefs: [{ name: 'managedresource-ci-1' }], keepObjects: false },
    });
    const data = (secret as { data: Record<string, string> }).data;
    const decoded = Object.values(data).map((v) => JSON.parse(Buffer.from(v, 'base64').toString()));
    expect(decoded.map((o) => `${o.kind}/${o.metadata.name}`)).toEqual(['Deployment/d', 'ClusterRole/c']);
    expect(secret.metadata).toMatchObject({ name: 'managedresource-ci-1', namespace: 'garden' });
  });

  it('keys every object with a valid Secret key, also ClusterRoles named gardener-ts:provider-local', () => {
    const { secret } = installationManagedResource('provider-local-x1y2z', [
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: 'gardener-ts:provider-local' },
      },
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: { name: 'gardener-ts:provider-local' },
      },
    ]);
    expect(Object.keys((secret as { data: Record<string, string> }).data)).toEqual([
      '000_clusterrole__gardener-ts_provider-local.json',
      '001_clusterrolebinding__gardener-ts_provider-local.json',
    ]);
    fc.assert(
      fc.property(fc.nat(999), fc.string(), fc.string(), fc.string(), (index, kind, namespace, name) => {
        const key = managedResourceDataKey(index, { kind, metadata: { namespace, name } });
        // Kubernetes' IsConfigMapKey: alphanumerics, '-', '_' or '.'.
        expect(key).toMatch(/^[-._a-zA-Z0-9]+$/);
        expect(key.startsWith(String(index).padStart(3, '0'))).toBe(true);
      }),
    );
  });
});
