// The projected-token-mount webhook: pods whose ServiceAccount does not automount its token get a projected volume
// (`kube-api-access-gardener`: a bound token, the cluster CA and the namespace) mounted where clients look for it.
import type { AdmissionRequest, AdmissionResult } from '@gardener-ts/controller-runtime';
import { WebhookAnnotation, WebhookLabel } from './constants.js';
import { annotationsOf, labelsOf, mutateCopy } from './mutate.js';
import type { Pod } from './types.js';

export const ProjectedTokenVolumeName = 'kube-api-access-gardener';
export const ServiceAccountMountPath = '/var/run/secrets/kubernetes.io/serviceaccount';
const DefaultFileMode = 420; // 0644

export interface ProjectedTokenMountInput {
  /** The pod's ServiceAccount (only read when the pod names one other than `default`). */
  serviceAccount?: { automountServiceAccountToken?: boolean };
  /** `.webhooks.projectedTokenMount.expirationSeconds`. */
  expirationSeconds: number;
}

/** The pod's ServiceAccount name when the webhook needs to look at the ServiceAccount, else undefined. */
export function serviceAccountToCheck(pod: Pod | null | undefined): string | undefined {
  const name = pod?.spec?.serviceAccountName;
  return name && name !== 'default' ? name : undefined;
}

function integerAnnotation(pod: Pod, key: string, fallback: number): number {
  const value = annotationsOf(pod)[key];
  if (value === undefined) return fallback;
  if (!/^[+-]?\d+$/.test(value))
    throw new Error(`invalid value for annotation ${key}: ${JSON.stringify(value)} is not an integer`);
  return Number(value);
}

export function projectedTokenVolume(expirationSeconds: number, defaultMode = DefaultFileMode) {
  return {
    name: ProjectedTokenVolumeName,
    projected: {
      defaultMode,
      sources: [
        { serviceAccountToken: { expirationSeconds, path: 'token' } },
        { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        {
          downwardAPI: {
            items: [{ fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' }, path: 'namespace' }],
          },
        },
      ],
    },
  };
}

export function projectedTokenMount(request: AdmissionRequest, input: ProjectedTokenMountInput): AdmissionResult {
  return mutateCopy<Pod>(request, (pod) => {
    if (labelsOf(pod)[WebhookLabel.ProjectedTokenSkip] === 'true') return 'pod opted out';
    if (!serviceAccountToCheck(pod)) return 'service account name is empty or default';
    if (input.serviceAccount?.automountServiceAccountToken !== false)
      return 'service account does not set automountServiceAccountToken=false';
    if (pod.spec.automountServiceAccountToken === false) return 'pod disables automount';
    if ((pod.spec.volumes ?? []).some((v) => v.name.startsWith('kube-api-access-')))
      return 'pod already has a service account volume';
    const expirationSeconds = integerAnnotation(
      pod,
      WebhookAnnotation.ProjectedTokenExpirationSeconds,
      input.expirationSeconds,
    );
    const mode = integerAnnotation(pod, WebhookAnnotation.ProjectedTokenFileMode, DefaultFileMode);
    pod.spec.volumes = [...(pod.spec.volumes ?? []), projectedTokenVolume(expirationSeconds, mode)];
    for (const c of [...pod.spec.containers, ...(pod.spec.initContainers ?? [])]) {
      c.volumeMounts = [
        ...(c.volumeMounts ?? []),
        { name: ProjectedTokenVolumeName, mountPath: ServiceAccountMountPath, readOnly: true },
      ];
    }
  });
}
