// provider-local's Extension of type `local-ext-seed` (Gardener's): a ServiceAccount `local-ext-seed` in the shoot's
// namespace of the seed, reconciled before the kube-apiserver; it exists to test extension lifecycles.
import { ignoreNotFound, Kinds } from '@gardener-ts/controller-runtime';
import type { Actuator, ActuatorContext, ExtensionObject } from '@gardener-ts/extensions';

/** The Extension type. */
export const LocalExtSeedType = 'local-ext-seed';

/** Writes and removes the ServiceAccount. */
export class LocalExtSeedActuator implements Actuator {
  async reconcile(ctx: ActuatorContext, ext: ExtensionObject): Promise<void> {
    const namespace = ext.metadata!.namespace!;
    await ctx.client.patch(
      Kinds.ServiceAccount,
      { namespace, name: LocalExtSeedType },
      {
        type: 'apply',
        patch: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: LocalExtSeedType, namespace } },
        fieldManager: 'gardener-extension-provider-local',
        force: true,
      },
    );
  }

  async delete(ctx: ActuatorContext, ext: ExtensionObject): Promise<void> {
    await ctx.client
      .delete(Kinds.ServiceAccount, { namespace: ext.metadata!.namespace!, name: LocalExtSeedType })
      .catch(ignoreNotFound);
  }

  async forceDelete(ctx: ActuatorContext, ext: ExtensionObject): Promise<void> {
    await this.delete(ctx, ext);
  }

  async migrate(ctx: ActuatorContext, ext: ExtensionObject): Promise<void> {
    await this.delete(ctx, ext);
  }

  async restore(ctx: ActuatorContext, ext: ExtensionObject): Promise<void> {
    await this.reconcile(ctx, ext);
  }
}
