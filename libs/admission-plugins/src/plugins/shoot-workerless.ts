// Rules for workerless Shoots (no `spec.provider.workers`) that Gardener enforces on admission and libs/api's
// validation does not have yet: the provider settings that only make sense with workers (pkg/apis/core/validation
// validateProvider) and extensions whose ControllerRegistration does not declare `workerlessSupported`
// (plugin/pkg/global/extensionvalidation).
import { FieldPath, forbidden, invalid, type FieldError } from '@gardener-ts/api';
import type { KubeObject } from '../attributes.js';

const WORKERLESS = 'this field should not be set for workerless Shoot clusters';

/** Whether the Shoot has no worker pools. */
export const isWorkerless = (shoot: KubeObject): boolean =>
  !Array.isArray(shoot.spec?.provider?.workers) || shoot.spec.provider.workers.length === 0;

/** A workerless Shoot may not set `infrastructureConfig`, `controlPlaneConfig` or `workersSettings` of its provider. */
export function validateWorkerlessProvider(shoot: KubeObject): FieldError[] {
  const provider = shoot.spec?.provider;
  if (!provider || !isWorkerless(shoot)) return [];
  const path = FieldPath.root('spec', 'provider');
  return (['infrastructureConfig', 'controlPlaneConfig', 'workersSettings'] as const)
    .filter((name) => provider[name] !== undefined && provider[name] !== null)
    .map((name) => forbidden(path.child(name), WORKERLESS));
}

/** The Extension types ControllerRegistrations declare `workerlessSupported: true` for. */
export function workerlessSupportedExtensionTypes(registrations: readonly KubeObject[]): Set<string> {
  return new Set(
    registrations.flatMap((r) =>
      (r.spec?.resources ?? [])
        .filter(
          (x: { kind?: string; workerlessSupported?: boolean }) => x.kind === 'Extension' && x.workerlessSupported,
        )
        .map((x: { type: string }) => x.type),
    ),
  );
}

/** A workerless Shoot's `spec.extensions[].type` must be one whose registration supports workerless Shoots. */
export function validateWorkerlessExtensions(shoot: KubeObject, supported: ReadonlySet<string>): FieldError[] {
  if (!isWorkerless(shoot)) return [];
  const path = FieldPath.root('spec', 'extensions');
  return ((shoot.spec?.extensions ?? []) as { type?: string }[]).flatMap((extension, i) =>
    extension.type && !supported.has(extension.type)
      ? [
          invalid(
            path.index(i).child('type'),
            extension.type,
            `given Shoot is workerless and uses non-supported extension type "${extension.type}"`,
          ),
        ]
      : [],
  );
}
