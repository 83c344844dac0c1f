// The extensions `Cluster` resource (extensions.gardener.cloud/v1alpha1): named like the control plane namespace,
// it carries the Shoot, Seed and CloudProfile as raw objects so extensions read them without garden access
// (Gardener's `pkg/component/extensions/cluster`).
import type { extensionsv1alpha1 } from '@gardener-ts/api';
import type { ShootValues } from './values.js';

/** The Cluster resource mirroring the shoot, its seed and its cloud profile into the seed. */
export function renderCluster(values: ShootValues): extensionsv1alpha1.Cluster {
  return {
    apiVersion: 'extensions.gardener.cloud/v1alpha1',
    kind: 'Cluster',
    metadata: { name: values.namespace },
    spec: {
      shoot: withKind(values.shoot, 'core.gardener.cloud/v1beta1', 'Shoot'),
      seed: withKind(values.seed, 'core.gardener.cloud/v1beta1', 'Seed'),
      cloudProfile: withKind(values.cloudProfile, 'core.gardener.cloud/v1beta1', 'CloudProfile'),
    },
  };
}

// The raw objects carry apiVersion/kind so decoders (the extension SDK's `decodeCluster`) know what they hold;
// managedFields are noise for extensions and dropped.
function withKind(object: object, apiVersion: string, kind: string): Record<string, unknown> {
  const raw = structuredClone(object) as Record<string, unknown> & { metadata?: Record<string, unknown> };
  if (raw.metadata) delete raw.metadata.managedFields;
  return { ...raw, apiVersion, kind };
}
