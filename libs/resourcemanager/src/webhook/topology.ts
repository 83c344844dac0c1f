// The scheduling rules of the high-availability-config webhook (Gardener's kubernetes utils for HA): replica counts
// per component type and failure tolerance, zone pinning, topology spread constraints and taint-based-eviction
// tolerations.
import type { LabelSelector, PodTemplateSpec, Toleration, TopologySpreadConstraint } from './types.js';

export const HostnameKey = 'kubernetes.io/hostname';
export const ZoneKey = 'topology.kubernetes.io/zone';
export const TaintNotReady = 'node.kubernetes.io/not-ready';
export const TaintUnreachable = 'node.kubernetes.io/unreachable';

/**
 * Replicas for a component of `componentType` (`controller`, `server`) under `failureToleranceType` (undefined: the
 * namespace has no such annotation). Undefined when the resource has no type: its replicas stay as they are.
 */
export function replicaCount(
  failureToleranceType: string | undefined,
  componentType: string | undefined,
): number | undefined {
  if (!componentType) return undefined;
  if (failureToleranceType === '' && componentType === 'controller') return 1;
  return 2;
}

/**
 * The spread constraints for `replicas` pods (up to `maxReplicas` when scaled horizontally) over `zones` zones; none
 * for a single replica.
 */
export function topologySpreadConstraints(
  replicas: number,
  maxReplicas: number,
  labelSelector: LabelSelector,
  zones: number,
  failureToleranceType: string | undefined,
): TopologySpreadConstraint[] {
  if (replicas <= 1) return [];
  const constraints: TopologySpreadConstraint[] = [
    {
      topologyKey: HostnameKey,
      maxSkew: 1,
      whenUnsatisfiable: failureToleranceType ? 'DoNotSchedule' : 'ScheduleAnyway',
      labelSelector: structuredClone(labelSelector),
    },
  ];
  if (zones >= 2) {
    constraints.push({
      topologyKey: ZoneKey,
      minDomains: Math.min(maxReplicas, zones),
      maxSkew: maxReplicas > 2 * zones ? 2 : 1,
      whenUnsatisfiable: 'DoNotSchedule',
      labelSelector: structuredClone(labelSelector),
    });
  }
  return constraints;
}

/** Replaces the hostname and zone constraints of `template` by `constraints` (others are kept). */
export function setSpreadConstraints(template: PodTemplateSpec, constraints: TopologySpreadConstraint[]): void {
  if (constraints.length === 0) return;
  const kept = (template.spec.topologySpreadConstraints ?? []).filter(
    (c) => c.topologyKey !== HostnameKey && c.topologyKey !== ZoneKey,
  );
  template.spec.topologySpreadConstraints = [...kept, ...constraints];
}

/** Pins the pods to `zones`: a `topology.kubernetes.io/zone In zones` expression in every required node selector term. */
export function pinToZones(template: PodTemplateSpec, zones: string[]): void {
  if (zones.length === 0) return;
  const spec = template.spec;
  spec.affinity ??= {};
  spec.affinity.nodeAffinity ??= {};
  const required = (spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution ??= {
    nodeSelectorTerms: [],
  });
  if (required.nodeSelectorTerms.length === 0) required.nodeSelectorTerms.push({});
  for (const term of required.nodeSelectorTerms) {
    term.matchExpressions = [
      ...(term.matchExpressions ?? []).filter((e) => e.key !== ZoneKey),
      { key: ZoneKey, operator: 'In', values: [...zones] },
    ];
  }
}

/** Adds NoExecute tolerations for not-ready and unreachable nodes with the configured seconds, unless present. */
export function addEvictionTolerations(
  template: PodTemplateSpec,
  notReadySeconds: number | undefined,
  unreachableSeconds: number | undefined,
): void {
  const existing = (template.spec.tolerations ?? []).filter((t) => !t.effect || t.effect === 'NoExecute');
  const tolerates = (key: string) => existing.some((t) => t.key === key);
  const added: Toleration[] = [];
  if (notReadySeconds !== undefined && !tolerates(TaintNotReady)) {
    added.push({ key: TaintNotReady, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: notReadySeconds });
  }
  if (unreachableSeconds !== undefined && !tolerates(TaintUnreachable)) {
    added.push({
      key: TaintUnreachable,
      operator: 'Exists',
      effect: 'NoExecute',
      tolerationSeconds: unreachableSeconds,
    });
  }
  if (added.length > 0) template.spec.tolerations = [...(template.spec.tolerations ?? []), ...added];
}

/** The zones of a namespace's `zones` annotation: comma-separated, without empty entries or duplicates, sorted. */
export function parseZones(annotation: string | undefined): string[] {
  if (annotation === undefined) return [];
  return [...new Set(annotation.split(',').filter((z) => z !== ''))].sort();
}
