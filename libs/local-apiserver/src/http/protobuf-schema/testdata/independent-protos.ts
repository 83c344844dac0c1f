// Test support: the .proto fixtures next to this file, written by hand from k8s.io/api and k8s.io/apimachinery
// generated.proto (v1.35) and independent of the message tables in protobuf-schema/. Tests encode real protobuf bytes
// with them, the way client-go does, and feed those bytes to the decoder under test.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const FILES = [
  'meta.proto',
  'runtime.proto',
  'resource.proto',
  'core.proto',
  'discovery.proto',
  'events.proto',
  'storage.proto',
];

/** The four bytes every kube protobuf body starts with (`k8s\0`). */
const MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

let cached: protobuf.Root | undefined;

export function independentRoot(): protobuf.Root {
  if (!cached) {
    const root = new protobuf.Root();
    for (const file of FILES) protobuf.parse(readFileSync(join(HERE, file), 'utf8'), root, { keepCase: true });
    root.resolveAll();
    cached = root;
  }
  return cached;
}

/** Encodes `object` (protobufjs object form) as `typeName` and wraps it like client-go: `k8s\0` + runtime.Unknown. */
export function kubeProtobufBody(
  apiVersion: string,
  kind: string,
  typeName: string,
  object: Record<string, unknown>,
): Buffer {
  const root = independentRoot();
  const type = root.lookupType(typeName);
  const problem = type.verify(object);
  if (problem) throw new Error(`${typeName}: ${problem}`);
  const raw = type.encode(type.fromObject(object)).finish();
  const unknown = root.lookupType('k8s.io.apimachinery.pkg.runtime.Unknown');
  const body = unknown
    .encode(unknown.fromObject({ typeMeta: { apiVersion, kind }, raw, contentEncoding: '', contentType: '' }))
    .finish();
  return Buffer.concat([MAGIC, body]);
}

const META = 'k8s.io.apimachinery.pkg.apis.meta.v1';

/** Go types embedded with `json:",inline"` in the fixtures' messages. */
const INLINE: Record<string, string> = {
  'k8s.io.api.core.v1.PersistentVolumeSpec': 'persistentVolumeSource',
  'k8s.io.api.core.v1.Volume': 'volumeSource',
  'k8s.io.api.core.v1.VolumeMountStatus': 'volumeStatus',
};

/** RFC 3339 (with optional fraction) → {seconds, nanos}. */
function timestamp(value: string): { seconds: number; nanos: number } {
  const m = /^(.*?)(?:\.(\d+))?Z$/.exec(value);
  if (!m) throw new Error(`bad time ${value}`);
  return { seconds: Date.parse(`${m[1]}Z`) / 1000, nanos: m[2] ? Number(m[2].padEnd(9, '0')) : 0 };
}

/**
 * The JSON form Go prints → the protobufjs object form of the fixture message (names match; quantities, times and
 * inlined structs differ). Keys without a field in the fixture fail the test.
 */
export function toFixture(type: protobuf.Type, json: Record<string, unknown>, top = true): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const inline = INLINE[type.fullName.slice(1)];
  for (const [key, value] of Object.entries(json)) {
    if (top && (key === 'apiVersion' || key === 'kind')) continue;
    const field = type.fields[key];
    if (!field && inline) {
      const inner = type.fields[inline].resolve().resolvedType as protobuf.Type;
      out[inline] = { ...(out[inline] as object), ...toFixture(inner, { [key]: value }, false) };
      continue;
    }
    if (!field) throw new Error(`${type.fullName} has no field ${key}`);
    field.resolve();
    const convert = (v: unknown): unknown => {
      const t = field.resolvedType;
      if (!(t instanceof protobuf.Type)) return v;
      const name = t.fullName.slice(1);
      if (name === `${META}.Time` || name === `${META}.MicroTime`) return v === null ? {} : timestamp(v as string);
      if (name === 'k8s.io.apimachinery.pkg.api.resource.Quantity') return { string: v };
      return toFixture(t, v as Record<string, unknown>, false);
    };
    if (field.map) out[key] = Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, convert(v)]));
    else if (field.repeated) out[key] = (value as unknown[]).map(convert);
    else out[key] = convert(value);
  }
  return out;
}

/** kubeProtobufBody for an object in the JSON form Go prints (quantities, times and inlined structs converted). */
export function kubeProtobufBodyFromJson(typeName: string, json: Record<string, unknown>): Buffer {
  const { apiVersion, kind } = json as { apiVersion: string; kind: string };
  return kubeProtobufBody(apiVersion, kind, typeName, toFixture(independentRoot().lookupType(typeName), json));
}
