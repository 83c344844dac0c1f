// A StatefulSet pod's identity: its ordinal name, hostname and subdomain, its labels, and its own
// PersistentVolumeClaims `<claim>-<set>-<ordinal>`.
import type { PersistentVolumeClaim, Pod, PodTemplateSpec, StatefulSet } from '../shared/kinds.js';
import { podFromTemplate } from '../shared/pod-template.js';
import { StatefulSetKind } from '../shared/kinds.js';
import { REVISION_LABEL } from './plan.js';

export const POD_NAME_LABEL = 'statefulset.kubernetes.io/pod-name';
export const POD_INDEX_LABEL = 'apps.kubernetes.io/pod-index';

export const podName = (sts: StatefulSet, ordinal: number) => `${sts.metadata!.name}-${ordinal}`;
export const claimName = (claim: string, sts: StatefulSet, ordinal: number) => `${claim}-${podName(sts, ordinal)}`;

/** The ordinal of a pod of this set, or undefined if its name is not `<set>-<n>`. */
export function ordinalOf(sts: StatefulSet, pod: Pod): number | undefined {
  const prefix = `${sts.metadata!.name}-`;
  const name = pod.metadata?.name ?? '';
  if (!name.startsWith(prefix)) return undefined;
  const rest = name.slice(prefix.length);
  return /^(0|[1-9]\d*)$/.test(rest) ? Number(rest) : undefined;
}

export function statefulPod(sts: StatefulSet, ordinal: number, template: PodTemplateSpec, revision: string): Pod {
  const name = podName(sts, ordinal);
  const pod = podFromTemplate(template, sts, StatefulSetKind, { name });
  pod.metadata!.labels = {
    ...pod.metadata!.labels,
    [REVISION_LABEL]: revision,
    [POD_NAME_LABEL]: name,
    [POD_INDEX_LABEL]: String(ordinal),
  };
  const spec = pod.spec!;
  spec.hostname = name;
  if (sts.spec?.serviceName) spec.subdomain = sts.spec.serviceName;
  const claims = sts.spec?.volumeClaimTemplates ?? [];
  if (claims.length) {
    const claimed = new Set(claims.map((c) => c.metadata?.name));
    spec.volumes = [
      ...(spec.volumes ?? []).filter((v) => !claimed.has(v.name)),
      ...claims.map((c) => ({
        name: c.metadata!.name!,
        persistentVolumeClaim: { claimName: claimName(c.metadata!.name!, sts, ordinal) },
      })),
    ];
  }
  return pod;
}

/** The claims the pod of `ordinal` mounts, labelled like the set's pods. */
export function statefulClaims(sts: StatefulSet, ordinal: number): PersistentVolumeClaim[] {
  return (sts.spec?.volumeClaimTemplates ?? []).map((c) => ({
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: {
      name: claimName(c.metadata!.name!, sts, ordinal),
      namespace: sts.metadata?.namespace,
      labels: { ...c.metadata?.labels, ...sts.spec?.selector.matchLabels },
      ...(c.metadata?.annotations ? { annotations: { ...c.metadata.annotations } } : {}),
    },
    spec: structuredClone(c.spec),
  }));
}
