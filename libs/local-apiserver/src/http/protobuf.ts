// Decoding `application/vnd.kubernetes.protobuf` request bodies into the JSON object form.
//
// client-go's typed clients (kubectl create configmap|secret|deployment|..., auth can-i, certificate approve)
// send POST/PUT bodies as protobuf and do not fall back to JSON on 415. The body is kube's envelope:
// the magic `k8s\0`, then a runtime.Unknown{typeMeta, raw, contentEncoding, contentType} whose `raw` is the
// object encoded with the message type of its kind. We decode it with the message tables of protobuf-schema/
// and turn the message into what Go's encoding/json would print for the same object.
import protobuf from 'protobufjs';
import { formatGoDuration } from '@gardener-ts/api';
import { ApiError } from '../api/errors.js';
import type { KubeObject } from '../storage/types.js';
import { KEEP_ZERO_OPTION, protobufNamespace } from './protobuf-schema/index.js';

export const PROTOBUF_MEDIA_TYPE = 'application/vnd.kubernetes.protobuf';

/** The four bytes every kube protobuf body starts with. */
export const PROTOBUF_MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

const META_PKG = 'k8s.io.apimachinery.pkg.apis.meta';
const META = `${META_PKG}.v1`;
const RUNTIME = 'k8s.io.apimachinery.pkg.runtime';

/** Kinds of meta.k8s.io/v1 that client-go registers in every group version (DeleteOptions in a DELETE body, ...). */
const META_KINDS = new Set([
  'DeleteOptions',
  'CreateOptions',
  'UpdateOptions',
  'PatchOptions',
  'GetOptions',
  'ListOptions',
  'Status',
  'WatchEvent',
]);

/** Go types embedded with `json:",inline"`: their fields are written at the level of the containing object. */
export const INLINE_FIELDS: ReadonlySet<string> = new Set([
  'k8s.io.api.core.v1.ConfigMapEnvSource.localObjectReference',
  'k8s.io.api.core.v1.ConfigMapKeySelector.localObjectReference',
  'k8s.io.api.core.v1.ConfigMapProjection.localObjectReference',
  'k8s.io.api.core.v1.ConfigMapVolumeSource.localObjectReference',
  'k8s.io.api.core.v1.SecretEnvSource.localObjectReference',
  'k8s.io.api.core.v1.SecretKeySelector.localObjectReference',
  'k8s.io.api.core.v1.SecretProjection.localObjectReference',
  'k8s.io.api.core.v1.EphemeralContainer.ephemeralContainerCommon',
  'k8s.io.api.core.v1.Volume.volumeSource',
  'k8s.io.api.core.v1.PersistentVolumeSpec.persistentVolumeSource',
  'k8s.io.api.core.v1.VolumeMountStatus.volumeStatus',
  'k8s.io.api.core.v1.Probe.handler',
  'k8s.io.api.networking.v1.IngressRule.ingressRuleValue',
  `${RUNTIME}.Unknown.typeMeta`,
]);

/** Time fields Go leaves out of JSON when zero (`omitzero`), like Kubernetes 1.35 does for creationTimestamp. */
const OMIT_ZERO_TIME = new Set([`${META}.ObjectMeta.creationTimestamp`]);

/** Wrapper messages that Go marshals as a bare array (`+protobuf.nullable=true` string slices). */
const ARRAY_WRAPPERS = new Set(['Verbs', 'ExtraValue']);

const ZERO_TIME_SECONDS = -62135596800; // Go's time.Time{}.Unix()

let cachedRoot: protobuf.Root | undefined;
function root(): protobuf.Root {
  if (!cachedRoot) {
    cachedRoot = protobuf.Root.fromJSON(protobufNamespace());
    cachedRoot.resolveAll();
  }
  return cachedRoot;
}

function unsupported(): ApiError {
  return new ApiError(
    415,
    'UnsupportedMediaType',
    'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml',
  );
}

/** The proto package of an apiVersion: `v1` → k8s.io.api.core.v1, `rbac.authorization.k8s.io/v1` → k8s.io.api.rbac.v1. */
export function protoPackage(apiVersion: string, kind?: string): string {
  const slash = apiVersion.indexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
  if (group === 'meta.k8s.io' || (kind && META_KINDS.has(kind)))
    return `${META_PKG}.${version === 'v1beta1' ? 'v1' : version}`;
  const name = group === '' ? 'core' : group.split('.')[0];
  return `k8s.io.api.${name}.${version}`;
}

