// Pods made from a workload's pod template: the template's labels, annotations, finalizers and spec, controlled by
// the workload.
import type { GroupVersionKind, KubernetesObject } from '@gardener-ts/controller-runtime';
import type { Pod, PodTemplateSpec } from './kinds.js';
import { controllerRef } from './owner.js';

export function podFromTemplate(
  template: PodTemplateSpec | undefined,
  owner: KubernetesObject,
  ownerKind: GroupVersionKind,
  name: { name: string } | { generateName: string },
): Pod {
  const meta = template?.metadata ?? {};
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      ...name,
      namespace: owner.metadata?.namespace,
      labels: { ...meta.labels },
      ...(meta.annotations ? { annotations: { ...meta.annotations } } : {}),
      ...(meta.finalizers ? { finalizers: [...meta.finalizers] } : {}),
      ownerReferences: [controllerRef(owner, ownerKind)],
    },
    spec: structuredClone(template?.spec) ?? { containers: [] },
  };
}
