// provider-local's ControlPlane actuator (type `local`, purpose `normal`), as Gardener's provider-local over its generic
// control plane actuator: nothing in the seed (no cloud-controller-manager, no CSI controller), into the shoot the
// `default` StorageClass (storage-classes.ts) and the shoot's webhook configuration (the node webhook, reaching
// provider-local in the seed; the SDK's shoot webhooks helper), each through a ManagedResource. Deletion deletes the
// ManagedResources and waits until the shoot's gardener-resource-manager has removed their objects (they are gone),
// then their Secrets; migration keeps the objects in the shoot (`keepObjects`) and releases the ManagedResources. No
// `providerStatus`, as Gardener's. Purpose `exposure` is not served (add.ts registers purpose `normal` only).
import {
  ignoreNotFound,
  isNotFound,
  kind,
  Kinds,
  type EventRecorder,
  type KubernetesObject,
  type Reader,
} from '@gardener-ts/controller-runtime';
import {
  RequeueAfterError,
  shootWebhooksManagedResource,
  shootWebhooksManagedResourceName,
  type Actuator,
  type ActuatorContext,
  type ExtensionObject,
} from '@gardener-ts/extensions';
import {
  ProvisionerNotDeployed,
  StorageClassesManagedResourceName,
  storageClassesManagedResource,
  type ManagedResourceObject,
} from './storage-classes.js';

const ManagedResourceKind = kind<ManagedResourceObject>('resources.gardener.cloud/v1alpha1', 'ManagedResource');
const FieldManager = 'gardener-extension-provider-local';

/** The ManagedResource carrying the shoot's webhook configuration (Gardener's `extension-controlplane-shoot-webhooks`). */
export const ShootWebhooksManagedResourceName = shootWebhooksManagedResourceName('controlplane');

/** The ManagedResources the actuator keeps in a shoot namespace, with the Secret each references. */
const ManagedResources = [
  { name: StorageClassesManagedResourceName, secret: StorageClassesManagedResourceName },
  { name: ShootWebhooksManagedResourceName, secret: `managedresource-${ShootWebhooksManagedResourceName}` },
] as const;

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
  /**
   * The shoot's webhook configuration (the webhook server's, with its current CA bundle); undefined (or no function)
   * when provider-local serves no webhooks: then none is deployed.
   */
  shootWebhookConfiguration?: () => KubernetesObject | undefined;
}

/** provider-local's ControlPlane actuator. */
export class ControlPlaneActuator implements Actuator {
  constructor(private readonly options: ControlPlaneActuatorOptions = {}) {}

  async reconcile(ctx: ActuatorContext, cp: ExtensionObject): Promise<void> {
    const namespace = cp.metadata!.namespace!;
    const { secret, managedResource } = storageClassesManagedResource(namespace);
    const objects: [typeof Kinds.Secret | typeof ManagedResourceKind, KubernetesObject][] = [
      [Kinds.Secret, secret],
      [ManagedResourceKind, managedResource],
    ];
    const webhooks = this.options.shootWebhookConfiguration?.();
    if (webhooks) {
      const [webhooksSecret, webhooksManagedResource] = shootWebhooksManagedResource(
        'controlplane',
        namespace,
        webhooks,
      );
      objects.push([Kinds.Secret, webhooksSecret], [ManagedResourceKind, webhooksManagedResource]);
    }
    // Each Secret first: a ManagedResource never references a Secret that is not there.
    for (const [target, obj] of objects) {
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
    for (const { name } of ManagedResources)
      await ctx.client.delete(ManagedResourceKind, { namespace, name }).catch(ignoreNotFound);
    // The shoot's resource manager deletes the objects from the shoot before it lets a ManagedResource go.
    const reader = this.options.apiReader ?? ctx.client;
    for (const { name } of ManagedResources) {
      const remaining = await reader.get(ManagedResourceKind, { namespace, name }).catch((err: unknown) => {
        if (isNotFound(err)) return undefined;
        throw err;
      });
      if (remaining) {
        throw new RequeueAfterError(
          `waiting for ManagedResource ${namespace}/${name} to be deleted`,
          this.options.deletionPollMs ?? 2_000,
        );
      }
    }
    for (const { secret } of ManagedResources)
      await ctx.client.delete(Kinds.Secret, { namespace, name: secret }).catch(ignoreNotFound);
  }

  /** Force deletion does not wait for the shoot: the ManagedResources and their Secrets go at once. */
  async forceDelete(ctx: ActuatorContext, cp: ExtensionObject): Promise<void> {
    const namespace = cp.metadata!.namespace!;
    for (const { name, secret } of ManagedResources) {
      await ctx.client.delete(ManagedResourceKind, { namespace, name }).catch(ignoreNotFound);
      await ctx.client.delete(Kinds.Secret, { namespace, name: secret }).catch(ignoreNotFound);
    }
  }

  /** The StorageClass and the webhook configuration stay in the shoot (`keepObjects`); the ManagedResources leave. */
  async migrate(ctx: ActuatorContext, cp: ExtensionObject): Promise<void> {
    const namespace = cp.metadata!.namespace!;
    for (const { name } of ManagedResources) {
      await ctx.client
        .patch(ManagedResourceKind, { namespace, name }, { type: 'merge', patch: { spec: { keepObjects: true } } })
        .catch(ignoreNotFound);
    }
    await this.delete(ctx, cp);
  }

  async restore(ctx: ActuatorContext, cp: ExtensionObject): Promise<void> {
    await this.reconcile(ctx, cp);
  }
}