/** The message type for an apiVersion/kind, or undefined when the vendored protos do not define it. */
export function protoRoot(): protobuf.Root {
  return root();
}

export function lookupKind(apiVersion: string, kind: string): protobuf.Type | undefined {
  if (!apiVersion || !kind) return undefined;
  const found = root().lookup(`${protoPackage(apiVersion, kind)}.${kind}`);
  return found instanceof protobuf.Type ? found : undefined;
}

export function isProtobufEnvelope(body: Buffer): boolean {
  return body.length >= 4 && body.subarray(0, 4).equals(PROTOBUF_MAGIC);
}

/**
 * Decodes a kube protobuf body (magic + runtime.Unknown) into the JSON object form.
 * `expect` optionally supplies the apiVersion/kind to use when the envelope leaves them empty.
 * Unknown kinds, or bodies that are not a kube envelope, give 415 like kube-apiserver.
 */
export function decodeProtobufObject(body: Buffer, expect?: { apiVersion?: string; kind?: string }): KubeObject {
  if (!isProtobufEnvelope(body)) throw unsupported();
  let unknown: Record<string, unknown>;
  try {
    unknown = root().lookupType(`${RUNTIME}.Unknown`).decode(body.subarray(4)) as unknown as Record<string, unknown>;
  } catch {
    throw new ApiError(400, 'BadRequest', 'the body of the request could not be decoded as protobuf');
  }
  if (unknown.contentEncoding) throw unsupported();
  const typeMeta = (unknown.typeMeta ?? {}) as { apiVersion?: string; kind?: string };
  const apiVersion = typeMeta.apiVersion || expect?.apiVersion || '';
  const kind = typeMeta.kind || expect?.kind || '';
  const type = lookupKind(apiVersion, kind);
  if (!type) throw unsupported();
  const raw = (unknown.raw as Uint8Array | undefined) ?? new Uint8Array();
  let message: protobuf.Message;
  try {
    message = type.decode(raw);
  } catch (err) {
    throw new ApiError(
      400,
      'BadRequest',
      `the body of the request could not be decoded as ${kind}: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  return { apiVersion, kind, ...messageToJson(type, message as unknown as Record<string, unknown>) } as KubeObject;
}

/** A decoded message as Go's encoding/json would print the corresponding API struct. */
export function messageToJson(type: protobuf.Type, message: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of type.fieldsArray) {
    const value = message[field.name];
    if (field.map) {
      const entries = Object.entries((value ?? {}) as Record<string, unknown>);
      if (entries.length === 0) continue;
      out[field.name] = Object.fromEntries(entries.map(([k, v]) => [k, convertValue(field, v)]));
      continue;
    }
    if (field.repeated) {
      const items = (value ?? []) as unknown[];
      // Go prints an empty slice without `omitempty` as null (protobuf cannot tell nil from empty).
      if (items.length === 0 && field.options?.[KEEP_ZERO_OPTION]) out[field.name] = null;
      if (items.length === 0) continue;
      out[field.name] = items.map((v) => convertValue(field, v));
      continue;
    }
    if (!Object.prototype.hasOwnProperty.call(message, field.name) || value === undefined || value === null) continue;
    // Go writes plain scalars to the wire even when zero and leaves them out of JSON (`omitempty`); pointers and
    // fields without omitempty are marked in the schema and printed whenever they are on the wire.
    if (isZeroScalar(field, value) && !field.options?.[KEEP_ZERO_OPTION]) continue;
    const converted = convertValue(field, value);
    if (converted === null && OMIT_ZERO_TIME.has(`${type.fullName.slice(1)}.${field.name}`)) continue;
    if (INLINE_FIELDS.has(`${type.fullName.slice(1)}.${field.name}`) && isPlainObject(converted)) {
      Object.assign(out, converted);
      continue;
    }
    out[field.name] = converted;
  }
  return out;
}

function convertValue(field: protobuf.Field, value: unknown): unknown {
  field.resolve();
  const resolved = field.resolvedType;
  if (resolved instanceof protobuf.Type) return convertMessage(resolved, value as Record<string, unknown>);
  if (resolved instanceof protobuf.Enum) return value;
  switch (field.type) {
    case 'bytes':
      return Buffer.from(value as Uint8Array).toString('base64');
    case 'int64':
    case 'uint64':
    case 'sint64':
    case 'fixed64':
    case 'sfixed64':
      return toNumber(value);
    default:
      return value;
  }
}

function convertMessage(type: protobuf.Type, message: Record<string, unknown>): unknown {
  const name = type.fullName.slice(1);
  switch (name) {
    case `${META}.Time`:
      return formatTime(message, false);
    case `${META}.MicroTime`:
      return formatTime(message, true);
    case `${META}.Duration`:
      return formatDuration(toNumber(message.duration ?? 0));
    case 'k8s.io.apimachinery.pkg.api.resource.Quantity':
      return (message.string as string | undefined) ?? '0';
    case 'k8s.io.apimachinery.pkg.util.intstr.IntOrString':
      return toNumber(message.type ?? 0) === 1
        ? ((message.strVal as string | undefined) ?? '')
        : ((message.intVal as number | undefined) ?? 0);
    case `${RUNTIME}.RawExtension`:
      return rawJson(message.raw as Uint8Array | undefined);
    case `${META}.FieldsV1`:
      return rawJson(message.Raw as Uint8Array | undefined);
  }
  if (ARRAY_WRAPPERS.has(type.name) && type.fieldsArray.length === 1 && type.fieldsArray[0].name === 'items') {
    return ((message.items ?? []) as unknown[]).map((v) => convertValue(type.fieldsArray[0], v));
  }
  return messageToJson(type, message);
}

/** RawExtension/FieldsV1 bytes: JSON as is, a nested kube protobuf object decoded, nil as null. */
function rawJson(raw: Uint8Array | undefined): unknown {
  if (!raw || raw.length === 0) return null;
  const buf = Buffer.from(raw);
  if (isProtobufEnvelope(buf)) return decodeProtobufObject(buf);
  try {
    return JSON.parse(buf.toString('utf8'));
  } catch {
    return buf.toString('utf8');
  }
}

function toNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string') return Number(value);
  if (value && typeof value === 'object' && 'low' in value && 'high' in value) {
    const long = value as { low: number; high: number; unsigned?: boolean; toNumber?: () => number };
    if (typeof long.toNumber === 'function') return long.toNumber();
    return long.high * 4294967296 + (long.low >>> 0);
  }
  return Number(value);
}

function isZeroScalar(field: protobuf.Field, value: unknown): boolean {
  field.resolve();
  if (field.resolvedType) return false;
  if (value === '' || value === false) return true;
  if (value instanceof Uint8Array) return value.length === 0;
  return (
    (typeof value === 'number' || (typeof value === 'object' && value !== null && 'low' in value)) &&
    toNumber(value) === 0
  );
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * metav1.Time → RFC3339 (seconds), metav1.MicroTime → RFC3339 with 6 fractional digits; Go's zero time → null.
 * Go marshals a zero Time as an empty message (the template `creationTimestamp` kubectl sends); the seconds of
 * year 1 are the zero time too.
 */
function formatTime(message: Record<string, unknown>, micro: boolean): string | null {
  const own = (key: string) => Object.prototype.hasOwnProperty.call(message, key);
  if (!own('seconds') && !own('nanos')) return null;
  const seconds = toNumber(message.seconds ?? 0);
  const nanos = toNumber(message.nanos ?? 0);
  if (seconds === ZERO_TIME_SECONDS && nanos === 0) return null;
  const iso = new Date(seconds * 1000).toISOString().slice(0, 19);
  if (!micro) return `${iso}Z`;
  return `${iso}.${String(Math.floor(nanos / 1000)).padStart(6, '0')}Z`;
}

/** Go's time.Duration.String() of nanoseconds: 1h2m3.5s, 150ms, 2µs, 0s (the one implementation in @gardener-ts/api). */
export function formatDuration(ns: number): string {
  return formatGoDuration(BigInt(Math.trunc(ns)));
}
