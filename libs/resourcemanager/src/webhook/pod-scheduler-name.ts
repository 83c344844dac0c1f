// The pod-scheduler-name webhook: pods left to the default scheduler are given the configured one instead.
import type { AdmissionRequest, AdmissionResult } from '@gardener-ts/controller-runtime';
import { mutateCopy } from './mutate.js';
import type { Pod } from './types.js';

export function podSchedulerName(request: AdmissionRequest, schedulerName: string): AdmissionResult {
  return mutateCopy<Pod>(request, (pod) => {
    const current = pod.spec.schedulerName;
    if (current && current !== 'default-scheduler') return 'pod names its own scheduler';
    pod.spec.schedulerName = schedulerName;
  });
}
