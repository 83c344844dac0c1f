// AdmissionReview v1 (admission.k8s.io/v1): the request the API server sends a webhook and the response it expects.
import type { KubernetesObject } from '../client/types.js';
import type { JsonPatchOperation } from '../client/options.js';

export type Operation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

export interface AdmissionRequest<T extends KubernetesObject = KubernetesObject> {
  uid: string;
  kind: { group: string; version: string; kind: string };
  resource: { group: string; version: string; resource: string };
  subResource?: string;
  requestKind?: { group: string; version: string; kind: string };
  requestResource?: { group: string; version: string; resource: string };
  name?: string;
  namespace?: string;
  operation: Operation;
  userInfo: { username?: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> };
  /** The object as it will be stored (null for DELETE). */
  object?: T | null;
  /** The object as it is stored now (null for CREATE). */
  oldObject?: T | null;
  dryRun?: boolean;
  options?: unknown;
}

export interface AdmissionResponse {
  uid: string;
  allowed: boolean;
  status?: { code?: number; message?: string; reason?: string };
  /** base64 of an RFC 6902 JSON patch. */
  patch?: string;
  patchType?: 'JSONPatch';
  warnings?: string[];
  auditAnnotations?: Record<string, string>;
}

export interface AdmissionReview {
  apiVersion: 'admission.k8s.io/v1';
  kind: 'AdmissionReview';
  request?: AdmissionRequest;
  response?: AdmissionResponse;
}

/** A request body that is not an AdmissionReview v1 request. */
export class MalformedReviewError extends Error {
  override readonly name = 'MalformedReviewError';
}

const OPERATIONS: readonly string[] = ['CREATE', 'UPDATE', 'DELETE', 'CONNECT'];

/** Parses and checks a request body; throws MalformedReviewError saying what is wrong. */
export function decodeReview(body: string): AdmissionRequest {
  let review: unknown;
  try {
    review = JSON.parse(body);
  } catch (err) {
    throw new MalformedReviewError(`the request body is not JSON: ${(err as Error).message}`);
  }
  if (typeof review !== 'object' || review === null || Array.isArray(review))
    throw new MalformedReviewError('the request body is not a JSON object');
  const { apiVersion, kind, request } = review as Record<string, unknown>;
  if (kind !== 'AdmissionReview')
    throw new MalformedReviewError(`expected kind AdmissionReview, got ${JSON.stringify(kind)}`);
  if (apiVersion !== 'admission.k8s.io/v1') {
    throw new MalformedReviewError(
      `expected apiVersion admission.k8s.io/v1, got ${JSON.stringify(apiVersion)} (set admissionReviewVersions: ["v1"])`,
    );
  }
  if (typeof request !== 'object' || request === null)
    throw new MalformedReviewError('the AdmissionReview has no request');
  const r = request as Record<string, unknown>;
  if (typeof r.uid !== 'string' || r.uid === '') throw new MalformedReviewError('request.uid is missing');
  if (typeof r.operation !== 'string' || !OPERATIONS.includes(r.operation))
    throw new MalformedReviewError(
      `request.operation ${JSON.stringify(r.operation)} is not one of ${OPERATIONS.join(', ')}`,
    );
  if (typeof r.kind !== 'object' || r.kind === null) throw new MalformedReviewError('request.kind is missing');
  return request as AdmissionRequest;
}

export function encodeReview(response: AdmissionResponse): string {
  const review: AdmissionReview = { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response };
  return JSON.stringify(review);
}

export function encodePatch(ops: JsonPatchOperation[]): string {
  return Buffer.from(JSON.stringify(ops)).toString('base64');
}
