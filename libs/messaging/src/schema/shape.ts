// Checks a plain object against a protobuf message type before encoding: protobufjs' fromObject would coerce a wrong
// type ("abc" → 0) or drop an unknown enum name without a word.
import protobuf from 'protobufjs/light.js';

const INTEGER = new Set([
  'int32',
  'uint32',
  'sint32',
  'fixed32',
  'sfixed32',
  'int64',
  'uint64',
  'sint64',
  'fixed64',
  'sfixed64',
]);
const UNSIGNED = new Set(['uint32', 'fixed32', 'uint64', 'fixed64']);
const RANGE_32: Record<string, [number, number]> = {
  int32: [-(2 ** 31), 2 ** 31 - 1],
  sint32: [-(2 ** 31), 2 ** 31 - 1],
  sfixed32: [-(2 ** 31), 2 ** 31 - 1],
  uint32: [0, 2 ** 32 - 1],
  fixed32: [0, 2 ** 32 - 1],
};

/** Returns a description of the first problem, or undefined when the value fits the type. */
export function checkShape(type: protobuf.Type, value: unknown, path: string): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return `${path}: expected an object, got ${describe(value)}`;
  const setOneofMembers = new Map<string, string>();
  for (const [key, fieldValue] of Object.entries(value)) {
    if (fieldValue === undefined) continue;
    const oneof = type.oneofs?.[key];
    if (oneof) {
      if (typeof fieldValue !== 'string' || !oneof.oneof.includes(fieldValue))
        return `${path}.${key}: expected one of ${oneof.oneof.join(', ')}`;
      continue;
    }
    const field = type.fields[key];
    if (!field) return `${path}.${key}: no such field (known: ${Object.keys(type.fields).join(', ')})`;
    if (field.partOf) {
      const other = setOneofMembers.get(field.partOf.name);
      if (other) return `${path}: ${other} and ${key} are both set, but only one member of ${field.partOf.name} may be`;
      setOneofMembers.set(field.partOf.name, key);
    }
    const problem = field.repeated
      ? checkList(field, fieldValue, `${path}.${key}`)
      : checkField(field, fieldValue, `${path}.${key}`);
    if (problem) return problem;
  }
  return undefined;
}

function checkList(field: protobuf.Field, value: unknown, path: string): string | undefined {
  if (!Array.isArray(value)) return `${path}: expected a list, got ${describe(value)}`;
  for (const [i, item] of value.entries()) {
    const problem = checkField(field, item, `${path}[${i}]`);
    if (problem) return problem;
  }
  return undefined;
}

function checkField(field: protobuf.Field, value: unknown, path: string): string | undefined {
  const resolved = field.resolvedType;
  if (resolved instanceof protobuf.Type) return checkShape(resolved, value, path);
  if (resolved instanceof protobuf.Enum) {
    const known =
      typeof value === 'string' ? value in resolved.values : Object.values(resolved.values).includes(value as number);
    return known
      ? undefined
      : `${path}: ${describe(value)} is not a value of ${resolved.name} (${Object.keys(resolved.values).join(', ')})`;
  }
  switch (field.type) {
    case 'string':
      return typeof value === 'string' ? undefined : `${path}: expected a string, got ${describe(value)}`;
    case 'bool':
      return typeof value === 'boolean' ? undefined : `${path}: expected a boolean, got ${describe(value)}`;
    case 'bytes':
      return value instanceof Uint8Array ? undefined : `${path}: expected bytes (Uint8Array), got ${describe(value)}`;
    case 'double':
    case 'float':
      return typeof value === 'number' ? undefined : `${path}: expected a number, got ${describe(value)}`;
  }
  if (INTEGER.has(field.type)) {
    if (typeof value !== 'number' || !Number.isSafeInteger(value))
      return `${path}: expected an integer, got ${describe(value)}`;
    if (UNSIGNED.has(field.type) && value < 0) return `${path}: expected a non-negative integer, got ${value}`;
    const range = RANGE_32[field.type];
    if (range && (value < range[0] || value > range[1])) return `${path}: ${value} does not fit ${field.type}`;
    return undefined;
  }
  return `${path}: unsupported field type ${field.type}`;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? value.slice(0, 40) + '…' : value);
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}
