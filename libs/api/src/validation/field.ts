// Field errors with the vocabulary and message format of Kubernetes' field.Error (k8s.io/apimachinery), which
// Gardener's validation returns and the API server turns into a 422 Status.

export type ErrorType =
  | 'FieldValueRequired'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden'
  | 'FieldValueDuplicate'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'InternalError';

const typeText: Record<ErrorType, string> = {
  FieldValueRequired: 'Required value',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueForbidden: 'Forbidden',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  InternalError: 'Internal error',
};

/** Types whose message omits the offending value. */
const withoutValue = new Set<ErrorType>([
  'FieldValueRequired',
  'FieldValueForbidden',
  'FieldValueTooLong',
  'InternalError',
]);

export interface FieldError {
  type: ErrorType;
  /** Dotted path with indices and keys: `spec.provider.workers[0].name`, `metadata.labels[foo]`. */
  field: string;
  badValue?: unknown;
  detail?: string;
  /** `spec.region: Required value`, `spec.kubernetes.version: Invalid value: "1.x": ...` */
  message: string;
}

/** A path into an object, immutable: each step returns a new path. */
export class FieldPath {
  private constructor(private readonly text: string) {}

  static root(...names: string[]): FieldPath {
    return names.reduce((path, name) => path.child(name), new FieldPath(''));
  }

  child(...names: string[]): FieldPath {
    return new FieldPath(names.reduce((text, name) => (text ? `${text}.${name}` : name), this.text));
  }

  index(i: number): FieldPath {
    return new FieldPath(`${this.text}[${i}]`);
  }

  key(k: string): FieldPath {
    return new FieldPath(`${this.text}[${k}]`);
  }

  toString(): string {
    return this.text;
  }
}

function formatValue(value: unknown): string {
  if (value === undefined || value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}

function make(type: ErrorType, path: FieldPath, badValue: unknown, detail?: string): FieldError {
  const head = withoutValue.has(type) ? typeText[type] : `${typeText[type]}: ${formatValue(badValue)}`;
  const body = detail ? `${head}: ${detail}` : head;
  const field = path.toString();
  return { type, field, badValue, detail, message: field ? `${field}: ${body}` : body };
}

export const required = (path: FieldPath, detail?: string) => make('FieldValueRequired', path, '', detail);
export const invalid = (path: FieldPath, value: unknown, detail?: string) =>
  make('FieldValueInvalid', path, value, detail);
export const forbidden = (path: FieldPath, detail?: string) => make('FieldValueForbidden', path, '', detail);
/** kube's `field.InternalError(path, err)`: `<path>: Internal error: <err>`. */
export const fieldInternalError = (path: FieldPath, detail: string) => make('InternalError', path, '', detail);
export const duplicate = (path: FieldPath, value: unknown) => make('FieldValueDuplicate', path, value);
export const tooLong = (path: FieldPath, value: unknown, max: number) =>
  make('FieldValueTooLong', path, value, `may not be more than ${max} bytes`);
export const tooMany = (path: FieldPath, actual: number, max: number) =>
  make('FieldValueTooMany', path, actual, `must have at most ${max} items`);

export function notSupported(path: FieldPath, value: unknown, supported: readonly string[]): FieldError {
  const detail =
    supported.length > 0 ? `supported values: ${supported.map((v) => JSON.stringify(v)).join(', ')}` : undefined;
  return make('FieldValueNotSupported', path, value, detail);
}

export const immutableDetail = 'field is immutable';
export const immutable = (path: FieldPath, value: unknown) => invalid(path, value, immutableDetail);

/** The message of a rejected object, as the API server words it. */
export function aggregateMessage(kind: string, name: string | undefined, errors: readonly FieldError[]): string {
  const list = errors.map((e) => e.message);
  const joined = list.length === 1 ? list[0] : `[${list.join(', ')}]`;
  return `${kind} "${name ?? ''}" is invalid: ${joined}`;
}

/** The 422 Status an API server answers with for these errors (used by admission webhooks). */
export function invalidStatus(group: string, kind: string, name: string | undefined, errors: readonly FieldError[]) {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: aggregateMessage(group ? `${kind}.${group}` : kind, name, errors),
    reason: 'Invalid',
    details: {
      name: name ?? '',
      group,
      kind,
      causes: errors.map((e) => ({ reason: e.type, message: bodyOf(e), field: e.field })),
    },
    code: 422,
  };
}

function bodyOf(error: FieldError): string {
  const prefix = `${error.field}: `;
  return error.field && error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
}
