// The Etcd reconciler (etcd-druid's etcd controller): Get → not found: done → deletion: remove the StatefulSet (its Pods first, foreground) and the Services, then the finalizer →
// spec reconcile only when asked (`gardener.cloud/operation=reconcile`, a new Etcd, or every spec change with
// `autoReconcile`, druid's enableEtcdSpecAutoReconcile; never while `druid.gardener.cloud/suspend-etcd-spec-reconcile`
// is set): finalizer, StatefulSet and Services applied (a StatefulSet with changed immutable fields recreated, its
// Pods orphaned and adopted), the annotation removed, `observedGeneration` and `lastOperation` written, `lastErrors` on
// failure (a backup store's Secret is read for the Local provider's `hostPath`, as druid does) → always: the status observed from the StatefulSet and its Pods, again every status sync period (druid's
// etcd status sync).
import { randomUUID } from 'node:crypto';
import {
  addFinalizer,
  CodedError,
  errorCodesOf,
  hasFinalizer,
  ignoreNotFound,
  isBeingDeleted,
  isInvalid,
  isNotFound,
  Kinds,
  messageOf,
  OPERATION_RECONCILE,
  operationOf,
  removeFinalizer,
  removeOperationAnnotation,
  wrapError,
  type ApiClient,
  type KubernetesObject,
  type ReconcileContext,
  type ReconcileResult,
  type Request,
  type Workload,
} from '@gardener-ts/controller-runtime';
import { EtcdKind, type EtcdResource, type EtcdStatus } from './kinds.js';
import {
  backupStore,
  clientServiceName,
  EtcdBackupSecretHostPathKey,
  etcdObjects,
  etcdImage,
  LocalProviderDefaultMountPath,
  peerServiceName,
  selectorLabels,
  storageProvider,
} from './objects.js';
import { lastError, lastOperation, observedStatus } from './status.js';

/** druid's finalizer on Etcds. */
export const EtcdFinalizer = 'druid.gardener.cloud/etcd-druid';
/** Annotations that suspend spec reconciles (druid's current and former name). */
export const SuspendReconcileAnnotations = [
  'druid.gardener.cloud/suspend-etcd-spec-reconcile',
  'druid.gardener.cloud/ignore-reconciliation',
] as const;
/** The field manager of the objects the controller applies. */
export const EtcdFieldManager = 'etcd-druid';
/** druid's error codes of the reconcile steps. */
export const EtcdErrorCodes = {
  invalidSpec: 'ERR_INVALID_ETCD_SPEC',
  syncClientService: 'ERR_SYNC_CLIENT_SERVICE',
  syncPeerService: 'ERR_SYNC_PEER_SERVICE',
  syncStatefulSet: 'ERR_SYNC_STATEFULSET',
  deleteStatefulSet: 'ERR_DELETE_STATEFULSET',
  deleteService: 'ERR_DELETE_SERVICE',
} as const;

// kube's validation message for a StatefulSet update that changes fields it forbids to change.
const ImmutableStatefulSetFields = /updates to statefulset spec for fields other than/i;

const DEFAULT_CLASS_ANNOTATIONS = [
  'storageclass.kubernetes.io/is-default-class',
  'storageclass.beta.kubernetes.io/is-default-class',
];

/**
 * Whether the spec is to be reconciled now: never while suspended; when the Etcd was never reconciled (no finalizer or
 * no `observedGeneration`), carries `gardener.cloud/operation=reconcile`, or — with `autoReconcile` — has a
 * generation the status has not observed.
 */
export function specReconcileRequested(etcd: EtcdResource, autoReconcile: boolean): boolean {
  const annotations = etcd.metadata?.annotations ?? {};
  if (SuspendReconcileAnnotations.some((a) => annotations[a] === 'true')) return false;
  if (!hasFinalizer(etcd, EtcdFinalizer) || etcd.status?.observedGeneration === undefined) return true;
  if (operationOf(etcd) === OPERATION_RECONCILE) return true;
  return autoReconcile && etcd.status.observedGeneration !== etcd.metadata?.generation;
}

/** Dependencies of {@link EtcdReconciler}. */
export interface EtcdReconcilerDeps {
  /** The seed cluster (live reads: the reconciler writes what it read). */
  client: Pick<ApiClient, 'get' | 'list' | 'patch' | 'apply' | 'delete'>;
  /** druid's `enableEtcdSpecAutoReconcile`: every spec change is reconciled without the operation annotation. */
  autoReconcile?: boolean;
  /** The etcd image when the Etcd names none that runs plain etcd. */
  defaultImage?: string;
  /** The etcd-backup-restore image of the sidecar (druid's image vector); druid's release by default. */
  backupRestoreImage?: string;
  /** How often the status is observed again (druid's etcd status sync period, 15 s). */
  statusSyncPeriodMs?: number;
  now?: () => Date;
  runID?: () => string;
}

/** Runs the etcds of the seed: Etcd → StatefulSet, Services and status. */
export class EtcdReconciler {
  constructor(private readonly deps: EtcdReconcilerDeps) {}

