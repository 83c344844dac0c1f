// The high-availability-config webhook: replicas, zone pinning, topology spread constraints and eviction tolerations of
// Deployments and StatefulSets, and minReplicas/maxReplicas of HorizontalPodAutoscalers, from the resource's
// `high-availability-config.resources.gardener.cloud/type` label and its namespace's annotations.
import {
  allowed,
  denied,
  patched,
  type AdmissionRequest,
  type AdmissionResult,
  type KubernetesObject,
} from '@gardener-ts/controller-runtime';
import { WebhookAnnotation, WebhookLabel } from './constants.js';
import { annotationsOf, labelsOf, parseBool } from './mutate.js';
import {
  addEvictionTolerations,
  parseZones,
  pinToZones,
  replicaCount,
  setSpreadConstraints,
  topologySpreadConstraints,
} from './topology.js';
import type { HorizontalPodAutoscaler, Workload } from './types.js';

export interface HighAvailabilityInput {
  /** The namespace of the resource (its annotations decide). */
  namespace: KubernetesObject;
  /** The maxReplicas of the HorizontalPodAutoscaler that scales the resource, if one does. */
  scaledUpTo?: number;
  defaultNotReadyTolerationSeconds?: number;
  defaultUnreachableTolerationSeconds?: number;
}

/** The replicas the resource should have, undefined for "leave them"; throws on an unparsable overwrite annotation. */
function desiredReplicas(
  obj: KubernetesObject,
  current: number | undefined,
  failureToleranceType: string | undefined,
): number | undefined {
  // 0 replicas: hibernated (or an HPA switched off) — never scale up.
  if ((current ?? 0) === 0) return undefined;
  const replicas = replicaCount(failureToleranceType, labelsOf(obj)[WebhookLabel.HighAvailabilityType]);
  if (replicas === undefined) return undefined;
  const overwrite = annotationsOf(obj)[WebhookAnnotation.HighAvailabilityReplicas];
  if (overwrite) {
    if (!/^[+-]?\d+$/.test(overwrite))
      throw new Error(
        `invalid value for annotation ${WebhookAnnotation.HighAvailabilityReplicas}: ${JSON.stringify(overwrite)} is not an integer`,
      );
    return Number(overwrite);
  }
  return replicas;
}

export function highAvailabilityConfig(request: AdmissionRequest, input: HighAvailabilityInput): AdmissionResult {
  if (!request.object) return allowed('no object in the request');
  const nsAnnotations = annotationsOf(input.namespace);
  const failureToleranceType = nsAnnotations[WebhookAnnotation.HighAvailabilityFailureToleranceType];
  const zones = parseZones(nsAnnotations[WebhookAnnotation.HighAvailabilityZones]);
  const zonePinning = parseBool(nsAnnotations[WebhookAnnotation.HighAvailabilityZonePinning]) ?? false;
  const { group, kind } = request.kind;
  try {
    if (group === 'apps' && (kind === 'Deployment' || kind === 'StatefulSet')) {
      const workload = structuredClone(request.object) as Workload;
      const replicas = desiredReplicas(workload, workload.spec.replicas, failureToleranceType);
      if (replicas !== undefined && (input.scaledUpTo === undefined || (workload.spec.replicas ?? 0) < replicas))
        workload.spec.replicas = replicas;
      const template = workload.spec.template;
      if (failureToleranceType !== undefined || zonePinning) pinToZones(template, zones);
      const current = workload.spec.replicas ?? 0;
      const maxReplicas = input.scaledUpTo === undefined || current > input.scaledUpTo ? current : input.scaledUpTo;
      const selector =
        kind === 'StatefulSet' && workload.spec.selector
          ? workload.spec.selector
          : { matchLabels: template.metadata?.labels ?? {} };
      setSpreadConstraints(
        template,
        topologySpreadConstraints(current, maxReplicas, selector, zones.length, failureToleranceType),
      );
      addEvictionTolerations(
        template,
        input.defaultNotReadyTolerationSeconds,
        input.defaultUnreachableTolerationSeconds,
      );
      return patched(workload);
    }
    if (group === 'autoscaling' && kind === 'HorizontalPodAutoscaler') {
      const hpa = structuredClone(request.object) as HorizontalPodAutoscaler;
      const replicas = desiredReplicas(hpa, hpa.spec.minReplicas, failureToleranceType);
      if (replicas === undefined) return allowed('replicas are not managed');
      // Only ever raise minReplicas; raise maxReplicas with it when it would fall below.
      if ((hpa.spec.minReplicas ?? 0) < replicas) hpa.spec.minReplicas = replicas;
      if (hpa.spec.maxReplicas < (hpa.spec.minReplicas ?? 0)) hpa.spec.maxReplicas = replicas;
      return patched(hpa);
    }
  } catch (err) {
    return denied((err as Error).message);
  }
  return allowed(`unexpected resource: ${kind}.${group}`);
}
