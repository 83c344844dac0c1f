// kube-controller-manager's persistentvolume-binder: gives claims without a class the default StorageClass (kube's
// retroactive default class assignment), binds each claim to a fitting PersistentVolume (claimRef on the volume
// first, then volumeName on the claim, then both statuses Bound), hands claims no volume fits to their class's
// provisioner (`volume.kubernetes.io/storage-provisioner`), waits for the first consumer under WaitForFirstConsumer,
// and marks a volume Released once its claim is gone. Deleting released volumes is the provisioner's job.
import {
  ignoreNotFound,
  isConflict,
  isNotFound,
  type ReconcileResult,
  type Request,
} from '@gardener-ts/controller-runtime';
import type { ControllerContext } from '../shared/context.js';
import type { EventRecorder } from '../shared/events.js';
import { canonicalJson } from '../shared/hash.js';
import {
  type PersistentVolume,
  type PersistentVolumeClaim,
  PersistentVolumeClaimKind,
  PersistentVolumeKind,
  StorageClassKind,
} from '../shared/kinds.js';
import {
  ANN_BETA_STORAGE_PROVISIONER,
  ANN_BIND_COMPLETED,
  ANN_BOUND_BY_CONTROLLER,
  ANN_SELECTED_NODE,
  ANN_STORAGE_PROVISIONER,
  claimClass,
  claimRefMatches,
  defaultStorageClass,
  findMatchingVolume,
  NO_PROVISIONER,
  volumePhase,
} from './binding.js';

/** The claim side: default class, binding, provisioning hand-off. */
export class ClaimBinder {
  /** Claims (by uid and reason) whose waiting event was recorded, so a resync does not repeat it. */
  private readonly told = new Set<string>();

  constructor(
    private readonly ctx: ControllerContext,
    private readonly events: EventRecorder,
  ) {}

  async reconcile(req: Request): Promise<ReconcileResult | void> {
    const claim = await this.ctx.client.get(PersistentVolumeClaimKind, req).catch(ignoreNotFound);
    if (!claim || claim.metadata?.deletionTimestamp) return;
    const spec = claim.spec ?? {};
    if (spec.storageClassName === undefined && !spec.volumeName) {
      const fallback = defaultStorageClass((await this.ctx.client.list(StorageClassKind)).items);
      if (fallback) {
        await this.ctx.client.patch(PersistentVolumeClaimKind, req, {
          type: 'merge',
          patch: { spec: { storageClassName: fallback.metadata!.name } },
        });
        return;
      }
    }
    if (spec.volumeName) return this.syncNamedVolume(claim, spec.volumeName);

    const className = claimClass(claim);
    const storageClass = className
      ? await this.ctx.client.get(StorageClassKind, { name: className }).catch(ignoreNotFound)
      : undefined;
    const delayed =
      storageClass?.volumeBindingMode === 'WaitForFirstConsumer' && !claim.metadata?.annotations?.[ANN_SELECTED_NODE];
    if (!delayed) {
      const volume = findMatchingVolume(claim, (await this.ctx.client.list(PersistentVolumeKind)).items);
      if (volume) return this.bind(claim, volume);
    }
    await this.claimStatus(claim, { phase: 'Pending' });
    if (delayed)
      return this.tell(
        claim,
        'Normal',
        'WaitForFirstConsumer',
        'waiting for first consumer to be created before binding',
      );
    if (!className) return;
    if (!storageClass)
      return this.tell(claim, 'Warning', 'ProvisioningFailed', `storageclass.storage.k8s.io "${className}" not found`);
    const provisioner = storageClass.provisioner;
    if (provisioner === NO_PROVISIONER) return;
    const annotations = claim.metadata?.annotations ?? {};
    if (
      annotations[ANN_STORAGE_PROVISIONER] !== provisioner ||
      annotations[ANN_BETA_STORAGE_PROVISIONER] !== provisioner
    )
      await this.ctx.client.patch(PersistentVolumeClaimKind, req, {
        type: 'merge',
        patch: {
          metadata: {
            annotations: { [ANN_STORAGE_PROVISIONER]: provisioner, [ANN_BETA_STORAGE_PROVISIONER]: provisioner },
          },
        },
      });
    this.tell(
      claim,
      'Normal',
      'ExternalProvisioning',
      `Waiting for a volume to be created either by the external provisioner '${provisioner}' or manually by the ` +
        'system administrator. If volume creation is delayed, please verify that the provisioner is running and ' +
        'correctly registered.',
    );
  }

