// The kubernetes-service-host webhook: KUBERNETES_SERVICE_HOST set to the API server's host in every container of a
// pod, so pods talk to the API server directly instead of through the apiserver-proxy.
import type { AdmissionRequest, AdmissionResult } from '@gardener-ts/controller-runtime';
import { WebhookLabel } from './constants.js';
import { labelsOf, mutateCopy } from './mutate.js';
import type { Container, Pod } from './types.js';

export const KubernetesServiceHostEnv = 'KUBERNETES_SERVICE_HOST';

function inject(containers: Container[] | undefined, host: string): void {
  for (const c of containers ?? []) {
    if ((c.env ?? []).some((e) => e.name === KubernetesServiceHostEnv)) continue;
    c.env = [...(c.env ?? []), { name: KubernetesServiceHostEnv, value: host }];
  }
}

/** Opt-out: `apiserver-proxy.networking.gardener.cloud/inject: disable` on the pod (or, by the selector, its namespace). */
export function kubernetesServiceHost(request: AdmissionRequest, host: string): AdmissionResult {
  return mutateCopy<Pod>(request, (pod) => {
    if (!host) return 'no host configured';
    if (labelsOf(pod)[WebhookLabel.KubernetesServiceHostInject] === 'disable') return 'injection disabled for this pod';
    inject(pod.spec.initContainers, host);
    inject(pod.spec.containers, host);
  });
}
