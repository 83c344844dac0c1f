// API errors as kube-apiserver returns them: an HTTP status and a metav1.Status body with reason and details.
import type { FieldProblem } from '../schema/types.js';

export type StatusReason =
  | 'BadRequest'
  | 'Unauthorized'
  | 'Forbidden'
  | 'NotFound'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Gone'
  | 'Invalid'
  | 'MethodNotAllowed'
  | 'NotAcceptable'
  | 'RequestEntityTooLarge'
  | 'UnsupportedMediaType'
  | 'InternalError'
  | 'ServiceUnavailable'
  | 'Timeout'
  | 'Expired'
  | 'TooManyRequests';

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: { reason: string; message: string; field?: string }[];
  retryAfterSeconds?: number;
}

export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly reason: StatusReason,
    message: string,
    readonly details?: StatusDetails,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  toStatus(): Record<string, unknown> {
    return {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: this.message,
      reason: this.reason,
      ...(this.details ? { details: this.details } : {}),
      code: this.code,
    };
  }
}

/** `deployments.apps` / `pods`: how kube names a resource in messages. */
export function qualifiedResource(resource: string, group: string): string {
  return group ? `${resource}.${group}` : resource;
}

export const errors = {
  badRequest: (message: string) => new ApiError(400, 'BadRequest', message),
  notFound: (resource: string, group: string, name: string) =>
    new ApiError(404, 'NotFound', `${qualifiedResource(resource, group)} "${name}" not found`, {
      name,
      group,
      kind: resource,
    }),
  alreadyExists: (resource: string, group: string, name: string) =>
    new ApiError(409, 'AlreadyExists', `${qualifiedResource(resource, group)} "${name}" already exists`, {
      name,
      group,
      kind: resource,
    }),
  conflict: (resource: string, group: string, name: string, why: string) =>
    new ApiError(
      409,
      'Conflict',
      `Operation cannot be fulfilled on ${qualifiedResource(resource, group)} "${name}": ${why}`,
      {
        name,
        group,
        kind: resource,
      },
    ),
  modified: (resource: string, group: string, name: string) =>
    errors.conflict(
      resource,
      group,
      name,
      'the object has been modified; please apply your changes to the latest version and try again',
    ),
  gone: (message: string) => new ApiError(410, 'Expired', message),
  forbidden: (message: string) => new ApiError(403, 'Forbidden', message),
  methodNotAllowed: (message: string) => new ApiError(405, 'MethodNotAllowed', message),
  unsupportedMediaType: (type: string) =>
    new ApiError(
      415,
      'UnsupportedMediaType',
      `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml; got ${type}`,
    ),
  tooLarge: () => new ApiError(413, 'RequestEntityTooLarge', 'Request entity too large: limit is 3145728'),
  internal: (message: string) => new ApiError(500, 'InternalError', `Internal error occurred: ${message}`),
  /** 422 with one cause per field problem, worded like kube: `Kind.group "name" is invalid: [a, b]`. */
  invalid: (kind: string, group: string, name: string, problems: FieldProblem[]) => {
    const parts = problems.map((p) => `${p.field}: ${p.message}`);
    const list = parts.length === 1 ? parts[0] : `[${parts.join(', ')}]`;
    return new ApiError(422, 'Invalid', `${kind}${group ? `.${group}` : ''} "${name}" is invalid: ${list}`, {
      name,
      group,
      kind,
      causes: problems.map((p) => ({ reason: p.reason, message: p.message, field: p.field })),
    });
  },
};
