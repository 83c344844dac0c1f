// Object metadata rules shared by every resource: names, generateName, timestamps, uid, generation.
import { randomInt, randomUUID } from 'node:crypto';
import type { KubeObject } from '../storage/types.js';
import type { FieldProblem } from '../schema/types.js';

const NAME_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** RFC 3339 with second precision, as metav1.Time serialises. */
export function now(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** MicroTime (events, leases): microsecond precision. */
export function nowMicro(): string {
  return new Date().toISOString().replace(/Z$/, '000Z');
}

export function generateName(prefix: string): string {
  let suffix = '';
  for (let i = 0; i < 5; i++) suffix += NAME_ALPHABET[randomInt(NAME_ALPHABET.length)];
  return prefix + suffix;
}

export function newUid(): string {
  return randomUUID();
}

/** Name rules: namespaces and services are DNS labels, most others DNS subdomains (RBAC allows path segments). */
export function validateName(resource: string, name: string, field = 'metadata.name'): FieldProblem[] {
  if (resource === 'namespaces' || resource === 'services') {
    if (name.length > 63 || !DNS_LABEL.test(name)) {
      return [invalidName(field, name, "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character")];
    }
    return [];
  }
  if (['roles', 'clusterroles', 'rolebindings', 'clusterrolebindings', 'subjectaccessreviews'].includes(resource)) {
    if (name === '.' || name === '..' || name.includes('/') || name.includes('%')) {
      return [invalidName(field, name, 'may not contain "/" or "%" and may not be "." or ".."')];
    }
    return [];
  }
  if (name.length > 253 || !DNS_SUBDOMAIN.test(name)) {
    return [invalidName(field, name, "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character")];
  }
  return [];
}

function invalidName(field: string, name: string, why: string): FieldProblem {
  return { field, reason: 'FieldValueInvalid', message: `Invalid value: ${JSON.stringify(name)}: ${why}` };
}

/** Labels and annotations: keys and values within kube's limits. */
export function validateLabelsAndAnnotations(meta: KubeObject): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const [k, v] of Object.entries((meta.labels ?? {}) as Record<string, unknown>)) {
    if (typeof v !== 'string' || v.length > 63 || !/^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/.test(v)) {
      problems.push({
        field: `metadata.labels`,
        reason: 'FieldValueInvalid',
        message: `Invalid value: ${JSON.stringify(v)}: a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character`,
      });
    }
    if (!/^([a-z0-9]([-a-z0-9.]*[a-z0-9])?\/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/.test(k)) {
      problems.push({ field: 'metadata.labels', reason: 'FieldValueInvalid', message: `Invalid value: ${JSON.stringify(k)}: name part must consist of alphanumeric characters, '-', '_' or '.'` });
    }
  }
  const annotations = (meta.annotations ?? {}) as Record<string, unknown>;
  let size = 0;
  for (const [k, v] of Object.entries(annotations)) {
    if (typeof v !== 'string') {
      problems.push({ field: `metadata.annotations.${k}`, reason: 'FieldValueTypeInvalid', message: 'Invalid value: must be a string' });
    }
    size += k.length + String(v).length;
  }
  if (size > 256 * 1024) {
    problems.push({ field: 'metadata.annotations', reason: 'FieldValueTooLong', message: `Too long: may not be more than 262144 bytes` });
  }
  return problems;
}

/** Deep equality of JSON values (key order ignored). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => jsonEqual(x, bb[i]));
  }
  const ka = Object.keys(a as object).filter((k) => (a as any)[k] !== undefined);
  const kb = Object.keys(b as object).filter((k) => (b as any)[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => jsonEqual((a as any)[k], (b as any)[k]));
}

/** Everything but metadata and status: a change here bumps `metadata.generation`. */
export function specPart(o: KubeObject): KubeObject {
  const { metadata: _m, status: _s, ...rest } = o;
  return rest;
}
