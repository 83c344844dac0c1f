// What every admission plugin sees and answers: the request's attributes (kube's admission.Attributes), the listers it
// may read other objects through, and its decision — allow, allow with a changed object, or deny with the
// Status Gardener's API server would answer (403 Forbidden from plugins, 422 Invalid from validation).
import { aggregateMessage, type FieldError } from '@gardener-ts/api';

/** A Kubernetes object as plugins see it: plain JSON. */
export type KubeObject = {
  apiVersion?: string;
  kind?: string;
  metadata?: {
    name?: string;
    generateName?: string;
    namespace?: string;
    uid?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    finalizers?: string[];
    deletionTimestamp?: string;
    creationTimestamp?: string;
    [key: string]: unknown;
  };
  [key: string]: any;
};

export type AdmissionOperation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

/** Who sends the request (authentication.k8s.io UserInfo). */
export interface UserInfo {
  username?: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

/** The attributes of one admission request (k8s.io/apiserver admission.Attributes). */
export interface AdmissionAttributes {
  operation: AdmissionOperation;
  /** The kind of the object (`{ group: 'core.gardener.cloud', version: 'v1beta1', kind: 'Shoot' }`). */
  kind: { group: string; version: string; kind: string };
  /** The plural resource (`shoots`). */
  resource: { group: string; version: string; resource: string };
  /** `status`, `binding`, ... or empty for the main resource. */
  subresource?: string;
  namespace?: string;
  /** Empty for a CREATE with generateName and for a DELETECOLLECTION. */
  name?: string;
  /** The object as it will be stored (absent for DELETE). */
  object?: KubeObject | null;
  /** The object as stored now (absent for CREATE). */
  oldObject?: KubeObject | null;
  userInfo: UserInfo;
  dryRun?: boolean;
}

/**
 * Read access to other objects of the garden (the informer listers of gardener-apiserver's plugins). `get` resolves
 * to undefined when the object does not exist.
 */
export interface Listers {
  get(apiVersion: string, kind: string, name: string, namespace?: string): Promise<KubeObject | undefined>;
  list(apiVersion: string, kind: string, namespace?: string): Promise<KubeObject[]>;
  /**
   * Whether `user` may do `verb` on the resource (a SubjectAccessReview, as plugins that check custom verbs ask the
   * authorizer). Listers without it answer no.
   */
  authorize?(user: UserInfo, resource: AccessAttributes): Promise<boolean>;
  /**
   * Creates `object` with `dryRun=All`: the API server runs its admission (webhooks included) and stores nothing
   * (gardener-apiserver's provider secret sanity check). Rejects with the API server's error when it would refuse
   * the object. Listers without it cannot run such checks, and the checks are skipped.
   */
  createDryRun?(object: KubeObject): Promise<void>;
}

/** The resource attributes of an authorization question. */
export interface AccessAttributes {
  verb: string;
  group: string;
  resource: string;
  /** `binding`, `status`, ...: the subresource asked about (SubjectAccessReview `resourceAttributes.subresource`). */
  subresource?: string;
  name?: string;
  namespace?: string;
}

/** A plugin's answer. `object` (mutating phase only) replaces the object that goes on down the chain. */
export type AdmissionDecision =
  | { allowed: true; object?: KubeObject; warnings?: string[] }
  | { allowed: false; code: number; reason: string; message: string };

/** Allows the request unchanged. */
export const allow = (): AdmissionDecision => ({ allowed: true });

/** Allows the request with `object` in place of the one sent. */
export const mutated = (object: KubeObject, warnings?: string[]): AdmissionDecision => ({
  allowed: true,
  object,
  ...(warnings?.length ? { warnings } : {}),
});

/** `shoots.core.gardener.cloud "name"` — how kube's admission errors name the object. */
export function qualifiedResource(a: AdmissionAttributes): string {
  const resource = a.resource.group ? `${a.resource.resource}.${a.resource.group}` : a.resource.resource;
  return `${resource} "${a.name ?? a.object?.metadata?.name ?? a.oldObject?.metadata?.name ?? ''}"`;
}

/** kube's `admission.NewForbidden(a, err)`: 403 `<resource>.<group> "<name>" is forbidden: <reason>`. */
export function forbidden(a: AdmissionAttributes, reason: string): AdmissionDecision {
  return { allowed: false, code: 403, reason: 'Forbidden', message: `${qualifiedResource(a)} is forbidden: ${reason}` };
}

/** Field errors as kube's `admission.NewForbidden(a, errs.ToAggregate())` words them (Gardener's plugins). */
export function forbiddenFields(a: AdmissionAttributes, errors: readonly FieldError[]): AdmissionDecision {
  const list = errors.map((e) => e.message);
  return forbidden(a, list.length === 1 ? list[0]! : `[${list.join(', ')}]`);
}

/** The 422 Invalid of the API server's strategy validation: `Shoot.core.gardener.cloud "name" is invalid: ...`. */
export function invalidObject(a: AdmissionAttributes, errors: readonly FieldError[]): AdmissionDecision {
  const kind = a.kind.group ? `${a.kind.kind}.${a.kind.group}` : a.kind.kind;
  const name = a.object?.metadata?.name ?? a.name;
  return { allowed: false, code: 422, reason: 'Invalid', message: aggregateMessage(kind, name, errors) };
}

/** kube's `apierrors.NewInternalError`: 500 `Internal error occurred: <message>`. */
export function internalError(message: string): AdmissionDecision {
  return { allowed: false, code: 500, reason: 'InternalError', message: `Internal error occurred: ${message}` };
}

/** A plain Go error returned by a plugin: the API server answers 500 with its text (`ErrorToAPIStatus`). */
export function unknownError(message: string): AdmissionDecision {
  return { allowed: false, code: 500, reason: '', message };
}

/**
 * kube's `apierrors.NewForbidden(groupResource, name, err)` with a group resource that is not the request's (Gardener's
 * `core.Resource("Seed")`): 403 `Seed.core.gardener.cloud "name" is forbidden: <reason>`.
 */
export function forbiddenResource(resource: string, name: string, reason: string): AdmissionDecision {
  return { allowed: false, code: 403, reason: 'Forbidden', message: `${resource} "${name}" is forbidden: ${reason}` };
}

/** kube's `apierrors.NewBadRequest`. */
export function badRequest(message: string): AdmissionDecision {
  return { allowed: false, code: 400, reason: 'BadRequest', message };
}

/** Whether the request is for `group`/`kind` (any version). */
export function isKind(a: AdmissionAttributes, group: string, kind: string): boolean {
  return a.kind.group === group && a.kind.kind === kind;
}

export const CORE = 'core.gardener.cloud';
export const SECURITY = 'security.gardener.cloud';
export const SEEDMANAGEMENT = 'seedmanagement.gardener.cloud';
export const OPERATIONS = 'operations.gardener.cloud';
