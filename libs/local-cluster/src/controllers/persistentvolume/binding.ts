// kube's PersistentVolume controller rules as pure functions: which StorageClass is the default, which Available
// PersistentVolume a claim binds to (class, access modes, volume mode, selector, smallest capacity that fits), and
// the phase a volume is in given its claim.
import type { PersistentVolume, PersistentVolumeClaim, StorageClass } from '../shared/kinds.js';
import { milliValue } from '../shared/quantity.js';
import { selectorMatcher } from '../shared/selectors.js';

/** The annotation that makes a StorageClass the default one (and its beta predecessor, still honoured by kube). */
export const ANN_DEFAULT_CLASS = 'storageclass.kubernetes.io/is-default-class';
export const ANN_BETA_DEFAULT_CLASS = 'storageclass.beta.kubernetes.io/is-default-class';
/** Set by the scheduler on a WaitForFirstConsumer claim: the node of its first consumer. */
export const ANN_SELECTED_NODE = 'volume.kubernetes.io/selected-node';
/** Set by the PV controller on a claim an external provisioner is to provision. */
export const ANN_STORAGE_PROVISIONER = 'volume.kubernetes.io/storage-provisioner';
export const ANN_BETA_STORAGE_PROVISIONER = 'volume.beta.kubernetes.io/storage-provisioner';
/** On a claim: the controller finished binding it. */
export const ANN_BIND_COMPLETED = 'pv.kubernetes.io/bind-completed';
/** On a claim or a volume: the controller (not the user) bound it. */
export const ANN_BOUND_BY_CONTROLLER = 'pv.kubernetes.io/bound-by-controller';
/** On a volume: the provisioner that created it (and deletes it under reclaim policy Delete). */
export const ANN_PROVISIONED_BY = 'pv.kubernetes.io/provisioned-by';
/** The provisioner of classes for statically created volumes only. */
export const NO_PROVISIONER = 'kubernetes.io/no-provisioner';

/**
 * The default StorageClass: of those annotated default, the most recently created (kube since 1.26), ties broken by
 * name; undefined when none is.
 */
export function defaultStorageClass(classes: readonly StorageClass[]): StorageClass | undefined {
  const defaults = classes.filter((c) =>
    [ANN_DEFAULT_CLASS, ANN_BETA_DEFAULT_CLASS].some((a) => c.metadata?.annotations?.[a] === 'true'),
  );
  return defaults.sort((a, b) => {
    const at = a.metadata?.creationTimestamp ?? '';
    const bt = b.metadata?.creationTimestamp ?? '';
    if (at !== bt) return at < bt ? 1 : -1;
    return (a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1;
  })[0];
}

/** The claim's class name; `''` (no class) when unset. */
export const claimClass = (claim: PersistentVolumeClaim): string => claim.spec?.storageClassName ?? '';

/** The storage a claim requests, in milli-bytes (0 when it requests none). */
export function requestedStorage(claim: PersistentVolumeClaim): number {
  const request = claim.spec?.resources?.requests?.storage;
  return request === undefined ? 0 : milliValue(request);
}

/** A volume's capacity, in milli-bytes (0 when it states none). */
export function volumeCapacity(volume: PersistentVolume): number {
  const capacity = volume.spec?.capacity?.storage;
  return capacity === undefined ? 0 : milliValue(capacity);
}

/** Whether the volume's claimRef names this claim (by namespace and name, and by uid when the ref has one). */
export function claimRefMatches(volume: PersistentVolume, claim: PersistentVolumeClaim): boolean {
  const ref = volume.spec?.claimRef;
  if (!ref) return false;
  return (
    ref.namespace === claim.metadata?.namespace &&
    ref.name === claim.metadata?.name &&
    (!ref.uid || ref.uid === claim.metadata?.uid)
  );
}

/**
 * Whether the volume can hold the claim apart from who else claims it: the same class, the same volume mode, every
 * access mode the claim asks for, enough capacity, and the labels the claim's selector asks for.
 */
export function volumeFits(volume: PersistentVolume, claim: PersistentVolumeClaim): boolean {
  if ((volume.spec?.storageClassName ?? '') !== claimClass(claim)) return false;
  if ((volume.spec?.volumeMode ?? 'Filesystem') !== (claim.spec?.volumeMode ?? 'Filesystem')) return false;
  const modes = new Set(volume.spec?.accessModes ?? []);
  if (!(claim.spec?.accessModes ?? []).every((m) => modes.has(m))) return false;
  if (volumeCapacity(volume) < requestedStorage(claim)) return false;
  if (claim.spec?.selector && !selectorMatcher(claim.spec.selector)(volume.metadata?.labels ?? {})) return false;
  return true;
}

/**
 * The volume a claim without `volumeName` binds to: a volume pre-bound to it (claimRef naming it) that fits wins,
 * else the smallest fitting volume nobody claims (ties by name); undefined when none fits. Volumes being deleted or
 * Released/Failed are never chosen.
 */
export function findMatchingVolume(
  claim: PersistentVolumeClaim,
  volumes: readonly PersistentVolume[],
): PersistentVolume | undefined {
  const usable = volumes.filter(
    (v) =>
      !v.metadata?.deletionTimestamp &&
      v.status?.phase !== 'Released' &&
      v.status?.phase !== 'Failed' &&
      volumeFits(v, claim),
  );
  const preBound = usable.find((v) => claimRefMatches(v, claim));
  if (preBound) return preBound;
  return usable
    .filter((v) => !v.spec?.claimRef)
    .sort(
      (a, b) => volumeCapacity(a) - volumeCapacity(b) || ((a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1),
    )[0];
}

export type VolumePhase = 'Available' | 'Bound' | 'Released';

/**
 * A volume's phase given the claim its claimRef names (undefined when that claim does not exist): Available without a
 * claimRef or while pre-bound to a claim not yet created; Bound while the claim with the ref's uid exists; Released once
 * it is gone (or replaced by a claim of the same name and another uid).
 */
export function volumePhase(volume: PersistentVolume, claim: PersistentVolumeClaim | undefined): VolumePhase {
  const ref = volume.spec?.claimRef;
  if (!ref) return 'Available';
  if (!ref.uid) return claim && claim.spec?.volumeName === volume.metadata?.name ? 'Bound' : 'Available';
  return claim && claim.metadata?.uid === ref.uid ? 'Bound' : 'Released';
}
