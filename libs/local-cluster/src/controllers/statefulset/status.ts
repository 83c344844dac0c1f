// The status a StatefulSet reports about its pods and revisions.
import type { Pod, StatefulSet } from '../shared/kinds.js';
import { isPodAvailable, isPodReady } from '../shared/pods.js';
import { REVISION_LABEL } from './plan.js';

export type StatefulSetStatus = NonNullable<StatefulSet['status']>;

export function statefulSetStatus(
  sts: StatefulSet,
  pods: Pod[],
  currentRevision: string,
  updateRevision: string,
  now: number,
): StatefulSetStatus {
  const created = pods.filter((p) => !p.metadata?.deletionTimestamp);
  const revision = (p: Pod) => p.metadata?.labels?.[REVISION_LABEL];
  const running = (p: Pod) => p.status?.phase === 'Running';
  const status: StatefulSetStatus = {
    observedGeneration: sts.metadata?.generation,
    replicas: created.length,
    readyReplicas: created.filter((p) => running(p) && isPodReady(p)).length,
    availableReplicas: created.filter((p) => running(p) && isPodAvailable(p, sts.spec?.minReadySeconds ?? 0, now))
      .length,
    currentReplicas: created.filter((p) => revision(p) === currentRevision).length,
    updatedReplicas: created.filter((p) => revision(p) === updateRevision).length,
    currentRevision,
    updateRevision,
    collisionCount: sts.status?.collisionCount ?? 0,
  };
  // A finished rolling update makes the update revision current.
  const replicas = sts.spec?.replicas ?? 1;
  if (
    sts.spec?.updateStrategy?.type !== 'OnDelete' &&
    status.updatedReplicas === replicas &&
    status.readyReplicas === replicas &&
    status.replicas === replicas
  ) {
    status.currentRevision = updateRevision;
    status.currentReplicas = status.updatedReplicas;
  }
  return status;
}
