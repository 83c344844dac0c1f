// Which of a Deployment's ReplicaSets is the new one (its template is the Deployment's), and how a new one looks.
import type { Deployment, ReplicaSet } from '../shared/kinds.js';
import { canonicalJson, objectHash } from '../shared/hash.js';
import { controllerRef } from '../shared/owner.js';
import { DeploymentKind } from '../shared/kinds.js';
import { POD_TEMPLATE_HASH, revisionOf } from './annotations.js';
import { specReplicas } from './rollout-math.js';

type Template = NonNullable<ReplicaSet['spec']>['template'];

/** Templates equal but for the pod-template-hash label. */
export function equalIgnoringHash(a: Template, b: Template): boolean {
  const strip = (t: Template) => {
    const copy = structuredClone(t ?? {});
    if (copy.metadata?.labels) {
      delete copy.metadata.labels[POD_TEMPLATE_HASH];
      if (Object.keys(copy.metadata.labels).length === 0) delete copy.metadata.labels;
    }
    return canonicalJson(copy);
  };
  return strip(a) === strip(b);
}

const byCreation = (a: ReplicaSet, b: ReplicaSet) =>
  Date.parse(a.metadata?.creationTimestamp ?? '') - Date.parse(b.metadata?.creationTimestamp ?? '') ||
  (a.metadata!.name! < b.metadata!.name! ? -1 : 1);

export function sortByCreation(sets: ReplicaSet[]): ReplicaSet[] {
  return [...sets].sort(byCreation);
}

/** The oldest ReplicaSet running the Deployment's current template. */
export function findNewReplicaSet(d: Deployment, sets: ReplicaSet[]): ReplicaSet | undefined {
  return sortByCreation(sets).find((rs) => equalIgnoringHash(rs.spec?.template, d.spec?.template));
}

export function maxRevision(sets: ReplicaSet[]): number {
  return Math.max(0, ...sets.map(revisionOf));
}

export const isActive = (rs: ReplicaSet) => specReplicas(rs) > 0;

/** A new ReplicaSet `<deployment>-<pod-template-hash>` for the Deployment's template. */
export function newReplicaSetFor(d: Deployment, replicas: number, annotations: Record<string, string>): ReplicaSet {
  const hash = objectHash(d.spec?.template, d.status?.collisionCount ?? 0);
  const template = structuredClone(d.spec!.template);
  template.metadata = { ...template.metadata, labels: { ...template.metadata?.labels, [POD_TEMPLATE_HASH]: hash } };
  const selector = structuredClone(d.spec!.selector);
  selector.matchLabels = { ...selector.matchLabels, [POD_TEMPLATE_HASH]: hash };
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: `${d.metadata!.name}-${hash}`,
      namespace: d.metadata?.namespace,
      labels: { ...template.metadata.labels },
      annotations,
      ownerReferences: [controllerRef(d, DeploymentKind)],
    },
    spec: { replicas, minReadySeconds: d.spec?.minReadySeconds ?? 0, selector, template },
  };
}
