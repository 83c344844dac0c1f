// Wiring of the volume controllers: kube's persistentvolume-binder (a claim worker and a volume worker, as kube's PV
// controller has) and the local-path provisioner (kind's default storage) with its deleter.
import { controllerFor, type InformerCache, type Request } from '@gardener-ts/controller-runtime';
import type { ControllerContext } from '../shared/context.js';
import {
  type PersistentVolume,
  type PersistentVolumeClaim,
  PersistentVolumeClaimKind,
  PersistentVolumeKind,
  StorageClassKind,
} from '../shared/kinds.js';
import { ClaimBinder, VolumeBinder } from './binder.js';
import { LocalPathDeleter, LocalPathProvisioner } from './local-path.js';

export const PERSISTENTVOLUME_BINDER = 'persistentvolume-binder';
export const LOCAL_PATH_PROVISIONER_CONTROLLER = 'local-path-provisioner';

/** Adds the persistentvolume-binder: claims bind to volumes, volumes follow their claims. */
export function addPersistentVolumeBinder(ctx: ControllerContext): void {
  controllerFor(ctx.mgr, `${PERSISTENTVOLUME_BINDER}-claims`)
    .for(PersistentVolumeClaimKind)
    .watches(PersistentVolumeKind, claimOf)
    .watches(StorageClassKind, () => unboundClaims(ctx.cache))
    .withOptions({ needLeaderElection: false })
    .complete(new ClaimBinder(ctx, ctx.events('persistentvolume-controller')));
  controllerFor(ctx.mgr, `${PERSISTENTVOLUME_BINDER}-volumes`)
    .for(PersistentVolumeKind)
    .watches(PersistentVolumeClaimKind, (claim) => volumesOf(ctx.cache, claim))
    .withOptions({ needLeaderElection: false })
    .complete(new VolumeBinder(ctx));
}

export interface LocalPathOptions {
  /** The directory volumes are made in (`<cluster data dir>/volumes` in a local cluster). */
  root: string;
}

/** Adds the local-path provisioner: volumes for its claims, deletion of its released volumes. */
export function addLocalPathProvisioner(ctx: ControllerContext, options: LocalPathOptions): void {
  const events = ctx.events(LOCAL_PATH_PROVISIONER_CONTROLLER);
  controllerFor(ctx.mgr, LOCAL_PATH_PROVISIONER_CONTROLLER)
    .for(PersistentVolumeClaimKind)
    .watches(StorageClassKind, () => unboundClaims(ctx.cache))
    .withOptions({ needLeaderElection: false })
    .complete(new LocalPathProvisioner(ctx, events, options.root));
  controllerFor(ctx.mgr, `${LOCAL_PATH_PROVISIONER_CONTROLLER}-deleter`)
    .for(PersistentVolumeKind)
    .withOptions({ needLeaderElection: false })
    .complete(new LocalPathDeleter(ctx, events, options.root));
}

function claimOf(volume: PersistentVolume): Request[] {
  const ref = volume.spec?.claimRef;
  return ref?.name && ref.namespace ? [{ namespace: ref.namespace, name: ref.name }] : [];
}

function unboundClaims(cache: InformerCache): Request[] {
  return cache
    .informerFor(PersistentVolumeClaimKind)
    .store.list()
    .filter((c) => !c.spec?.volumeName)
    .map((c) => ({ namespace: c.metadata!.namespace!, name: c.metadata!.name! }));
}

function volumesOf(cache: InformerCache, claim: PersistentVolumeClaim): Request[] {
  const { namespace, name } = claim.metadata ?? {};
  return cache
    .informerFor(PersistentVolumeKind)
    .store.list()
    .filter(
      (v) =>
        v.metadata?.name === claim.spec?.volumeName ||
        (v.spec?.claimRef?.namespace === namespace && v.spec?.claimRef?.name === name),
    )
    .map((v) => ({ namespace: '', name: v.metadata!.name! }));
}
