// What provider-local's shoot Extensions (`local-ext-shoot`, `local-ext-shoot-after-worker`) have in common, as
// Gardener's actuators do it with its managedresources helpers: their objects go into the shoot through a
// ManagedResource in the shoot namespace of the seed (no class: the shoot's gardener-resource-manager applies it into
// the shoot; its objects labelled `shoot.gardener.cloud/no-cleanup`) and a Secret `managedresource-<name>` carrying
// them. Deletion deletes the ManagedResource, waits until the resource manager has removed the objects from the shoot
// (the ManagedResource is gone), then deletes the Secret; migration keeps the objects in the shoot (`keepObjects`) and
// releases the ManagedResource; force deletion does not wait for the shoot. With `waitUntilHealthy` a reconcile
// succeeds only once the ManagedResource is applied and healthy (Gardener's WaitUntilHealthy), except for a shoot
// whose hibernation is enabled. `shootObjectsManagedResource` is the pure part.
import { stringify } from 'yaml';
import {
  ignoreNotFound,
  isNotFound,
  kind,
  Kinds,
  type KubernetesObject,
  type Reader,
  type Secret,
} from '@gardener-ts/controller-runtime';
import {
  RequeueAfterError,
  isHibernationEnabled,
  managedResourceProblem,
  type Actuator,
  type ActuatorContext,
  type ExtensionObject,
} from '@gardener-ts/extensions';
import { ShootNoCleanupLabel, type ManagedResourceObject } from '../controlplane/storage-classes.js';

const ManagedResourceKind = kind<ManagedResourceObject>('resources.gardener.cloud/v1alpha1', 'ManagedResource');
const FieldManager = 'gardener-extension-provider-local';

/** The name of the Secret carrying a ManagedResource's objects (Gardener's `secretNameWithPrefix`). */
export function managedResourceSecretName(name: string): string {
  return `managedresource-${name}`;
}

/** The Secret data key of an object, as Gardener's managed resource registry names it (`kind__namespace__name.yaml`). */
export function objectDataKey(obj: KubernetesObject): string {
  const part = (s: string | undefined) => (s ?? '').replaceAll('.', '_');
  return `${part(obj.kind?.toLowerCase())}__${part(obj.metadata?.namespace)}__${part(obj.metadata?.name)}.yaml`;
}

/** The Secret and the ManagedResource (target: the shoot) that deliver `objects` into the shoot of `namespace`. */
export function shootObjectsManagedResource(
  namespace: string,
  name: string,
  objects: readonly KubernetesObject[],
): { secret: Secret; managedResource: ManagedResourceObject } {
  const secretName = managedResourceSecretName(name);
  const data: Record<string, string> = {};
  for (const obj of objects) data[objectDataKey(obj)] = Buffer.from(stringify(obj)).toString('base64');
  return {
    secret: { apiVersion: 'v1', kind: 'Secret', type: 'Opaque', metadata: { name: secretName, namespace }, data },
    managedResource: {
      apiVersion: 'resources.gardener.cloud/v1alpha1',
      kind: 'ManagedResource',
      metadata: { name, namespace },
      spec: {
        secretRefs: [{ name: secretName }],
        injectLabels: { [ShootNoCleanupLabel]: 'true' },
        keepObjects: false,
      },
    },
  };
}

/** Options of {@link ShootObjectsActuator}. */
export interface ShootObjectsActuatorOptions {
  /** The ManagedResource's name (Gardener's: the Extension type). */
  name: string;
  /** The objects that go into the shoot. */
  objects: () => KubernetesObject[];
  /** A reconcile succeeds only once the ManagedResource is healthy (not while hibernation is enabled). */
  waitUntilHealthy?: boolean;
  /**
   * Reads straight from the API server (the manager's API client): whether the ManagedResource is gone right after
   * deleting it, which the cache may not know yet. The actuator context's client otherwise.
   */
  apiReader?: Reader;
  /** How long to wait before looking again at the ManagedResource (default 2 s). */
  pollMs?: number;
}

/** An Extension actuator whose whole job is a set of objects in the shoot (through one ManagedResource). */
export class ShootObjectsActuator implements Actuator {
  constructor(private readonly options: ShootObjectsActuatorOptions) {}

  async reconcile(ctx: ActuatorContext, ext: ExtensionObject): Promise<void> {
    const namespace = ext.metadata!.namespace!;
    const { secret, managedResource } = shootObjectsManagedResource(
      namespace,
      this.options.name,
      this.options.objects(),
    );
    // The Secret first: the ManagedResource never references a Secret that is not there.
    await ctx.client.patch(
      Kinds.Secret,
      { namespace, name: secret.metadata!.name! },
      { type: 'apply', patch: secret as unknown as Record<string, unknown>, fieldManager: FieldManager, force: true },
    );
    const applied = await ctx.client.patch(
      ManagedResourceKind,
      { namespace, name: this.options.name },
      {
        type: 'apply',
        patch: managedResource as unknown as Record<string, unknown>,
        fieldManager: FieldManager,
        force: true,
      },
    );
    if (!this.options.waitUntilHealthy || isHibernationEnabled(ctx.cluster)) return;
    // The written object: its generation and status as the API server has them now, not an older cached copy.
    const problem = managedResourceProblem(applied);
    if (problem) {
      throw new RequeueAfterError(
        `waiting for ManagedResource ${namespace}/${this.options.name} to become healthy: ${problem}`,
        this.pollMs,
      );
    }
  }

  async delete(ctx: ActuatorContext, ext: ExtensionObject): Promise<void> {
    const namespace = ext.metadata!.namespace!;
    const key = { namespace, name: this.options.name };
    await ctx.client.delete(ManagedResourceKind, key).catch(ignoreNotFound);
    // The shoot's resource manager deletes the objects from the shoot before it lets the ManagedResource go.
    const reader = this.options.apiReader ?? ctx.client;
    const remaining = await reader.get(ManagedResourceKind, key).catch((err: unknown) => {
      if (isNotFound(err)) return undefined;
      throw err;
    });
    if (remaining) {
      throw new RequeueAfterError(
        `waiting for ManagedResource ${namespace}/${this.options.name} to be deleted`,
        this.pollMs,
      );
    }
    await ctx.client
      .delete(Kinds.Secret, { namespace, name: managedResourceSecretName(this.options.name) })
      .catch(ignoreNotFound);
  }

  /** Force deletion does not wait for the shoot: the ManagedResource and its Secret go at once. */
  async forceDelete(ctx: ActuatorContext, ext: ExtensionObject): Promise<void> {
    const namespace = ext.metadata!.namespace!;
    await ctx.client.delete(ManagedResourceKind, { namespace, name: this.options.name }).catch(ignoreNotFound);
    await ctx.client
      .delete(Kinds.Secret, { namespace, name: managedResourceSecretName(this.options.name) })
      .catch(ignoreNotFound);
  }

  /** The objects stay in the shoot (`keepObjects`); the ManagedResource leaves this seed. */
  async migrate(ctx: ActuatorContext, ext: ExtensionObject): Promise<void> {
    const key = { namespace: ext.metadata!.namespace!, name: this.options.name };
    await ctx.client
      .patch(ManagedResourceKind, key, { type: 'merge', patch: { spec: { keepObjects: true } } })
      .catch(ignoreNotFound);
    await this.delete(ctx, ext);
  }

  async restore(ctx: ActuatorContext, ext: ExtensionObject): Promise<void> {
    await this.reconcile(ctx, ext);
  }

  private get pollMs(): number {
    return this.options.pollMs ?? 2_000;
  }
}
