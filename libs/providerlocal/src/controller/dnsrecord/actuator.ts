// provider-local's DNSRecord actuator (type `local`): the record goes where the local landscape's DNS answers it, a
// ConfigMap the local service proxy reads into its state file (see records.ts); deleting the DNSRecord deletes it.
// Gardener's provider-local also rewrites its CoreDNS and may write /etc/hosts of the host: the landscape has neither,
// its programs resolve through the pod network preload. `status.zone` stays unset: the local DNS has no zones.
import { ignoreNotFound, Kinds } from '@gardener-ts/controller-runtime';
import type { Actuator, ActuatorContext, ExtensionObject } from '@gardener-ts/extensions';
import { dnsRecordConfigMap, dnsRecordConfigMapName } from './records.js';

const FieldManager = 'gardener-extension-provider-local';

/** Writes and removes the ConfigMap of a DNSRecord. */
export class DNSRecordActuator implements Actuator {
  async reconcile(ctx: ActuatorContext, record: ExtensionObject): Promise<void> {
    const configMap = dnsRecordConfigMap(record);
    await ctx.client.patch(
      Kinds.ConfigMap,
      { namespace: configMap.metadata!.namespace!, name: configMap.metadata!.name! },
      {
        type: 'apply',
        patch: configMap as unknown as Record<string, unknown>,
        fieldManager: FieldManager,
        force: true,
      },
    );
  }

  async delete(ctx: ActuatorContext, record: ExtensionObject): Promise<void> {
    await ctx.client
      .delete(Kinds.ConfigMap, {
        namespace: record.metadata!.namespace!,
        name: dnsRecordConfigMapName(record.metadata!.name!),
      })
      .catch(ignoreNotFound);
  }

  async forceDelete(ctx: ActuatorContext, record: ExtensionObject): Promise<void> {
    await this.delete(ctx, record);
  }

  /** As Gardener's provider-local: the record leaves with the shoot; the new seed's provider-local writes its own. */
  async migrate(ctx: ActuatorContext, record: ExtensionObject): Promise<void> {
    await this.delete(ctx, record);
  }

  async restore(ctx: ActuatorContext, record: ExtensionObject): Promise<void> {
    await this.reconcile(ctx, record);
  }
}
