// The health conditions extensions contribute to a shoot (Gardener's care `getAllExtensionConditions`): the
// `ControlPlaneHealthy`, `EveryNodeReady`, `SystemComponentsHealthy` and `ObservabilityComponentsHealthy` conditions of
// the shoot's extension resources in its control plane namespace, each with the last heartbeat of the extension that
// serves it (Lease `gardener-extension-heartbeat` in `extension-<ControllerInstallation>` of the seed), so stale
// reports can be told apart. `groupExtensionConditions` and `registrationFor` are pure; `readExtensionConditions` reads.
import { ShootConditionType } from '@gardener-ts/api';
import {
  isNotFound,
  kind,
  Kinds,
  NoKindMatchError,
  type Client,
  type KubernetesObject,
} from '@gardener-ts/controller-runtime';
import type { corev1beta1 } from '@gardener-ts/api';
import { extensionNamespace } from '../controllerinstallation/install.js';
import { ControllerInstallationKind, ControllerRegistrationKind } from '../controllerinstallation/kinds.js';
import type { ExtensionCondition, ObjectCondition } from './health.js';

/** An extension resource as far as its health conditions go. */
export interface ExtensionObject extends KubernetesObject {
  spec?: { type?: string };
  status?: { conditions?: ObjectCondition[] };
}

/** The extension kinds whose health conditions count; all but Extension only for shoots with workers. */
export const ExtensionKinds = [
  'Extension',
  'ContainerRuntime',
  'ControlPlane',
  'Infrastructure',
  'Network',
  'OperatingSystemConfig',
  'Worker',
] as const;

/** The heartbeat Lease of an extension (libs/extensions' heartbeat controller). */
export const HeartbeatLeaseName = 'gardener-extension-heartbeat';

/** The extension conditions by the shoot condition they count for. */
export interface GroupedExtensionConditions {
  controlPlaneHealthy: ExtensionCondition[];
  everyNodeReady: ExtensionCondition[];
  systemComponentsHealthy: ExtensionCondition[];
  observabilityComponentsHealthy: ExtensionCondition[];
}

/** Groups the health conditions of extension resources by shoot condition type (pure). */
export function groupExtensionConditions(
  objects: readonly ExtensionObject[],
  heartbeatOf: (obj: ExtensionObject) => string | undefined,
): GroupedExtensionConditions {
  const out: GroupedExtensionConditions = {
    controlPlaneHealthy: [],
    everyNodeReady: [],
    systemComponentsHealthy: [],
    observabilityComponentsHealthy: [],
  };
  const slot: Record<string, ExtensionCondition[]> = {
    [ShootConditionType.ControlPlaneHealthy]: out.controlPlaneHealthy,
    [ShootConditionType.EveryNodeReady]: out.everyNodeReady,
    [ShootConditionType.SystemComponentsHealthy]: out.systemComponentsHealthy,
    [ShootConditionType.ObservabilityComponentsHealthy]: out.observabilityComponentsHealthy,
  };
  for (const obj of objects) {
    const lastHeartbeatTime = heartbeatOf(obj);
    for (const condition of obj.status?.conditions ?? []) {
      slot[condition.type]?.push({
        condition,
        extensionType: obj.kind ?? '',
        extensionName: obj.metadata?.name ?? '',
        extensionNamespace: obj.metadata?.namespace ?? '',
        ...(lastHeartbeatTime ? { lastHeartbeatTime } : {}),
      });
    }
  }
  return out;
}

/** The ControllerRegistration serving `kind` of `type` (pure). */
export function registrationFor(
  registrations: readonly corev1beta1.ControllerRegistration[],
  kindName: string,
  type: string,
): corev1beta1.ControllerRegistration | undefined {
  return registrations.find((r) => (r.spec.resources ?? []).some((res) => res.kind === kindName && res.type === type));
}

/**
 * Reads the extension resources of a control plane namespace and their extensions' heartbeats. A kind whose CRD the
 * seed does not have counts as none; an extension resource no ControllerRegistration of this seed serves is an error,
 * as in Gardener.
 */
export async function readExtensionConditions(
  garden: Pick<Client, 'list'>,
  seed: Pick<Client, 'get' | 'list'>,
  options: { seedName: string; namespace: string; workerless: boolean },
): Promise<GroupedExtensionConditions> {
  const objects: ExtensionObject[] = [];
  const kinds = options.workerless ? ['Extension'] : ExtensionKinds;
  for (const name of kinds) {
    const k = kind<ExtensionObject>('extensions.gardener.cloud/v1alpha1', name);
    try {
      const items = (await seed.list(k, { namespace: options.namespace })).items;
      objects.push(...items.map((o) => ({ ...o, kind: name })));
    } catch (err) {
      if (err instanceof NoKindMatchError || isNotFound(err)) continue;
      throw err;
    }
  }
  const withConditions = objects.filter((o) => (o.status?.conditions ?? []).length > 0);
  if (withConditions.length === 0) return groupExtensionConditions([], () => undefined);
  const installations = (await garden.list(ControllerInstallationKind)).items.filter(
    (i) => i.spec.seedRef?.name === options.seedName,
  );
  const registrations = (await garden.list(ControllerRegistrationKind)).items.filter((r) =>
    installations.some((i) => i.spec.registrationRef.name === r.metadata?.name),
  );
  const heartbeats = new Map<string, string | undefined>();
  for (const obj of withConditions) {
    const registration = registrationFor(registrations, obj.kind ?? '', obj.spec?.type ?? '');
    if (!registration) {
      throw new Error(
        `could not find ControllerRegistration for extension kind ${obj.kind} and type ${obj.spec?.type}`,
      );
    }
    const regName = registration.metadata?.name ?? '';
    if (heartbeats.has(regName)) continue;
    const installation = installations.find((i) => i.spec.registrationRef.name === regName)!;
    try {
      const lease = await seed.get(Kinds.Lease, {
        namespace: extensionNamespace(installation.metadata?.name ?? ''),
        name: HeartbeatLeaseName,
      });
      heartbeats.set(regName, lease.spec?.renewTime ?? undefined);
    } catch (err) {
      if (!isNotFound(err)) throw err;
      heartbeats.set(regName, undefined);
    }
  }
  return groupExtensionConditions(withConditions, (obj) => {
    const registration = registrationFor(registrations, obj.kind ?? '', obj.spec?.type ?? '');
    return registration ? heartbeats.get(registration.metadata?.name ?? '') : undefined;
  });
}
