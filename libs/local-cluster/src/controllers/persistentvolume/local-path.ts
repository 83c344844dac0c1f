// The local-path provisioner, kind's default storage (rancher.io/local-path) for local clusters: a claim handed to it
// (`volume.kubernetes.io/storage-provisioner: rancher.io/local-path`, and under WaitForFirstConsumer once the
// scheduler picked its node) gets a directory `<root>/pvc-<uid>_<namespace>_<name>` and a hostPath
// PersistentVolume `pvc-<uid>` pre-bound to it, with the class's reclaim policy. A Released volume of reclaim policy
// Delete loses its directory and is deleted; one of policy Retain keeps both. Every node of a local cluster shares
// this machine's filesystem, so the volume carries no node affinity: a Pod finds its data on whichever node it runs.
import { mkdir, rm } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { ignoreNotFound, isAlreadyExists, type ReconcileResult, type Request } from '@gardener-ts/controller-runtime';
import type { ControllerContext } from '../shared/context.js';
import type { EventRecorder } from '../shared/events.js';
import {
  type PersistentVolume,
  type PersistentVolumeClaim,
  PersistentVolumeClaimKind,
  PersistentVolumeKind,
  type StorageClass,
  StorageClassKind,
} from '../shared/kinds.js';
import {
  ANN_BETA_STORAGE_PROVISIONER,
  ANN_DEFAULT_CLASS,
  ANN_PROVISIONED_BY,
  ANN_SELECTED_NODE,
  ANN_STORAGE_PROVISIONER,
  claimClass,
} from './binding.js';

/** The provisioner name kind's local-path-provisioner registers. */
export const LOCAL_PATH_PROVISIONER = 'rancher.io/local-path';

/** kind's default StorageClass: `standard`, local-path, WaitForFirstConsumer, reclaim policy Delete. */
export function standardStorageClass(): StorageClass {
  return {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name: 'standard', annotations: { [ANN_DEFAULT_CLASS]: 'true' } },
    provisioner: LOCAL_PATH_PROVISIONER,
    reclaimPolicy: 'Delete',
    volumeBindingMode: 'WaitForFirstConsumer',
  };
}

/** The volume's name (the provisioner's convention `pvc-<claim uid>`). */
export const provisionedVolumeName = (claim: PersistentVolumeClaim) => `pvc-${claim.metadata!.uid}`;

/** Where the claim's data lives under `root`. */
export const volumeDirectory = (root: string, claim: PersistentVolumeClaim) =>
  join(root, `${provisionedVolumeName(claim)}_${claim.metadata!.namespace}_${claim.metadata!.name}`);

/**
 * Whether the provisioner acts on the claim: unbound, handed to it, of a class of this provisioner, and (under
 * WaitForFirstConsumer) with its node selected.
 */
export function wantsVolume(claim: PersistentVolumeClaim, storageClass: StorageClass | undefined): boolean {
  const annotations = claim.metadata?.annotations ?? {};
  if (claim.metadata?.deletionTimestamp || claim.spec?.volumeName) return false;
  if (
    annotations[ANN_STORAGE_PROVISIONER] !== LOCAL_PATH_PROVISIONER &&
    annotations[ANN_BETA_STORAGE_PROVISIONER] !== LOCAL_PATH_PROVISIONER
  )
    return false;
  if (storageClass?.provisioner !== LOCAL_PATH_PROVISIONER) return false;
  return storageClass.volumeBindingMode !== 'WaitForFirstConsumer' || !!annotations[ANN_SELECTED_NODE];
}

