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

/** A refusal of a configuration (Gardener's `admission.Errored(code, err)`): 422 invalid, 500 internal. */
export interface ConfigRefusal {
  code: number;
  message: string;
}

/**
 * Decodes `raw` into `type` as Gardener's ConfigMap validators do, or refuses it with their messages: a kind of the
 * scheme that is not `type` is a failed cast (500 `failed to cast to <purpose> type: ...`), anything else that does
 * not decode is invalid (422 `failed to decode the provided <purpose>: ...`).
 */
export function decodeConfigOrRefuse(
  raw: string,
  type: ConfigType,
  purpose: string,
): { object: Record<string, any>; version: string } | { refusal: ConfigRefusal } {
  const decoded = decodeConfig(raw, type);
  if (!('error' in decoded)) return decoded;
  return {
    refusal: decoded.cast
      ? { code: 500, message: `failed to cast to ${purpose} type: ${decoded.error}` }
      : { code: 422, message: `failed to decode the provided ${purpose}: ${decoded.error}` },
  };
}

/** The kinds of kube-apiserver's `apiserver.config.k8s.io` scheme (v1alpha1, v1beta1) the structured configurations share. */
const APISERVER_CONFIG_KINDS = [
  'AuthenticationConfiguration',
  'AuthorizationConfiguration',
  'EgressSelectorConfiguration',
  'TracingConfiguration',
];

/** A kind of the `apiserver.config.k8s.io` scheme (structured authentication or authorization configuration). */
export function apiserverConfigType(kind: string, schema: GoSchema): ConfigType {
  return {
    group: 'apiserver.config.k8s.io',
    versions: ['v1alpha1', 'v1beta1'],
    kind,
    otherKinds: APISERVER_CONFIG_KINDS.filter((k) => k !== kind),
    schema,
  };
}

/** A decoded JSON value as a list (empty when it is none). */
export const asList = (value: unknown): any[] => (Array.isArray(value) ? value : []);
/** A decoded JSON value as a string (empty when it is none). */
export const asText = (value: unknown): string => (typeof value === 'string' ? value : '');
