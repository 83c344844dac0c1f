// The ConversionReview exchange of CRD conversion webhooks, as apiextensions-apiserver's webhook converter: which
// objects are sent, the request, and the checks on the answer (uid, Success, object count, apiVersion and kind, and
// metadata — only labels and annotations may change, everything else is taken back from the original).
import { validateLabelsAndAnnotations } from '../../api/meta.js';
import type { KubeObject } from '../../storage/types.js';

/** The ConversionReview versions the server can send, in the order it knows them. */
export const SUPPORTED_REVIEW_VERSIONS = ['v1', 'v1beta1'];

/** The first of the webhook's preferred versions the server supports; undefined when none is. */
export function reviewVersion(preferred: string[]): string | undefined {
  return preferred.find((v) => SUPPORTED_REVIEW_VERSIONS.includes(v));
}

export function conversionReview(
  version: string,
  uid: string,
  desiredAPIVersion: string,
  objects: KubeObject[],
): KubeObject {
  return {
    apiVersion: `apiextensions.k8s.io/${version}`,
    kind: 'ConversionReview',
    request: { uid, desiredAPIVersion, objects },
  };
}

/**
 * The converted objects of a webhook's answer, or an Error worded as kube's: v1 answers must be a v1 ConversionReview
 * for the request's uid; a result other than Success fails with its message.
 */
export function convertedObjects(version: string, uid: string, answer: KubeObject): KubeObject[] {
  if (version === 'v1') {
    const gvk = `${answer?.apiVersion ?? ''}, Kind=${answer?.kind ?? ''}`;
    if (answer?.apiVersion !== 'apiextensions.k8s.io/v1' || answer?.kind !== 'ConversionReview') {
      throw new Error(`expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got ${gvk}`);
    }
  }
  const response = answer?.response;
  if (!response || typeof response !== 'object') throw new Error('no response provided');
  if (version === 'v1' && response.uid !== uid)
    throw new Error(`expected response.uid="${uid}", got "${response.uid ?? ''}"`);
  const status = response.result?.status ?? '';
  if (status !== 'Success') {
    const message = response.result?.message;
    throw new Error(message ? String(message) : `response.result.status was '${status}', not 'Success'`);
  }
  return Array.isArray(response.convertedObjects) ? response.convertedObjects : [];
}

/**
 * Checks one converted object against its original and returns it with the original's metadata, keeping only the
 * webhook's labels and annotations (kube's validateConvertedObject and restoreObjectMeta). Throws with kube's wording.
 */
export function restoreConverted(original: KubeObject, converted: KubeObject, desiredAPIVersion: string): KubeObject {
  if (typeof converted !== 'object' || converted === null || Array.isArray(converted))
    throw new TypeMetaError('not an object');
  if (converted.apiVersion !== desiredAPIVersion) {
    throw new TypeMetaError(
      `invalid groupVersion (expected ${desiredAPIVersion}, received ${converted.apiVersion ?? ''})`,
    );
  }
  if (converted.kind !== original.kind)
    throw new TypeMetaError(`invalid kind (expected ${original.kind}, received ${converted.kind ?? ''})`);
  const inMeta = original.metadata ?? {};
  const outMeta = converted.metadata;
  for (const [field, label] of [
    ['name', 'name'],
    ['namespace', 'namespace'],
    ['uid', 'UID'],
  ] as const) {
    if ((inMeta[field] ?? '') !== (outMeta?.[field] ?? ''))
      throw new Error(`must have the same ${label}: ${inMeta[field] ?? ''} != ${outMeta?.[field] ?? ''}`);
  }
  if (outMeta === undefined) throw new MetadataError('missing metadata in converted object');
  if (typeof outMeta !== 'object' || outMeta === null || Array.isArray(outMeta))
    throw new MetadataError(`invalid metadata of type ${typeof outMeta} in converted object`);
  const metadata: KubeObject = structuredClone(inMeta);
  for (const field of ['labels', 'annotations'] as const) {
    const value = outMeta[field];
    if (value === undefined || value === null) {
      delete metadata[field];
      continue;
    }
    if (typeof value !== 'object' || Array.isArray(value))
      throw new MetadataError(
        `invalid metadata.${field} of type ${Array.isArray(value) ? 'array' : typeof value} in converted object`,
      );
    for (const [k, v] of Object.entries(value)) {
      if (typeof v !== 'string')
        throw new MetadataError(`metadata.${field}[${k}] must be a string, but is ${typeof v} in converted object`);
    }
    const problems = validateLabelsAndAnnotations({ [field]: value });
    if (problems.length > 0) throw new MetadataError(problems.map((p) => `${p.field}: ${p.message}`).join(', '));
    metadata[field] = value;
  }
  return { ...converted, metadata };
}

/** A wrong apiVersion or kind: kube words these `returned invalid object at index 0`. */
export class TypeMetaError extends Error {}

/** A metadata problem: kube words these `returned invalid metadata` rather than `returned invalid object`. */
export class MetadataError extends Error {}
