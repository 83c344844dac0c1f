// Timestamps as the API writes them: RFC 3339 with second precision.

export function rfc3339(ms: number = Date.now()): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
