// Structural schema validation of custom resources, worded like kube-apiserver's (k8s.io/apiextensions-apiserver
// validation): `spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"`.
// CEL rules (x-kubernetes-validations) are evaluated separately, after this validation, by cel.ts.
import type { FieldProblem, OpenAPISchema } from './types.js';
import { isPlainObject, type SchemaView } from './navigate.js';

export function validateValue(view: SchemaView, schema: OpenAPISchema, value: unknown, path: string): FieldProblem[] {
  const problems: FieldProblem[] = [];
  check(view, view.resolve(schema), value, path, problems);
  return problems;
}

const show = (v: unknown) => (typeof v === 'string' ? JSON.stringify(v) : (JSON.stringify(v) ?? 'null'));

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function check(view: SchemaView, s: OpenAPISchema, value: unknown, path: string, out: FieldProblem[]): void {
  const invalid = (message: string) =>
    out.push({ field: path, reason: 'FieldValueInvalid', message: `Invalid value: ${show(value)}: ${message}` });
  if (value === null) {
    if (!s.nullable && s.type)
      out.push({
        field: path,
        reason: 'FieldValueTypeInvalid',
        message: `Invalid value: "null": ${path} in body must be of type ${s.type}: "null"`,
      });
    return;
  }
  if (s['x-kubernetes-int-or-string']) {
    if (typeof value !== 'string' && !Number.isInteger(value)) {
      out.push({
        field: path,
        reason: 'FieldValueTypeInvalid',
        message: `Invalid value: ${show(value)}: ${path} in body must be of type integer,string: "${typeOf(value)}"`,
      });
      return;
    }
  } else if (s.type) {
    const actual = typeOf(value);
    const ok = actual === s.type || (s.type === 'number' && actual === 'integer');
    if (!ok) {
      out.push({
        field: path,
        reason: 'FieldValueTypeInvalid',
        message: `Invalid value: "${actual}": ${path} in body must be of type ${s.type}: "${actual}"`,
      });
      return;
    }
  }
  if (s.enum && !s.enum.some((e) => JSON.stringify(e) === JSON.stringify(value))) {
    out.push({
      field: path,
      reason: 'FieldValueNotSupported',
      message: `Unsupported value: ${show(value)}: supported values: ${s.enum.map(show).join(', ')}`,
    });
  }
  if (typeof value === 'string') checkString(s, value, path, out, invalid);
  if (typeof value === 'number') checkNumber(s, value, path, invalid);
  if (Array.isArray(value)) checkArray(view, s, value, path, out, invalid);
  if (isPlainObject(value)) checkObject(view, s, value, path, out, invalid);
  for (const sub of s.allOf ?? []) check(view, view.resolve(sub), value, path, out);
  if (s.anyOf && !s.anyOf.some((sub) => validateValue(view, sub, value, path).length === 0))
    invalid(`${path} in body must match at least one schema in anyOf`);
  if (s.oneOf && s.oneOf.filter((sub) => validateValue(view, sub, value, path).length === 0).length !== 1)
    invalid(`${path} in body must match exactly one schema in oneOf`);
  if (s.not && validateValue(view, s.not, value, path).length === 0)
    invalid(`${path} in body should not match the schema`);
}

type Invalid = (message: string) => void;

function checkString(s: OpenAPISchema, value: string, path: string, out: FieldProblem[], invalid: Invalid): void {
  const length = [...value].length;
  if (s.maxLength !== undefined && length > s.maxLength) {
    out.push({
      field: path,
      reason: 'FieldValueTooLong',
      message: `Too long: may not be more than ${s.maxLength} bytes`,
    });
  }
  if (s.minLength !== undefined && length < s.minLength)
    invalid(`${path} in body should be at least ${s.minLength} chars long`);
  if (s.pattern !== undefined && !new RegExp(s.pattern, 'u').test(value))
    invalid(`${path} in body should match '${s.pattern}'`);
  if (s.format === 'date-time' && Number.isNaN(Date.parse(value)))
    invalid(`${path} in body must be of type date-time: ${show(value)}`);
}

function checkNumber(s: OpenAPISchema, value: number, path: string, invalid: Invalid): void {
  if (s.minimum !== undefined) {
    if (s.exclusiveMinimum ? value <= s.minimum : value < s.minimum) {
      invalid(`${path} in body should be greater than ${s.exclusiveMinimum ? '' : 'or equal to '}${s.minimum}`);
    }
  }
  if (s.maximum !== undefined) {
    if (s.exclusiveMaximum ? value >= s.maximum : value > s.maximum) {
      invalid(`${path} in body should be less than ${s.exclusiveMaximum ? '' : 'or equal to '}${s.maximum}`);
    }
  }
  if (s.multipleOf !== undefined && value % s.multipleOf !== 0)
    invalid(`${path} in body should be a multiple of ${s.multipleOf}`);
}

function checkArray(
  view: SchemaView,
  s: OpenAPISchema,
  value: unknown[],
  path: string,
  out: FieldProblem[],
  invalid: Invalid,
): void {
  if (s.maxItems !== undefined && value.length > s.maxItems) {
    out.push({
      field: path,
      reason: 'FieldValueTooMany',
      message: `Too many: ${value.length}: must have at most ${s.maxItems} items`,
    });
  }
  if (s.minItems !== undefined && value.length < s.minItems)
    invalid(`${path} in body should have at least ${s.minItems} items`);
  const listType = s['x-kubernetes-list-type'];
  if (s.uniqueItems || listType === 'set' || listType === 'map') {
    const keys = s['x-kubernetes-list-map-keys'] ?? [];
    const seen = new Set<string>();
    value.forEach((item, i) => {
      const id =
        listType === 'map' && isPlainObject(item)
          ? JSON.stringify(Object.fromEntries(keys.map((k) => [k, item[k]])))
          : JSON.stringify(item);
      if (seen.has(id))
        out.push({ field: `${path}[${i}]`, reason: 'FieldValueDuplicate', message: `Duplicate value: ${id}` });
      seen.add(id);
    });
  }
  if (s.items) {
    const items = view.resolve(s.items);
    value.forEach((item, i) => check(view, items, item, `${path}[${i}]`, out));
  }
}

function checkObject(
  view: SchemaView,
  s: OpenAPISchema,
  value: Record<string, unknown>,
  path: string,
  out: FieldProblem[],
  invalid: Invalid,
): void {
  const prefix = path ? `${path}.` : '';
  for (const field of s.required ?? []) {
    if (value[field] === undefined)
      out.push({ field: `${prefix}${field}`, reason: 'FieldValueRequired', message: 'Required value' });
  }
  const count = Object.keys(value).length;
  if (s.maxProperties !== undefined && count > s.maxProperties) {
    out.push({
      field: path,
      reason: 'FieldValueTooMany',
      message: `Too many: ${count}: must have at most ${s.maxProperties} items`,
    });
  }
  if (s.minProperties !== undefined && count < s.minProperties)
    invalid(`${path} in body should have at least ${s.minProperties} properties`);
  for (const [key, child] of Object.entries(value)) {
    if (child === undefined) continue;
    const declared = s.properties?.[key];
    if (declared) check(view, view.resolve(declared), child, `${prefix}${key}`, out);
    else if (typeof s.additionalProperties === 'object')
      check(view, view.resolve(s.additionalProperties), child, path ? `${path}[${key}]` : key, out);
  }
}
