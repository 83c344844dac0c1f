// Test data builders for extension authors (`@gardener-ts/extensions/testing`): the Cluster gardenlet would write for
// a shoot, and extension objects as gardenlet creates them (with the `reconcile` operation annotation).
import type { ClusterObject } from './cluster/cluster.js';
import type { ExtensionObject } from './controller/generic/kinds.js';

/** The Cluster gardenlet writes for a shoot namespace, embedding the given Shoot, Seed and CloudProfile. */
export function clusterObject(
  namespace: string,
  parts: { shoot: Record<string, unknown>; seed?: Record<string, unknown>; cloudProfile?: Record<string, unknown> },
): ClusterObject {
  return {
    apiVersion: 'extensions.gardener.cloud/v1alpha1',
    kind: 'Cluster',
    metadata: { name: namespace },
    spec: {
      shoot: { apiVersion: 'core.gardener.cloud/v1beta1', kind: 'Shoot', ...parts.shoot },
      cloudProfile: { apiVersion: 'core.gardener.cloud/v1beta1', kind: 'CloudProfile', ...(parts.cloudProfile ?? {}) },
      ...(parts.seed ? { seed: { apiVersion: 'core.gardener.cloud/v1beta1', kind: 'Seed', ...parts.seed } } : {}),
    },
  };
}

/**
 * An extension object as gardenlet deploys it: `gardener.cloud/operation: reconcile` and a `gardener.cloud/timestamp`
 * (pass `operation: undefined` for none, or `wait-for-state` when restoring).
 */
export function extensionResource(
  kind: string,
  namespace: string,
  name: string,
  spec: ExtensionObject['spec'],
  options: { operation?: string | undefined; now?: Date } = { operation: 'reconcile' },
): ExtensionObject {
  const annotations: Record<string, string> = {};
  if (options.operation) {
    annotations['gardener.cloud/operation'] = options.operation;
    annotations['gardener.cloud/timestamp'] = (options.now ?? new Date()).toISOString();
  }
  return {
    apiVersion: 'extensions.gardener.cloud/v1alpha1',
    kind,
    metadata: { name, namespace, ...(Object.keys(annotations).length ? { annotations } : {}) },
    spec,
  };
}
