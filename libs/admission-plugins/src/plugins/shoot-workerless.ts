// Workerless Shoots (no `spec.provider.workers`) in admission: extensions whose ControllerRegistration does not declare
// `workerlessSupported` are refused (plugin/pkg/global/extensionvalidation); the provider settings that need workers
// are refused by libs/api's Shoot validation.
import { FieldPath, invalid, type FieldError } from '@gardener-ts/api';
import type { KubeObject } from '../attributes.js';

/** Whether the Shoot has no worker pools. */
export const isWorkerless = (shoot: KubeObject): boolean =>
  !Array.isArray(shoot.spec?.provider?.workers) || shoot.spec.provider.workers.length === 0;

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