  private now(): string {
    return (this.deps.now?.() ?? new Date()).toISOString();
  }

  async reconcile(req: Request, ctx?: Pick<ReconcileContext, 'log'>): Promise<ReconcileResult | void> {
    const etcd = await this.deps.client.get(EtcdKind, req).catch(ignoreNotFound);
    if (!etcd) return;
    if (isBeingDeleted(etcd)) return this.delete(etcd);
    if (specReconcileRequested(etcd, this.deps.autoReconcile ?? false)) await this.reconcileSpec(etcd, ctx);
    return this.syncStatus(req);
  }

  private async patchStatus(etcd: EtcdResource, status: Record<string, unknown>): Promise<void> {
    await this.deps.client.patch(
      EtcdKind,
      { namespace: etcd.metadata!.namespace, name: etcd.metadata!.name! },
      { type: 'merge', patch: { status } },
      { subresource: 'status' },
    );
  }

  private async apply(obj: KubernetesObject): Promise<void> {
    await this.deps.client.apply(obj, { fieldManager: EtcdFieldManager, force: true });
  }

  // A StatefulSet whose immutable fields (selector, serviceName, claim templates, ...) changed is deleted leaving its
  // Pods and claims (orphan) and created anew, as druid does; the new one adopts the Pods. A create that still finds
  // the old one being deleted fails and is retried.
  private async applyStatefulSet(sts: KubernetesObject, ctx?: Pick<ReconcileContext, 'log'>): Promise<void> {
    try {
      await this.apply(sts);
    } catch (err) {
      if (!isInvalid(err) || !ImmutableStatefulSetFields.test(messageOf(err))) throw err;
      const key = { namespace: sts.metadata!.namespace, name: sts.metadata!.name! };
      ctx?.log.info({ statefulSet: key }, 'Immutable fields of the StatefulSet changed: recreating it, its Pods stay');
      await this.deps.client.delete(Kinds.StatefulSet, key, { propagationPolicy: 'Orphan' }).catch(ignoreNotFound);
      await this.apply(sts);
    }
  }

  // Whether members get PersistentVolumeClaims: what an existing StatefulSet has (its claim templates are immutable),
  // else when the Etcd names a StorageClass or the cluster has a default one. Without any, a claim would never bind.
  private async persistentVolumes(etcd: EtcdResource, sts: Workload | undefined): Promise<boolean> {
    if (sts) return ((sts.spec?.volumeClaimTemplates as unknown[] | undefined)?.length ?? 0) > 0;
    if (etcd.spec.storageClass) return true;
    const classes = await this.deps.client.list(Kinds.StorageClass).catch((err: unknown) => {
      if (isNotFound(err)) return { items: [] };
      throw wrapError(err, 'listing StorageClasses');
    });
    return classes.items.some((c) => DEFAULT_CLASS_ANNOTATIONS.some((a) => c.metadata?.annotations?.[a] === 'true'));
  }

  // The Local provider's host directory: `hostPath` of the store Secret, druid's default when the Secret has none or
  // the store names no Secret; a missing Secret fails the reconcile (druid's).
  private async backupHostPath(etcd: EtcdResource): Promise<string | undefined> {
    if (storageProvider(etcd) !== 'Local') return undefined;
    const ref = backupStore(etcd)?.secretRef;
    if (!ref?.name) return LocalProviderDefaultMountPath;
    const secret = await this.deps.client
      .get(Kinds.Secret, { namespace: ref.namespace ?? etcd.metadata!.namespace, name: ref.name })
      .catch((err: unknown) => Promise.reject(wrapError(err, `reading the backup store Secret ${ref.name}`)));
    const value = (secret as { data?: Record<string, string> }).data?.[EtcdBackupSecretHostPathKey];
    return value ? Buffer.from(value, 'base64').toString('utf8') : LocalProviderDefaultMountPath;
  }

