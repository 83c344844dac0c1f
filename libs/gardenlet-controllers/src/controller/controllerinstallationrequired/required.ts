// The ControllerInstallation "required" condition (Gardener's controllerinstallation required reconciler): True while
// the seed holds at least one extension resource (extensions.gardener.cloud) of a kind and type the installation's
// ControllerRegistration serves, False once there is none. Pure.
import {
  getOrInitCondition,
  mergeConditions,
  updatedCondition,
  type Condition,
  type WallClock,
} from '@gardener-ts/controller-runtime';

/** The extension kinds the reconciler watches (those with `spec.type`). */
export const EXTENSION_KINDS: readonly string[] = [
  'BackupBucket',
  'BackupEntry',
  'Bastion',
  'ContainerRuntime',
  'ControlPlane',
  'DNSRecord',
  'Extension',
  'Infrastructure',
  'Network',
  'OperatingSystemConfig',
  'SelfHostedShootExposure',
  'Worker',
];

/** An extension resource as far as the check goes. */
export interface ExtensionObject {
  kind?: string;
  metadata?: { name?: string; namespace?: string };
  spec?: { type?: string };
}

/** `kind/type` pairs of the registration that have objects in the seed, sorted. */
export function requiredBy(
  resources: readonly { kind: string; type: string }[],
  objects: readonly ExtensionObject[],
): string[] {
  const present = new Set(objects.map((o) => `${o.kind}/${o.spec?.type}`));
  return [...new Set(resources.map((r) => `${r.kind}/${r.type}`).filter((k) => present.has(k)))].sort();
}

/** The installation's conditions with `Required` set from what is required. */
export function requiredConditions(
  existing: readonly Condition[] | undefined,
  required: readonly string[],
  clock: WallClock,
): Condition[] {
  const current = getOrInitCondition(existing, 'Required', clock);
  const next =
    required.length > 0
      ? updatedCondition(
          current,
          'True',
          'ExtensionObjectsExist',
          `Extension objects still exist in the seed: ${required.join(', ')}`,
          { clock },
        )
      : updatedCondition(
          current,
          'False',
          'NoExtensionObjects',
          'All extension objects have been deleted from the seed.',
          { clock },
        );
  return mergeConditions(existing, next);
}
