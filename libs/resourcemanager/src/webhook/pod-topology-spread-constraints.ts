// The pod-topology-spread-constraints webhook: every spread constraint of a Deployment's pod also selects the pod's
// `pod-template-hash`, so a rolling update is balanced on its own (mimics `matchLabelKeys`).
import type { AdmissionRequest, AdmissionResult } from '@gardener-ts/controller-runtime';
import { WebhookLabel } from './constants.js';
import { labelsOf, mutateCopy } from './mutate.js';
import type { LabelSelector, Pod } from './types.js';

const Hash = WebhookLabel.PodTemplateHash;

function selectsHash(selector: LabelSelector | undefined): boolean {
  if (!selector) return false;
  if (selector.matchLabels && Hash in selector.matchLabels) return true;
  return (selector.matchExpressions ?? []).some((e) => e.operator === 'In' && e.key === Hash);
}

/** Opt-out: the `topology-spread-constraints.resources.gardener.cloud/skip` label on the pod. */
export function podTopologySpreadConstraints(request: AdmissionRequest): AdmissionResult {
  return mutateCopy<Pod>(request, (pod) => {
    const labels = labelsOf(pod);
    if (WebhookLabel.PodTopologySpreadConstraintsSkip in labels) return 'pod opted out';
    const hash = labels[Hash];
    if (hash === undefined) return 'pod has no pod-template-hash label';
    const constraints = pod.spec.topologySpreadConstraints ?? [];
    if (constraints.length === 0) return 'pod has no topology spread constraints';
    for (const c of constraints) {
      if (selectsHash(c.labelSelector)) continue;
      c.labelSelector = { ...c.labelSelector, matchLabels: { ...c.labelSelector?.matchLabels, [Hash]: hash } };
      if (c.matchLabelKeys) c.matchLabelKeys = c.matchLabelKeys.filter((k) => k !== Hash);
    }
  });
}
