// The seccomp-profile webhook: pods without a pod-level seccomp profile get `RuntimeDefault`.
import type { AdmissionRequest, AdmissionResult } from '@gardener-ts/controller-runtime';
import { WebhookLabel } from './constants.js';
import { labelsOf, mutateCopy } from './mutate.js';
import type { Pod } from './types.js';

/** Opt-out: the `seccompprofile.resources.gardener.cloud/skip` label on the pod. */
export function seccompProfile(request: AdmissionRequest): AdmissionResult {
  return mutateCopy<Pod>(request, (pod) => {
    if (WebhookLabel.SeccompProfileSkip in labelsOf(pod)) return 'pod opted out';
    if (pod.spec.securityContext?.seccompProfile) return 'pod sets its seccomp profile';
    pod.spec.securityContext = { ...pod.spec.securityContext, seccompProfile: { type: 'RuntimeDefault' } };
  });
}
