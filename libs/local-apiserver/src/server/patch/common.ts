// Helpers shared by the three PATCH flavours: body parsing, deep equality, safe key assignment and the 422
// "generic server response" kube-apiserver returns when a patch does not apply.
import { ApiError } from '../../api/errors.js';
import { jsonEqual as deepEqual } from '../../api/meta.js';

export { deepEqual };

export type JsonMap = Record<string, unknown>;

export type Parsed = { ok: true; value: unknown } | { ok: false; message: string };

export function parseJson(body: string): Parsed {
  try {
    return { ok: true, value: JSON.parse(body) as unknown };
  } catch (e) {
    return { ok: false, message: e instanceof Error ? e.message : String(e) };
  }
}

/** How Go's encoding/json names a JSON value in "cannot unmarshal X into ..." errors. */
export function goKind(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'null';
  if (typeof value === 'object') return 'object';
  return typeof value;
}

/** `errors.NewGenericServerResponse(422, ...)`: what kube answers when a JSON patch op or an SMP list fails. */
export function unprocessable(cause: string): ApiError {
  return new ApiError(422, 'Invalid', 'the server rejected our request due to an error in our request', {
    causes: [{ reason: 'UnexpectedServerResponse', message: cause }],
  });
}

export function hasOwn(obj: JsonMap, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(obj, key);
}

/** Sets an own data property (also for `__proto__`, which plain assignment would treat as the prototype). */
export function put(obj: JsonMap, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  else obj[key] = value;
}