/** The PersistentVolume for a claim: hostPath at `path`, the claim's request and access modes, pre-bound to it. */
export function provisionedVolume(
  claim: PersistentVolumeClaim,
  storageClass: StorageClass,
  path: string,
): PersistentVolume {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: {
      name: provisionedVolumeName(claim),
      annotations: { [ANN_PROVISIONED_BY]: LOCAL_PATH_PROVISIONER },
    },
    spec: {
      capacity: { storage: claim.spec?.resources?.requests?.storage ?? '0' },
      accessModes: claim.spec?.accessModes ?? ['ReadWriteOnce'],
      volumeMode: claim.spec?.volumeMode ?? 'Filesystem',
      persistentVolumeReclaimPolicy: storageClass.reclaimPolicy ?? 'Delete',
      storageClassName: claimClass(claim),
      hostPath: { path, type: 'DirectoryOrCreate' },
      claimRef: {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        namespace: claim.metadata!.namespace,
        name: claim.metadata!.name,
        uid: claim.metadata!.uid,
        resourceVersion: claim.metadata!.resourceVersion,
      },
    },
  };
}

/**
 * Whether `path` is a volume directory this provisioner made under `root` (directly in it, named `pvc-...`): the only
 * directories it ever deletes.
 */
export function ownsDirectory(root: string, path: string): boolean {
  const full = resolve(path);
  return dirname(full) === resolve(root) && basename(full).startsWith('pvc-');
}

/** Provisions volumes for claims. */
export class LocalPathProvisioner {
  constructor(
    private readonly ctx: ControllerContext,
    private readonly events: EventRecorder,
    private readonly root: string,
  ) {}

  async reconcile(req: Request): Promise<ReconcileResult | void> {
    const claim = await this.ctx.client.get(PersistentVolumeClaimKind, req).catch(ignoreNotFound);
    if (!claim) return;
    const className = claimClass(claim);
    const storageClass = className
      ? await this.ctx.client.get(StorageClassKind, { name: className }).catch(ignoreNotFound)
      : undefined;
    if (!storageClass || !wantsVolume(claim, storageClass)) return;
    const name = provisionedVolumeName(claim);
    const existing =
      (await this.ctx.client.get(PersistentVolumeKind, { name }).catch(ignoreNotFound)) ??
      (await this.ctx.api.get(PersistentVolumeKind, { name }).catch(ignoreNotFound));
    if (existing) return;
    const what = `${claim.metadata!.namespace}/${claim.metadata!.name}`;
    this.events.event(
      claim,
      'Normal',
      'Provisioning',
      `External provisioner is provisioning volume for claim "${what}"`,
    );
    const path = volumeDirectory(this.root, claim);
    try {
      await mkdir(path, { recursive: true, mode: 0o777 });
      await this.ctx.client.create(provisionedVolume(claim, storageClass, path));
    } catch (err) {
      if (isAlreadyExists(err)) return;
      this.events.event(
        claim,
        'Warning',
        'ProvisioningFailed',
        `failed to provision volume with StorageClass "${className}": ${(err as Error).message}`,
      );
      throw new Error(`provisioning a volume for claim ${what}`, { cause: err });
    }
    this.events.event(claim, 'Normal', 'ProvisioningSucceeded', `Successfully provisioned volume ${name}`);
  }
}

/** Deletes Released volumes of reclaim policy Delete that it provisioned, with their directories. */
export class LocalPathDeleter {
  constructor(
    private readonly ctx: ControllerContext,
    private readonly events: EventRecorder,
    private readonly root: string,
  ) {}

  async reconcile(req: Request): Promise<ReconcileResult | void> {
    const volume = await this.ctx.client.get(PersistentVolumeKind, req).catch(ignoreNotFound);
    if (!volume || volume.metadata?.annotations?.[ANN_PROVISIONED_BY] !== LOCAL_PATH_PROVISIONER) return;
    if (volume.status?.phase !== 'Released' || volume.spec?.persistentVolumeReclaimPolicy !== 'Delete') return;
    const path = volume.spec.hostPath?.path ?? '';
    if (!ownsDirectory(this.root, path)) {
      this.events.event(
        volume,
        'Warning',
        'VolumeFailedDelete',
        `path ${JSON.stringify(path)} is not a volume directory of this provisioner (under ${this.root}): not deleted`,
      );
      return;
    }
    await rm(path, { recursive: true, force: true });
    await this.ctx.client.delete(PersistentVolumeKind, req).catch(ignoreNotFound);
  }
}
