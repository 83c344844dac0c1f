// Rules several kinds share: networks, quantities, durations, lists without duplicates, references.
import { type FieldError, FieldPath, duplicate, invalid, notSupported, required } from './field.js';
import { parseDuration, parseQuantity } from './formats.js';
import { type ParsedCIDR, cidrsOverlap, parseCIDR } from './net.js';

export interface Network {
  path: FieldPath;
  value: string;
  cidr: ParsedCIDR;
}

/** A network range must parse and must not have host bits set. */
export function validateCIDR(value: string | undefined, path: FieldPath, errors: FieldError[]): Network | undefined {
  if (value === undefined) return undefined;
  const cidr = parseCIDR(value);
  if (!cidr) {
    errors.push(invalid(path, value, 'must be a valid CIDR'));
    return undefined;
  }
  if (!cidr.canonical) {
    errors.push(invalid(path, value, 'must be valid canonical CIDR'));
    return undefined;
  }
  return { path, value, cidr };
}

/** Every network of the list must be disjoint from the ones before it. */
export function validateDisjoint(networks: readonly (Network | undefined)[]): FieldError[] {
  const errors: FieldError[] = [];
  const present = networks.filter((n): n is Network => n !== undefined);
  present.forEach((network, i) => {
    for (const earlier of present.slice(0, i)) {
      if (cidrsOverlap(network.cidr, earlier.cidr)) {
        errors.push(
          invalid(network.path, network.value, `must not overlap with "${earlier.path}" ("${earlier.value}")`),
        );
      }
    }
  });
  return errors;
}

export function validateIPFamilies(families: readonly string[] | undefined, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  (families ?? []).forEach((family, i) => {
    if (family !== 'IPv4' && family !== 'IPv6') errors.push(notSupported(path.index(i), family, ['IPv4', 'IPv6']));
    if (seen.has(family)) errors.push(duplicate(path.index(i), family));
    seen.add(family);
  });
  return errors;
}

export function validateQuantity(
  value: string | number | undefined,
  path: FieldPath,
  options: { positive?: boolean } = {},
): FieldError[] {
  if (value === undefined) return [];
  const parsed = parseQuantity(value);
  if (parsed === undefined)
    return [
      invalid(
        path,
        value,
        "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
      ),
    ];
  if (parsed < 0) return [invalid(path, value, 'must be greater than or equal to 0')];
  if (options.positive && parsed === 0) return [invalid(path, value, 'must be greater than 0')];
  return [];
}

export function validateResourceList(list: Record<string, string | number> | undefined, path: FieldPath): FieldError[] {
  return Object.entries(list ?? {}).flatMap(([name, quantity]) => validateQuantity(quantity, path.key(name)));
}

/** A Go duration within bounds (milliseconds). */
export function validateDuration(
  value: string | undefined,
  path: FieldPath,
  bounds: { min?: number; max?: number; minText?: string; maxText?: string } = { min: 0, minText: '0s' },
): FieldError[] {
  if (value === undefined) return [];
  const ms = parseDuration(value);
  if (ms === undefined) return [invalid(path, value, 'must be a valid duration (e.g. "90s", "5m", "1h30m")')];
  if (bounds.min !== undefined && ms < bounds.min)
    return [invalid(path, value, `must be at least ${bounds.minText ?? `${bounds.min}ms`}`)];
  if (bounds.max !== undefined && ms > bounds.max)
    return [invalid(path, value, `must be at most ${bounds.maxText ?? `${bounds.max}ms`}`)];
  return [];
}

export function validateNonNegative(value: number | undefined, path: FieldPath): FieldError[] {
  return value !== undefined && value < 0 ? [invalid(path, value, 'must be greater than or equal to 0')] : [];
}

/** Duplicate keys of a list, reported at the item's key field. */
export function validateUnique<T>(
  items: readonly T[] | undefined,
  path: FieldPath,
  key: (item: T) => string | undefined,
  keyField?: string,
): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  (items ?? []).forEach((item, i) => {
    const value = key(item);
    if (value === undefined || value === '') return;
    if (seen.has(value)) errors.push(duplicate(keyField ? path.index(i).child(keyField) : path.index(i), value));
    seen.add(value);
  });
  return errors;
}

export function validateStringEnum(
  value: string | undefined,
  path: FieldPath,
  supported: readonly string[],
): FieldError[] {
  return value !== undefined && !supported.includes(value) ? [notSupported(path, value, supported)] : [];
}

export function validateExtensions(
  extensions: readonly { type?: string }[] | undefined,
  path: FieldPath,
): FieldError[] {
  const errors: FieldError[] = [];
  (extensions ?? []).forEach((extension, i) => {
    if (!extension.type) errors.push(required(path.index(i).child('type'), 'field must not be empty'));
  });
  errors.push(...validateUnique(extensions, path, (e) => e.type, 'type'));
  return errors;
}

export function validateNamedResources(
  resources:
    readonly { name?: string; resourceRef?: { kind?: string; name?: string; apiVersion?: string } }[] | undefined,
  path: FieldPath,
): FieldError[] {
  const errors: FieldError[] = [];
  (resources ?? []).forEach((resource, i) => {
    const p = path.index(i);
    if (!resource.name) errors.push(required(p.child('name'), 'field must not be empty'));
    if (!resource.resourceRef?.kind) errors.push(required(p.child('resourceRef', 'kind'), 'field must not be empty'));
    if (!resource.resourceRef?.name) errors.push(required(p.child('resourceRef', 'name'), 'field must not be empty'));
    if (!resource.resourceRef?.apiVersion)
      errors.push(required(p.child('resourceRef', 'apiVersion'), 'field must not be empty'));
  });
  errors.push(...validateUnique(resources, path, (r) => r.name, 'name'));
  return errors;
}

/** Gardener-style tolerations `{key, value?}`: key required, each key at most once. */
export function validateTolerations(
  tolerations: readonly { key?: string; value?: string }[] | undefined,
  path: FieldPath,
): FieldError[] {
  const errors: FieldError[] = [];
  (tolerations ?? []).forEach((t, i) => {
    if (!t.key) errors.push(required(path.index(i).child('key'), 'cannot be empty'));
  });
  errors.push(...validateUnique(tolerations, path, (t) => t.key, 'key'));
  return errors;
}

export function validateRequired<T>(value: T | undefined, path: FieldPath, detail?: string): FieldError[] {
  return value === undefined || value === null || (typeof value === 'string' && value === '')
    ? [required(path, detail)]
    : [];
}

export const root = FieldPath.root;
