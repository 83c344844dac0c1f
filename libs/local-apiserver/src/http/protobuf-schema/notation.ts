// The notation of the message tables: for each message its fields as `name number type`, where type is a scalar
// (`string`, `int32`, `int64`, `bool`, `bytes`), a message (a full name, or a name relative to the message's own
// package like in a .proto file), `repeated T` or `map<K,V>`. Names are the JSON names of the Go API types.
//
// A `*` before a scalar type (`replicas 1 *int32`) marks a field whose zero value is meaningful: a Go pointer
// (`*int32`, `*bool`, `*string`) or a field without `omitempty`. Go writes those to the wire only when set and prints
// them in JSON even when zero, while other scalars are always on the wire and left out of JSON when zero.
// `repeated *T` marks a list without `omitempty`, which Go prints as null when empty.
// Field numbers are the Kubernetes wire format (k8s.io/api generated.proto), facts of the protocol.
import type protobuf from 'protobufjs';

export type MessageTable = Record<string, string[]>;

export const RUNTIME = 'k8s.io.apimachinery.pkg.runtime';
export const META = 'k8s.io.apimachinery.pkg.apis.meta.v1';
export const INTSTR = 'k8s.io.apimachinery.pkg.util.intstr.IntOrString';
export const QUANTITY = 'k8s.io.apimachinery.pkg.api.resource.Quantity';
export const CORE = 'k8s.io.api.core.v1';
export const APPS = 'k8s.io.api.apps.v1';
export const AUTOSCALING = 'k8s.io.api.autoscaling.v1';
export const AUTOSCALING_V2 = 'k8s.io.api.autoscaling.v2';
export const BATCH = 'k8s.io.api.batch.v1';
export const NETWORKING = 'k8s.io.api.networking.v1';
export const POLICY = 'k8s.io.api.policy.v1';
export const RBAC = 'k8s.io.api.rbac.v1';
export const SCHEDULING = 'k8s.io.api.scheduling.v1';
export const AUTHN = 'k8s.io.api.authentication.v1';
export const AUTHZ = 'k8s.io.api.authorization.v1';
export const CERTS = 'k8s.io.api.certificates.v1';
export const DISCOVERY = 'k8s.io.api.discovery.v1';
export const EVENTS = 'k8s.io.api.events.v1';
export const STORAGE = 'k8s.io.api.storage.v1';

/** The protobufjs field option that marks a scalar whose zero value is printed (see above). */
export const KEEP_ZERO_OPTION = 'keepZero';

interface FieldJson {
  id: number;
  type: string;
  rule?: 'repeated';
  keyType?: string;
  options?: Record<string, boolean>;
}

const FIELD = /^(\w+) (\d+) (?:(repeated) )?(?:map<(\w+),([\w.]+)>|(\*)?([\w.]+))$/;

export function parseField(spec: string): [string, FieldJson] {
  const m = FIELD.exec(spec);
  if (!m) throw new Error(`protobuf schema: cannot parse field ${JSON.stringify(spec)}`);
  const [, name, id, repeated, keyType, valueType, keepZero, type] = m;
  if (keyType) return [name, { id: Number(id), keyType, type: valueType }];
  const field: FieldJson = { id: Number(id), type };
  if (repeated) field.rule = 'repeated';
  if (keepZero) field.options = { [KEEP_ZERO_OPTION]: true };
  return [name, field];
}

/** Message tables as a protobufjs JSON namespace (nested by package). */
export function toNamespace(tables: MessageTable[]): protobuf.INamespace {
  const root: protobuf.INamespace = { nested: {} };
  const seen = new Set<string>();
  for (const table of tables) {
    for (const [fullName, fields] of Object.entries(table)) {
      if (seen.has(fullName)) throw new Error(`protobuf schema: ${fullName} is defined twice`);
      seen.add(fullName);
      const parts = fullName.split('.');
      let ns = root;
      for (const part of parts.slice(0, -1)) ns = ((ns.nested ??= {})[part] ??= { nested: {} }) as protobuf.INamespace;
      const parsed = fields.map(parseField);
      const ids = new Set(parsed.map(([, f]) => f.id));
      if (ids.size !== parsed.length) throw new Error(`protobuf schema: ${fullName} repeats a field number`);
      (ns.nested ??= {})[parts[parts.length - 1]] = { fields: Object.fromEntries(parsed) } as protobuf.IType;
    }
  }
  return root;
}
