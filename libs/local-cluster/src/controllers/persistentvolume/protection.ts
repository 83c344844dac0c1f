// kube-controller-manager's pvc-protection controller: every claim carries the finalizer `kubernetes.io/pvc-protection`
// (kube's StorageObjectInUseProtection admission adds it at create; this controller adds it to claims without it), and a
// deleted claim keeps it while a Pod that is not terminated mounts the claim, so a volume (and with reclaim policy
// Delete, its data) is not released under a running Pod.
import {
  controllerFor,
  ignoreNotFound,
  isConflict,
  isNotFound,
  type ReconcileResult,
  type Request,
} from '@gardener-ts/controller-runtime';
import type { ControllerContext } from '../shared/context.js';
import { type PersistentVolumeClaim, PersistentVolumeClaimKind, type Pod, PodKind } from '../shared/kinds.js';

export const PVC_PROTECTION = 'pvc-protection';
/** The finalizer that keeps a claim while Pods use it. */
export const PVC_PROTECTION_FINALIZER = 'kubernetes.io/pvc-protection';

/** Whether the pod mounts the claim and may still run (kube counts every pod not Succeeded or Failed). */
export function podUsesClaim(pod: Pod, claim: PersistentVolumeClaim): boolean {
  if (pod.metadata?.namespace !== claim.metadata?.namespace) return false;
  if (pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') return false;
  return (pod.spec?.volumes ?? []).some((v) => v.persistentVolumeClaim?.claimName === claim.metadata?.name);
}

/** Adds the pvc-protection controller. */
export function addPVCProtectionController(ctx: ControllerContext): void {
  controllerFor(ctx.mgr, PVC_PROTECTION)
    .for(PersistentVolumeClaimKind)
    .watches(PodKind, (pod) =>
      (pod.spec?.volumes ?? []).flatMap((v) =>
        v.persistentVolumeClaim
          ? [{ namespace: pod.metadata!.namespace!, name: v.persistentVolumeClaim.claimName }]
          : [],
      ),
    )
    .withOptions({ needLeaderElection: false })
    .complete(new PVCProtection(ctx));
}

class PVCProtection {
  constructor(private readonly ctx: ControllerContext) {}

  async reconcile(req: Request): Promise<ReconcileResult | void> {
    const claim = await this.ctx.client.get(PersistentVolumeClaimKind, req).catch(ignoreNotFound);
    if (!claim) return;
    const finalizers = claim.metadata?.finalizers ?? [];
    const has = finalizers.includes(PVC_PROTECTION_FINALIZER);
    if (!claim.metadata?.deletionTimestamp) {
      if (!has) await this.setFinalizers(claim, [...finalizers, PVC_PROTECTION_FINALIZER]);
      return;
    }
    if (!has) return;
    // The cache may lag behind a pod just created: only a live list may let the claim go.
    const cached = (await this.ctx.client.list(PodKind, { namespace: req.namespace })).items;
    if (cached.some((p) => podUsesClaim(p, claim))) return;
    const live = (await this.ctx.api.list(PodKind, { namespace: req.namespace })).items;
    if (live.some((p) => podUsesClaim(p, claim))) return;
    await this.setFinalizers(
      claim,
      finalizers.filter((f) => f !== PVC_PROTECTION_FINALIZER),
    );
  }

  private async setFinalizers(claim: PersistentVolumeClaim, finalizers: string[]): Promise<void> {
    try {
      await this.ctx.client.update({ ...claim, metadata: { ...claim.metadata, finalizers } });
    } catch (err) {
      // A changed or gone claim brings its own event.
      if (!isConflict(err) && !isNotFound(err)) throw err;
    }
  }
}
