// The endpoint-slice-hints webhook: every endpoint with a zone is hinted for exactly that zone, making topology-aware
// routing deterministic.
import type { AdmissionRequest, AdmissionResult, KubernetesObject } from '@gardener-ts/controller-runtime';
import { WebhookLabel } from './constants.js';
import { labelsOf, mutateCopy } from './mutate.js';

type EndpointSlice = KubernetesObject & {
  endpoints?: { zone?: string; hints?: { forZones?: { name: string }[] }; [key: string]: unknown }[];
};

/** Only slices of Services labelled `endpoint-slice-hints.resources.gardener.cloud/consider: "true"` (the label is copied to the slices). */
export function endpointSliceHints(request: AdmissionRequest): AdmissionResult {
  return mutateCopy<EndpointSlice>(request, (slice) => {
    if (labelsOf(slice)[WebhookLabel.EndpointSliceHintsConsider] !== 'true') return 'endpoint slice is not considered';
    for (const endpoint of slice.endpoints ?? []) {
      if (endpoint.zone) endpoint.hints = { forZones: [{ name: endpoint.zone }] };
    }
  });
}
