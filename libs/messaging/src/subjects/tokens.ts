// Subject tokens come from object names and component identities; a "." would shift every later token and a "*" or
// ">" would turn a publish subject into a wildcard, so each token is checked before it becomes part of a subject.
export class SubjectTokenError extends Error {
  constructor(
    readonly field: string,
    readonly value: unknown,
    reason: string,
  ) {
    super(`invalid subject token ${field}=${JSON.stringify(value)}: ${reason}`);
    this.name = 'SubjectTokenError';
  }
}

const MAX_TOKEN_LENGTH = 253; // the longest Kubernetes name; subjects stay well below the server's limits

/** Returns `value` when it is usable as one subject token, throws a SubjectTokenError naming `field` otherwise. */
export function subjectToken(field: string, value: unknown): string {
  if (typeof value !== 'string') throw new SubjectTokenError(field, value, 'not a string');
  if (value === '') throw new SubjectTokenError(field, value, 'empty');
  if (value.length > MAX_TOKEN_LENGTH)
    throw new SubjectTokenError(field, value, `longer than ${MAX_TOKEN_LENGTH} characters`);
  if (value.includes('.')) throw new SubjectTokenError(field, value, '"." separates subject tokens');
  if (value.includes('*') || value.includes('>'))
    throw new SubjectTokenError(field, value, '"*" and ">" are wildcards');
  // eslint-disable-next-line no-control-regex
  if (/[\s\u0000-\u001f\u007f]/.test(value))
    throw new SubjectTokenError(field, value, 'whitespace and control characters are not allowed');
  return value;
}

/** Like subjectToken, but undefined means "any" (the single-token wildcard) in a subscription filter. */
export function filterToken(field: string, value: string | undefined): string {
  return value === undefined ? '*' : subjectToken(field, value);
}
