// Object metadata rules shared by every resource: names, generateName, timestamps, uid, generation.
import { randomInt, randomUUID } from 'node:crypto';
import type { KubeObject } from '../storage/types.js';
import type { FieldProblem } from '../schema/types.js';
import {
  dns1035LabelErrors,
  dns1123LabelErrors,
  dns1123SubdomainErrors,
  labelValueErrors,
  qualifiedNameErrors,
} from '@gardener-ts/api';

const NAME_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

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

/**
 * kube's name rules (ObjectMeta name validation of each kind), with kube's messages: namespaces are DNS-1123 labels,
 * services DNS-1035 labels, RBAC objects and access reviews path segments, everything else DNS-1123 subdomains.
 */
export function validateName(resource: string, name: string, field = 'metadata.name'): FieldProblem[] {
  let messages: string[];
  if (resource === 'namespaces') messages = dns1123LabelErrors(name);
  else if (resource === 'services') messages = dns1035LabelErrors(name);
  else if (
    ['roles', 'clusterroles', 'rolebindings', 'clusterrolebindings', 'subjectaccessreviews'].includes(resource)
  ) {
    messages =
      name === '.' || name === '..' || name.includes('/') || name.includes('%')
        ? ['may not contain "/" or "%" and may not be "." or ".."']
        : [];
  } else messages = dns1123SubdomainErrors(name);
  return messages.map((m) => ({
    field,
    reason: 'FieldValueInvalid',
    message: `Invalid value: ${JSON.stringify(name)}: ${m}`,
  }));
}

const invalid = (field: string, value: unknown, message: string): FieldProblem => ({
  field,
  reason: 'FieldValueInvalid',
  message: `Invalid value: ${JSON.stringify(value)}: ${message}`,
});

/**
 * kube's ValidateLabels (apimachinery): every key a qualified name, every value a valid label value, each problem on
 * `field` itself (not keyed) with the offending key or value, as kube reports them. Used for `metadata.labels` and for
 * label maps elsewhere (pod template labels, Service selectors, `matchLabels`).
 */
export function validateLabels(labels: unknown, field: string): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (labels === null || typeof labels !== 'object') return problems;
  for (const [k, v] of Object.entries(labels as Record<string, unknown>)) {
    for (const m of qualifiedNameErrors(k)) problems.push(invalid(field, k, m));
    if (typeof v !== 'string') {
      problems.push({
        field: `${field}.${k}`,
        reason: 'FieldValueTypeInvalid',
        message: 'Invalid value: must be a string',
      });
      continue;
    }
    for (const m of labelValueErrors(v)) problems.push(invalid(field, v, m));
  }
  return problems;
}

/** kube's limit on the total size of an object's annotations (keys and values), in bytes. */
export const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

/**
 * kube's ValidateLabels and ValidateAnnotations (apimachinery's ObjectMeta validation): label keys and annotation keys
 * (case-insensitively) are qualified names, label values valid label values, annotations at most 256 KiB in total.
 * One problem per message, on `metadata.labels` / `metadata.annotations` with the offending key or value, as kube.
 */
export function validateLabelsAndAnnotations(meta: KubeObject): FieldProblem[] {
  const problems = validateLabels(meta.labels, 'metadata.labels');
  const annotations = (meta.annotations ?? {}) as Record<string, unknown>;
  let size = 0;
  for (const [k, v] of Object.entries(annotations)) {
    for (const m of qualifiedNameErrors(k.toLowerCase())) problems.push(invalid('metadata.annotations', k, m));
    if (typeof v !== 'string') {
      problems.push({
        field: `metadata.annotations.${k}`,
        reason: 'FieldValueTypeInvalid',
        message: 'Invalid value: must be a string',
      });
    }
    size += Buffer.byteLength(k) + Buffer.byteLength(String(v));
  }
  if (size > TOTAL_ANNOTATION_SIZE_LIMIT) {
    problems.push({
      field: 'metadata.annotations',
      reason: 'FieldValueTooLong',
      message: `Too long: may not be more than ${TOTAL_ANNOTATION_SIZE_LIMIT} bytes`,
    });
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
