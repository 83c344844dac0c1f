// The system-components-config webhook: system component pods (not DaemonSet pods) get the configured node selector,
// the configured tolerations, and tolerations for the taints of the nodes that run system components now.
import type { AdmissionRequest, AdmissionResult } from '@gardener-ts/controller-runtime';
import { WebhookLabel } from './constants.js';
import { labelsOf, mutateCopy } from './mutate.js';
import type { Pod, Toleration } from './types.js';

export interface Taint {
  key: string;
  value?: string;
  effect: string;
}

export interface SystemComponentsConfigInput {
  /** `.podNodeSelector`: merged into the pod's node selector. */
  podNodeSelector?: Record<string, string>;
  /** `.podTolerations`: added to the pod's tolerations. */
  podTolerations?: Toleration[];
  /** The taints of the nodes matching `.nodeSelector`. */
  nodeTaints: Taint[];
}

/** Taints never tolerated on purpose: Kubernetes' own (taint-based evictions) and the cluster-autoscaler's scale-down. */
export function ignoredTaint(taint: Taint): boolean {
  return taint.key.includes('kubernetes.io/') || taint.key === 'ToBeDeletedByClusterAutoscaler';
}

export function tolerationForTaint(taint: Taint): Toleration {
  return {
    key: taint.key,
    operator: taint.value ? 'Equal' : 'Exists',
    ...(taint.value ? { value: taint.value } : {}),
    effect: taint.effect,
  };
}

const tolerationKey = (t: Toleration) =>
  JSON.stringify([t.key ?? '', t.operator ?? '', t.value ?? '', t.effect ?? '', t.tolerationSeconds ?? null]);

export function managedByDaemonSet(pod: Pod): boolean {
  return (pod.metadata?.ownerReferences ?? []).some(
    (o) => o.kind === 'DaemonSet' && o.apiVersion === 'apps/v1' && o.controller === true,
  );
}

/** Opt-out: `system-components-config.resources.gardener.cloud/skip: "true"` on the pod. */
export function systemComponentsConfig(request: AdmissionRequest, input: SystemComponentsConfigInput): AdmissionResult {
  return mutateCopy<Pod>(request, (pod) => {
    if (labelsOf(pod)[WebhookLabel.SystemComponentsConfigSkip] === 'true') return 'pod opted out';
    if (managedByDaemonSet(pod)) return 'pod is managed by a DaemonSet';
    if (input.podNodeSelector && Object.keys(input.podNodeSelector).length > 0)
      pod.spec.nodeSelector = { ...pod.spec.nodeSelector, ...input.podNodeSelector };
    const tolerations = new Map<string, Toleration>();
    const add = (t: Toleration) => tolerations.has(tolerationKey(t)) || tolerations.set(tolerationKey(t), t);
    (pod.spec.tolerations ?? []).forEach(add);
    (input.podTolerations ?? []).forEach(add);
    input.nodeTaints
      .filter((t) => !ignoredTaint(t))
      .map(tolerationForTaint)
      .forEach(add);
    if (tolerations.size > 0) pod.spec.tolerations = [...tolerations.values()];
  });
}
