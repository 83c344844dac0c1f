// Small builders for the objects the controller tests create.
import type { Pod, PodTemplateSpec } from '../../../src/controllers/shared/kinds.js';

export function template(
  labels: Record<string, string>,
  image = 'app:v1',
  extra: Partial<NonNullable<PodTemplateSpec['spec']>> = {},
): PodTemplateSpec {
  return {
    metadata: { labels },
    spec: { containers: [{ name: 'app', image }], terminationGracePeriodSeconds: 0, ...extra },
  };
}

export function pod(
  name: string,
  labels: Record<string, string>,
  spec: Partial<NonNullable<Pod['spec']>> = {},
  namespace = 'default',
): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace, labels },
    spec: { containers: [{ name: 'app', image: 'app:v1' }], ...spec },
  };
}

export const isController = (uid: string | undefined) => (p: Pod) =>
  p.metadata?.ownerReferences?.some((r) => r.controller && r.uid === uid) ?? false;
