// How kube's universal decoder reads a configuration file Gardener's ConfigMap validators check (audit policy,
// authentication/authorization configuration): YAML, apiVersion and kind first, then a typed JSON decode whose
// type mismatches are Go's `json: cannot unmarshal ...` errors. Unknown fields are ignored (the decoder is not strict).
import { parse } from 'yaml';

/** The Go type a JSON value decodes into, as far as the validators need it. */
export type GoSchema =
  | { kind: 'scalar'; json: 'string' | 'bool' | 'number'; go: string }
  | { kind: 'array'; of: GoSchema; go: string }
  | { kind: 'map'; of: GoSchema; go: string }
  | { kind: 'struct'; name: string; go: string; fields: Record<string, GoSchema> };

export const goString = (go = 'string'): GoSchema => ({ kind: 'scalar', json: 'string', go });
export const goBool: GoSchema = { kind: 'scalar', json: 'bool', go: 'bool' };
export const goArray = (of: GoSchema): GoSchema => ({ kind: 'array', of, go: `[]${of.go}` });
export const goStruct = (go: string, fields: Record<string, GoSchema>): GoSchema => ({
  kind: 'struct',
  name: go.slice(go.lastIndexOf('.') + 1),
  go,
  fields,
});

const jsonType = (value: unknown): string =>
  Array.isArray(value)
    ? 'array'
    : typeof value === 'boolean'
      ? 'bool'
      : typeof value === 'number'
        ? 'number'
        : typeof value === 'object'
          ? 'object'
          : 'string';

/** The first type mismatch of `value` against `schema`, worded as Go's encoding/json reports it. */
export function goTypeError(
  value: unknown,
  schema: GoSchema,
  context: { struct: string; field: string },
): string | undefined {
  if (value === null || value === undefined) return undefined;
  const mismatch = () =>
    `json: cannot unmarshal ${jsonType(value)} into Go struct field ${context.struct}.${context.field} of type ${schema.go}`;
  switch (schema.kind) {
    case 'scalar':
      return jsonType(value) === schema.json ? undefined : mismatch();
    case 'array':
      if (!Array.isArray(value)) return mismatch();
      for (const item of value) {
        const error = goTypeError(item, schema.of, context);
        if (error) return error;
      }
      return undefined;
    case 'map':
      if (jsonType(value) !== 'object') return mismatch();
      for (const item of Object.values(value as object)) {
        const error = goTypeError(item, schema.of, context);
        if (error) return error;
      }
      return undefined;
    case 'struct':
      if (jsonType(value) !== 'object') return mismatch();
      for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
        const field = schema.fields[key];
        if (!field) continue;
        const error = goTypeError(item, field, {
          struct: schema.name,
          field: context.field ? `${context.field}.${key}` : key,
        });
        if (error) return error;
      }
      return undefined;
  }
}

/** A configuration kind the decoder knows: its group, versions, and the kinds registered besides it. */
export interface ConfigType {
  group: string;
  versions: readonly string[];
  kind: string;
  /** Other kinds registered in the scheme: decoding one of them is a failed cast (500). */
  otherKinds: readonly string[];
  schema: GoSchema;
}

/** The decoded configuration, or the decoder's error (`cast`: a registered kind of another type). */
export type Decoded =
  { object: Record<string, any>; version: string } | { error: string; cast?: false } | { error: string; cast: true };

/** Decodes `raw` as kube's universal decoder decodes it into `type`. */
export function decodeConfig(raw: string, type: ConfigType): Decoded {
  let value: unknown;
  try {
    value = parse(raw);
  } catch (err) {
    return { error: `error converting YAML to JSON: ${(err as Error).message}` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return {
      error: `couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonType(value)} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`,
    };
  const object = value as Record<string, any>;
  const kind = typeof object.kind === 'string' ? object.kind : '';
  const apiVersion = typeof object.apiVersion === 'string' ? object.apiVersion : '';
  if (!kind) return { error: `Object 'Kind' is missing in '${raw}'` };
  if (!apiVersion) return { error: `Object 'apiVersion' is missing in '${raw}'` };
  const slash = apiVersion.lastIndexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
  const registered = group === type.group && type.versions.includes(version);
  if (!registered || (kind !== type.kind && !type.otherKinds.includes(kind)))
    return { error: `no kind "${kind}" is registered for version "${apiVersion}"` };
  if (kind !== type.kind) return { error: `${group}/${version}, Kind=${kind}`, cast: true };
  const typeError = goTypeError(object, type.schema, { struct: '', field: '' });
  if (typeError) return { error: typeError };
  return { object, version };
}