  private async reconcileSpec(etcd: EtcdResource, ctx?: Pick<ReconcileContext, 'log'>): Promise<void> {
    const key = { namespace: etcd.metadata!.namespace, name: etcd.metadata!.name! };
    const what = `Etcd ${key.namespace}/${key.name}`;
    const runID = this.deps.runID?.() ?? randomUUID();
    const type = etcd.status?.lastOperation ? 'Reconcile' : 'Create';
    let current = await addFinalizer(this.deps.client, etcd, EtcdFinalizer);
    await this.patchStatus(current, {
      lastOperation: lastOperation(type, 'Processing', `Reconciliation of ${what} is in progress`, runID, this.now()),
    });
    const step = async (code: string, fn: () => Promise<void>) => {
      try {
        await fn();
      } catch (err) {
        throw new CodedError(messageOf(err), [code], { cause: err });
      }
    };
    try {
      const sts = await this.deps.client.get(Kinds.StatefulSet, key).catch(ignoreNotFound);
      const persistent = await this.persistentVolumes(current, sts);
      if (!persistent)
        ctx?.log.info({ etcd: what }, 'No StorageClass for the data volumes: etcd data lives in an emptyDir per Pod');
      let objects: ReturnType<typeof etcdObjects> | undefined;
      let backupHostPath: string | undefined;
      await step(EtcdErrorCodes.invalidSpec, async () => {
        storageProvider(current);
      });
      await step(EtcdErrorCodes.syncStatefulSet, async () => {
        backupHostPath = await this.backupHostPath(current);
      });
      await step(EtcdErrorCodes.invalidSpec, async () => {
        objects = etcdObjects(current, etcdImage(current, this.deps.defaultImage), {
          persistentVolumes: persistent,
          ...(backupHostPath !== undefined ? { backupHostPath } : {}),
          ...(this.deps.backupRestoreImage ? { backupRestoreImage: this.deps.backupRestoreImage } : {}),
        });
      });
      await step(EtcdErrorCodes.syncClientService, () => this.apply(objects!.clientService));
      await step(EtcdErrorCodes.syncPeerService, () => this.apply(objects!.peerService));
      await step(EtcdErrorCodes.syncStatefulSet, () => this.applyStatefulSet(objects!.statefulSet, ctx));
    } catch (err) {
      const now = this.now();
      const code = errorCodesOf(err)[0] ?? EtcdErrorCodes.syncStatefulSet;
      await this.patchStatus(current, {
        lastErrors: [lastError(code, `${what}: ${messageOf(err)}`, now)],
        lastOperation: lastOperation(type, 'Error', `Reconciliation of ${what} failed: ${messageOf(err)}`, runID, now),
      }).catch(() => undefined);
      throw wrapError(err, `reconciling ${what}`);
    }
    current = await removeOperationAnnotation(this.deps.client, current);
    await this.patchStatus(current, {
      observedGeneration: current.metadata?.generation,
      lastErrors: null,
      lastOperation: lastOperation(type, 'Succeeded', `Reconciliation of ${what} succeeded`, runID, this.now()),
    });
  }

  private async syncStatus(req: Request): Promise<ReconcileResult> {
    const { client } = this.deps;
    const requeue = { requeueAfter: this.deps.statusSyncPeriodMs ?? 15_000 };
    const etcd = await client.get(EtcdKind, req).catch(ignoreNotFound);
    if (!etcd) return {};
    const found = await client.get(Kinds.StatefulSet, req).catch(ignoreNotFound);
    // Only the StatefulSet this Etcd controls is its own.
    const sts = found?.metadata?.ownerReferences?.some((o) => o.uid === etcd.metadata?.uid) ? found : undefined;
    const pods = sts
      ? (await client.list(Kinds.Pod, { namespace: req.namespace, labelSelector: selectorLabels(etcd) })).items
      : [];
    const status: EtcdStatus = observedStatus(etcd, sts, pods, this.now());
    await this.patchStatus(etcd, status as Record<string, unknown>);
    return requeue;
  }

  private async delete(etcd: EtcdResource): Promise<ReconcileResult | void> {
    if (!hasFinalizer(etcd, EtcdFinalizer)) return;
    const { client } = this.deps;
    const namespace = etcd.metadata!.namespace;
    const what = `Etcd ${namespace}/${etcd.metadata!.name}`;
    const runID = this.deps.runID?.() ?? randomUUID();
    const now = this.now();
    if (etcd.status?.lastOperation?.type !== 'Delete' || etcd.status.lastOperation.state !== 'Processing') {
      await this.patchStatus(etcd, {
        lastOperation: lastOperation('Delete', 'Processing', `Deletion of ${what} is in progress`, runID, now),
      });
    }
    try {
      // Foreground: the StatefulSet stays until its Pods are gone, so the finalizer is released after the members.
      await client
        .delete(Kinds.StatefulSet, { namespace, name: etcd.metadata!.name! }, { propagationPolicy: 'Foreground' })
        .catch(ignoreNotFound)
        .catch((err: unknown) => Promise.reject(new CodedError(messageOf(err), [EtcdErrorCodes.deleteStatefulSet])));
      for (const name of [clientServiceName(etcd), peerServiceName(etcd)]) {
        await client
          .delete(Kinds.Service, { namespace, name })
          .catch(ignoreNotFound)
          .catch((err: unknown) => Promise.reject(new CodedError(messageOf(err), [EtcdErrorCodes.deleteService])));
      }
    } catch (err) {
      await this.patchStatus(etcd, {
        lastErrors: [
          lastError(errorCodesOf(err)[0] ?? EtcdErrorCodes.deleteStatefulSet, `${what}: ${messageOf(err)}`, now),
        ],
        lastOperation: lastOperation('Delete', 'Error', `Deletion of ${what} failed: ${messageOf(err)}`, runID, now),
      }).catch(() => undefined);
      throw wrapError(err, `deleting ${what}`);
    }
    if (await client.get(Kinds.StatefulSet, { namespace, name: etcd.metadata!.name! }).catch(ignoreNotFound))
      return { requeueAfter: 1_000 };
    await removeFinalizer(client, etcd, EtcdFinalizer);
  }
}
