// The crd-deletion-protection webhook: DELETE of a CustomResourceDefinition labelled `gardener.cloud/deletion-protected:
// "true"`, or of an extension resource (extensions.gardener.cloud/v1alpha1, druid's Etcd), is refused unless the
// object carries `confirmation.gardener.cloud/deletion: "true"`. A collection delete is refused if any item is not
// confirmed.
import {
  allowed,
  denied,
  type AdmissionRequest,
  type AdmissionResult,
  type KubernetesObject,
} from '@gardener-ts/controller-runtime';
import { WebhookAnnotation, WebhookLabel } from './constants.js';
import { annotationsOf, labelsOf, parseBool } from './mutate.js';

export const ProtectedExtensionResources = [
  'backupbuckets',
  'backupentries',
  'containerruntimes',
  'controlplanes',
  'dnsrecords',
  'extensions',
  'infrastructures',
  'networks',
  'operatingsystemconfigs',
  'workers',
] as const;

export type ProtectedResource = { kind: 'crd' } | { kind: 'resource' };

/** Whether the request's resource is protected at all: CRDs (v1, v1beta1), the extension resources, etcds. */
export function protectedResource(resource: AdmissionRequest['resource']): ProtectedResource | undefined {
  const { group, version, resource: name } = resource;
  if (
    group === 'apiextensions.k8s.io' &&
    (version === 'v1' || version === 'v1beta1') &&
    name === 'customresourcedefinitions'
  )
    return { kind: 'crd' };
  if (
    group === 'extensions.gardener.cloud' &&
    version === 'v1alpha1' &&
    (ProtectedExtensionResources as readonly string[]).includes(name)
  )
    return { kind: 'resource' };
  if (group === 'druid.gardener.cloud' && version === 'v1alpha1' && name === 'etcds') return { kind: 'resource' };
  return undefined;
}

/** The reason `obj` may not be deleted, or undefined when its deletion is confirmed (or it is not protected). */
export function deletionNotConfirmed(obj: KubernetesObject, kind: ProtectedResource['kind']): string | undefined {
  if (kind === 'crd' && labelsOf(obj)[WebhookLabel.DeletionProtected] !== 'true') return undefined;
  if (parseBool(annotationsOf(obj)[WebhookAnnotation.ConfirmationDeletion]) === true) return undefined;
  return `annotation to delete object "${obj.metadata?.name ?? ''}" is missing: set ${WebhookAnnotation.ConfirmationDeletion}=true before deleting it`;
}

/**
 * The decision for a request. `objects` are the objects the request deletes: the request's `oldObject` for a single
 * DELETE, the listed items for a collection delete (the handler looks them up).
 */
export function crdDeletionProtection(request: AdmissionRequest, objects: KubernetesObject[]): AdmissionResult {
  if (request.operation !== 'DELETE') return allowed('operation is not DELETE');
  const target = protectedResource(request.resource);
  if (!target) return allowed('resource is not deletion-protected');
  for (const obj of objects) {
    const reason = deletionNotConfirmed(obj, target.kind);
    if (reason) return denied(reason);
  }
  return allowed();
}
