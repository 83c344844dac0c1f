// provider-local's ControlPlane actuator (type `local`, purpose `normal`), as Gardener's provider-local over its generic
// control plane actuator: nothing in the seed (no cloud-controller-manager, no CSI controller), into the shoot the
// `default` StorageClass through a ManagedResource (storage-classes.ts). Deletion deletes the ManagedResource and
// waits until the shoot's gardener-resource-manager has removed its objects (it is gone), then its Secret; migration
// keeps the objects in the shoot (`keepObjects`) and releases the ManagedResource. No `providerStatus`, as Gardener's.
// Purpose `exposure` is not served (add.ts registers purpose `normal` only).
import {
  ignoreNotFound,
  isNotFound,
  kind,
  Kinds,
  type EventRecorder,
  type Reader,
} from '@gardener-ts/controller-runtime';
import { RequeueAfterError, type Actuator, type ActuatorContext, type ExtensionObject } from '@gardener-ts/extensions';
import {
  ProvisionerNotDeployed,
  StorageClassesManagedResourceName,
  storageClassesManagedResource,
  type ManagedResourceObject,
} from './storage-classes.js';

const ManagedResourceKind = kind<ManagedResourceObject>('resources.gardener.cloud/v1alpha1', 'ManagedResource');
const FieldManager = 'gardener-extension-provider-local';

/** Options of {@link ControlPlaneActuator}. */
export interface ControlPlaneActuatorOptions {
  /** Where the ControlPlane tells that the local-path-provisioner is left out (a Normal event on it). */
  events?: Pick<EventRecorder, 'event'>;
  /**
   * Reads straight from the API server (the manager's API client): whether the ManagedResource is gone right after
   * deleting it, which the cache may not know yet. The actuator context's client otherwise.
   */
  apiReader?: Reader;
  /** How long to wait before looking again whether the ManagedResource is gone (default 2 s). */
  deletionPollMs?: number;
}

/** provider-local's ControlPlane actuator. */
export class ControlPlaneActuator implements Actuator {
  constructor(private readonly options: ControlPlaneActuatorOptions = {}) {}

  async reconcile(ctx: ActuatorContext, cp: ExtensionObject): Promise<void> {
    const namespace = cp.metadata!.namespace!;
    const { secret, managedResource } = storageClassesManagedResource(namespace);
    // The Secret first: the ManagedResource never references a Secret that is not there.
    for (const [target, obj] of [
      [Kinds.Secret, secret],
      [ManagedResourceKind, managedResource],
    ] as const) {
      await ctx.client.patch(
        target,
        { namespace, name: obj.metadata!.name! },
        { type: 'apply', patch: obj as unknown as Record<string, unknown>, fieldManager: FieldManager, force: true },
      );
    }
    this.options.events?.event(cp, 'Normal', 'LocalPathProvisionerNotDeployed', ProvisionerNotDeployed);
  }

  async delete(ctx: ActuatorContext, cp: ExtensionObject): Promise<void> {
    const namespace = cp.metadata!.namespace!;
    const key = { namespace, name: StorageClassesManagedResourceName };
    await ctx.client.delete(ManagedResourceKind, key).catch(ignoreNotFound);
    // The shoot's resource manager deletes the objects from the shoot before it lets the ManagedResource go.
    const reader = this.options.apiReader ?? ctx.client;
    const remaining = await reader.get(ManagedResourceKind, key).catch((err: unknown) => {
      if (isNotFound(err)) return undefined;
      throw err;
    });
    if (remaining) {
      throw new RequeueAfterError(
        `waiting for ManagedResource ${namespace}/${StorageClassesManagedResourceName} to be deleted`,
        this.options.deletionPollMs ?? 2_000,
      );
    }
    await ctx.client.delete(Kinds.Secret, key).catch(ignoreNotFound);
  }

  /** Force deletion does not wait for the shoot: the ManagedResource and its Secret go at once. */
  async forceDelete(ctx: ActuatorContext, cp: ExtensionObject): Promise<void> {
    const key = { namespace: cp.metadata!.namespace!, name: StorageClassesManagedResourceName };
    await ctx.client.delete(ManagedResourceKind, key).catch(ignoreNotFound);
    await ctx.client.delete(Kinds.Secret, key).catch(ignoreNotFound);
  }

  /** The StorageClass stays in the shoot (`keepObjects`); the ManagedResource leaves this seed. */
  async migrate(ctx: ActuatorContext, cp: ExtensionObject): Promise<void> {
    const key = { namespace: cp.metadata!.namespace!, name: StorageClassesManagedResourceName };
    await ctx.client
      .patch(ManagedResourceKind, key, { type: 'merge', patch: { spec: { keepObjects: true } } })
      .catch(ignoreNotFound);
    await this.delete(ctx, cp);
  }

  async restore(ctx: ActuatorContext, cp: ExtensionObject): Promise<void> {
    await this.reconcile(ctx, cp);
  }
}