  /** A claim naming its volume: finish the binding, or report why it cannot be. */
  private async syncNamedVolume(claim: PersistentVolumeClaim, name: string): Promise<void> {
    const volume = await this.live(PersistentVolumeKind, { name });
    if (!volume) {
      if (claim.status?.phase === 'Bound' || claim.status?.phase === 'Lost') {
        if (claim.status.phase !== 'Lost')
          this.events.event(
            claim,
            'Warning',
            'ClaimLost',
            'Bound claim has lost its PersistentVolume. Data on the volume is lost!',
          );
        await this.claimStatus(claim, { phase: 'Lost' });
      } else {
        await this.claimStatus(claim, { phase: 'Pending' });
        this.tell(claim, 'Warning', 'FailedBinding', `volume "${name}" not found`);
      }
      return;
    }
    if (volume.spec?.claimRef && !claimRefMatches(volume, claim)) {
      await this.claimStatus(claim, { phase: 'Pending' });
      return this.tell(claim, 'Warning', 'FailedBinding', `volume "${name}" already bound to a different claim.`);
    }
    await this.bind(claim, volume);
  }

  /** Binds claim and volume; each write is skipped when already done, so a retried reconcile picks up where it left. */
  private async bind(claim: PersistentVolumeClaim, volume: PersistentVolume): Promise<void> {
    const name = volume.metadata!.name!;
    if (!volume.spec?.claimRef?.uid) {
      volume = await this.ctx.client.update({
        ...volume,
        metadata: {
          ...volume.metadata,
          annotations: {
            ...volume.metadata?.annotations,
            ...(volume.spec?.claimRef ? {} : { [ANN_BOUND_BY_CONTROLLER]: 'yes' }),
          },
        },
        spec: {
          ...volume.spec,
          claimRef: {
            apiVersion: 'v1',
            kind: 'PersistentVolumeClaim',
            namespace: claim.metadata!.namespace,
            name: claim.metadata!.name,
            uid: claim.metadata!.uid,
            resourceVersion: claim.metadata!.resourceVersion,
          },
        },
      });
    }
    if (volume.status?.phase !== 'Bound')
      await this.ctx.client.updateStatus({ ...volume, status: { ...volume.status, phase: 'Bound' } });
    const annotations = claim.metadata?.annotations ?? {};
    if (claim.spec?.volumeName !== name || annotations[ANN_BIND_COMPLETED] !== 'yes') {
      claim = await this.ctx.client.update({
        ...claim,
        metadata: {
          ...claim.metadata,
          annotations: {
            ...annotations,
            [ANN_BIND_COMPLETED]: 'yes',
            ...(claim.spec?.volumeName ? {} : { [ANN_BOUND_BY_CONTROLLER]: 'yes' }),
          },
        },
        spec: { ...claim.spec, volumeName: name },
      });
    }
    await this.claimStatus(claim, {
      phase: 'Bound',
      accessModes: volume.spec?.accessModes,
      capacity: volume.spec?.capacity,
    });
  }

  private async claimStatus(claim: PersistentVolumeClaim, status: NonNullable<PersistentVolumeClaim['status']>) {
    const next = { ...claim.status, ...status };
    if (canonicalJson(next) === canonicalJson(claim.status ?? {})) return;
    try {
      await this.ctx.client.updateStatus({ ...claim, status: next });
    } catch (err) {
      if (!isConflict(err) && !isNotFound(err)) throw err;
    }
  }

  private tell(claim: PersistentVolumeClaim, type: 'Normal' | 'Warning', reason: string, message: string): void {
    const key = `${claim.metadata?.uid}/${reason}/${message}`;
    if (this.told.has(key)) return;
    this.told.add(key);
    this.events.event(claim, type, reason, message);
  }

  /** The cache first; a miss is checked live (an object just created may not be cached yet). */
  private async live<T extends PersistentVolume>(kind: typeof PersistentVolumeKind, key: { name: string }) {
    return ((await this.ctx.client.get(kind, key).catch(ignoreNotFound)) ??
      (await this.ctx.api.get(kind, key).catch(ignoreNotFound))) as T | undefined;
  }
}

/** The volume side: its phase follows its claim (Available, Bound, Released). */
export class VolumeBinder {
  constructor(private readonly ctx: ControllerContext) {}

  async reconcile(req: Request): Promise<ReconcileResult | void> {
    const volume = await this.ctx.client.get(PersistentVolumeKind, req).catch(ignoreNotFound);
    if (!volume || volume.metadata?.deletionTimestamp) return;
    const ref = volume.spec?.claimRef;
    let claim: PersistentVolumeClaim | undefined;
    if (ref?.name) {
      const key = { namespace: ref.namespace, name: ref.name };
      claim = await this.ctx.client.get(PersistentVolumeClaimKind, key).catch(ignoreNotFound);
      // A claim missing from the cache may just have been created: only the API server can say it is gone.
      if (!claim || claim.metadata?.uid !== ref.uid)
        claim = await this.ctx.api.get(PersistentVolumeClaimKind, key).catch(ignoreNotFound);
    }
    const phase = volumePhase(volume, claim);
    if (volume.status?.phase === phase) return;
    if (phase === 'Bound' && claim?.spec?.volumeName !== volume.metadata?.name) return; // the claim side finishes it
    try {
      await this.ctx.client.updateStatus({ ...volume, status: { ...volume.status, phase } });
    } catch (err) {
      if (!isConflict(err) && !isNotFound(err)) throw err;
    }
  }
}
