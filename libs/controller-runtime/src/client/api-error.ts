// Errors from the API server as one typed class, with the Status reason and code the server sent.

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

/** A Kubernetes `Status` failure (or a transport failure mapped to one). */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    /** HTTP status code (0 when the request never got an answer). */
    readonly code: number,
    /** The Status reason: NotFound, Conflict, AlreadyExists, Expired, Invalid, ... */
    readonly reason: string,
    message: string,
    readonly details?: StatusDetails,
  ) {
    super(message);
  }

  /** Builds an error from a response body, which is a Status object when the server produced it. */
  static fromResponse(code: number, body: string, what: string): ApiError {
    try {
      const status = JSON.parse(body) as {
        kind?: string;
        reason?: string;
        message?: string;
        details?: StatusDetails;
        code?: number;
      };
      if (status.kind === 'Status') {
        return new ApiError(
          status.code ?? code,
          status.reason || reasonForCode(code),
          status.message || `${what}: HTTP ${code}`,
          status.details,
        );
      }
    } catch {
      // Not JSON: fall through to a generic error carrying the body.
    }
    return new ApiError(code, reasonForCode(code), `${what}: HTTP ${code}${body ? `: ${body.slice(0, 300)}` : ''}`);
  }
}

function reasonForCode(code: number): string {
  const reasons: Record<number, string> = {
    400: 'BadRequest',
    401: 'Unauthorized',
    403: 'Forbidden',
    404: 'NotFound',
    405: 'MethodNotAllowed',
    409: 'Conflict',
    410: 'Expired',
    415: 'UnsupportedMediaType',
    422: 'Invalid',
    429: 'TooManyRequests',
    500: 'InternalError',
    503: 'ServiceUnavailable',
    504: 'Timeout',
  };
  return reasons[code] ?? 'Unknown';
}

const hasReason = (err: unknown, reason: string, code: number): boolean =>
  err instanceof ApiError && (err.reason === reason || (err.reason === 'Unknown' && err.code === code));

export const isNotFound = (err: unknown): boolean => hasReason(err, 'NotFound', 404);
/** A write lost a race: the object changed since it was read (409 Conflict). */
export const isConflict = (err: unknown): boolean => hasReason(err, 'Conflict', 409);
export const isAlreadyExists = (err: unknown): boolean => hasReason(err, 'AlreadyExists', 409);
/** The requested resourceVersion is older than the server's history (410 Gone / Expired). */
export const isGone = (err: unknown): boolean =>
  err instanceof ApiError && (err.code === 410 || err.reason === 'Expired' || err.reason === 'Gone');
export const isInvalid = (err: unknown): boolean => hasReason(err, 'Invalid', 422);
export const isForbidden = (err: unknown): boolean => hasReason(err, 'Forbidden', 403);

/** Returns undefined for NotFound and rethrows anything else: `const cm = await client.get(...).catch(ignoreNotFound)`. */
export function ignoreNotFound(err: unknown): undefined {
  if (isNotFound(err)) return undefined;
  throw err;
}
