import { describe, expect, it } from 'vitest';
import { renderShootClusterIdentityResources, renderShootNamespacesResources } from './managed-resource.js';

/** The objects a ManagedResource's Secret carries, in order (what the resource manager decodes and applies). */
const parseManagedResourceSecret = (secret: object) => {
  const data = (secret as { data?: Record<string, string> }).data ?? {};
  return Object.keys(data)
    .sort()
    .map((key) => JSON.parse(Buffer.from(data[key]!, 'base64').toString()));
};

describe('shoot ManagedResources', () => {
  it("put the shoot's cluster identity into kube-system/cluster-identity, immutable, origin shoot", () => {
    const { secret, managedResource } = renderShootClusterIdentityResources(
      'shoot--local--local',
      'shoot--local--local-uid-garden',
    );
    expect(managedResource).toMatchObject({
      metadata: {
        name: 'shoot-core-cluster-identity',
        namespace: 'shoot--local--local',
        labels: { origin: 'gardener' },
      },
      spec: { secretRefs: [{ name: 'managedresource-shoot-core-cluster-identity' }], keepObjects: false },
    });
    expect(parseManagedResourceSecret(secret)).toEqual([
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'cluster-identity', namespace: 'kube-system' },
        immutable: true,
        data: { 'cluster-identity': 'shoot--local--local-uid-garden', 'cluster-identity-origin': 'shoot' },
      },
    ]);
  });

  it('label kube-system and pin it to the zones of the pools that may run system components, keeping it on deletion', () => {
    const { secret, managedResource } = renderShootNamespacesResources('shoot--local--local', [
      { maximum: 2, zones: ['z2', 'z1'] },
      { maximum: 1, zones: ['z3'], systemComponents: { allow: false } },
      { maximum: 0, zones: ['z4'] },
      { maximum: 1, zones: ['z1'], systemComponents: { allow: true } },
    ]);
    expect(managedResource).toMatchObject({ metadata: { name: 'shoot-core-namespaces' }, spec: { keepObjects: true } });
    expect(parseManagedResourceSecret(secret)).toEqual([
      {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: {
          name: 'kube-system',
          labels: {
            'gardener.cloud/purpose': 'kube-system',
            'high-availability-config.resources.gardener.cloud/consider': 'true',
          },
          annotations: { 'high-availability-config.resources.gardener.cloud/zones': 'z1,z2' },
        },
      },
    ]);
    // Gardener's example shoot has no zones: the annotation is there, empty.
    const example = renderShootNamespacesResources('shoot--local--local', [{ maximum: 2 }]);
    expect(JSON.stringify(parseManagedResourceSecret(example.secret))).toContain(
      '"high-availability-config.resources.gardener.cloud/zones":""',
    );
  });
});
