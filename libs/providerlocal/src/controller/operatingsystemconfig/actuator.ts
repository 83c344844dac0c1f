// provider-local's OperatingSystemConfig actuator (type `local`, Gardener's local OS): for purpose `provision` it renders
// the user data of new machines (cloud-config, see cloud-config.ts) into Secret `osc-result-<name>` (key
// `cloud_config`, owned by the OSC) and reports it as `status.cloudConfig.secretRef`; for purpose `reconcile` the
// OSC is applied by gardener-node-agent as it is, and the actuator adds no extension units or files.
import { Kinds, ignoreNotFound, type Secret } from '@gardener-ts/controller-runtime';
import {
  type Actuator,
  type ActuatorContext,
  type ActuatorResult,
  type ExtensionObject,
} from '@gardener-ts/extensions';
import type { extensionsv1alpha1 } from '@gardener-ts/api';
import { renderCloudConfig, type UserDataFile } from './cloud-config.js';

type OSCSpec = extensionsv1alpha1.OperatingSystemConfigSpec;
type OSCFile = NonNullable<OSCSpec['files']>[number];

/** The OSC type provider-local serves. */
export const LocalOSType = 'local';
/** The key of the user data in the result Secret (Gardener's). */
export const CloudConfigDataKey = 'cloud_config';
/** The field manager of the actuator's writes. */
export const FieldManager = 'gardener-extension-provider-local';

/** The name of the Secret holding an OSC's rendered user data. */
export function cloudConfigSecretName(oscName: string): string {
  return `osc-result-${oscName}`;
}

/** Renders and stores the user data of provision OSCs. */
export class OperatingSystemConfigActuator implements Actuator {
  async reconcile(ctx: ActuatorContext, osc: ExtensionObject): Promise<ActuatorResult> {
    const spec = osc.spec as unknown as OSCSpec;
    if (spec.purpose !== 'provision') return { status: { extensionUnits: [], extensionFiles: [] } };

    const namespace = osc.metadata!.namespace!;
    const files: UserDataFile[] = [];
    for (const file of spec.files ?? []) files.push(await this.resolve(ctx, namespace, file));
    const userData = renderCloudConfig(spec.units ?? [], files);
    const name = cloudConfigSecretName(osc.metadata!.name!);
    const secret: Secret = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name,
        namespace,
        ownerReferences: [
          {
            apiVersion: 'extensions.gardener.cloud/v1alpha1',
            kind: 'OperatingSystemConfig',
            name: osc.metadata!.name!,
            uid: osc.metadata!.uid!,
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      },
      type: 'Opaque',
      data: { [CloudConfigDataKey]: Buffer.from(userData).toString('base64') },
    };
    await ctx.client.patch(
      Kinds.Secret,
      { namespace, name },
      { type: 'apply', patch: secret as unknown as Record<string, unknown>, fieldManager: FieldManager, force: true },
    );
    return { status: { cloudConfig: { secretRef: { name, namespace } } } };
  }

  async delete(ctx: ActuatorContext, osc: ExtensionObject): Promise<void> {
    const namespace = osc.metadata!.namespace!;
    await ctx.client
      .delete(Kinds.Secret, { namespace, name: cloudConfigSecretName(osc.metadata!.name!) })
      .catch(ignoreNotFound);
  }

  async forceDelete(ctx: ActuatorContext, osc: ExtensionObject): Promise<void> {
    await this.delete(ctx, osc);
  }

  /** The user data lives in the seed: a migration leaves nothing behind on the old seed; restore renders it again. */
  async migrate(ctx: ActuatorContext, osc: ExtensionObject): Promise<void> {
    await this.delete(ctx, osc);
  }

  async restore(ctx: ActuatorContext, osc: ExtensionObject): Promise<ActuatorResult> {
    return this.reconcile(ctx, osc);
  }

  private async resolve(ctx: ActuatorContext, namespace: string, file: OSCFile): Promise<UserDataFile> {
    const { inline, secretRef, imageRef } = file.content;
    const base = { path: file.path, permissions: file.permissions, transmitUnencoded: file.content.transmitUnencoded };
    if (inline) {
      const encoded = inline.encoding === 'b64' || inline.encoding === 'base64';
      return { ...base, content: Buffer.from(inline.data ?? '', encoded ? 'base64' : 'utf8') };
    }
    if (secretRef) {
      const secret = await ctx.client.get(Kinds.Secret, { namespace, name: secretRef.name }).catch(ignoreNotFound);
      const value = secret?.data?.[secretRef.dataKey];
      if (value === undefined) {
        throw new Error(
          `file ${file.path}: key ${secretRef.dataKey} of Secret ${namespace}/${secretRef.name} (content.secretRef) not found`,
        );
      }
      return { ...base, content: Buffer.from(value, 'base64') };
    }
    throw new Error(
      `file ${file.path}: content.imageRef${imageRef ? ` (${imageRef.image})` : ''} is not supported by the local OS`,
    );
  }
}
