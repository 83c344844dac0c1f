// Building blocks for API schemas. Each helper is a TypeBox schema that also carries the OpenAPI hints the CRD
// generator needs (int-or-string, preserve-unknown-fields), so types, validation and CRDs come from one definition.
import { FormatRegistry, Type, type TLiteral, type TSchema, type TUnion, type TUnknown } from '@sinclair/typebox';

// String formats the schemas use; TypeBox rejects values of unregistered formats.
const rfc3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
if (!FormatRegistry.Has('date-time')) FormatRegistry.Set('date-time', (value) => rfc3339.test(value));
if (!FormatRegistry.Has('byte'))
  FormatRegistry.Set('byte', (value) => /^[A-Za-z0-9+/]*={0,2}$/.test(value) && value.length % 4 === 0);

export const Opt = Type.Optional;

export const Str = () => Type.String();
export const Int32 = () => Type.Integer({ format: 'int32' });
export const Int64 = () => Type.Integer({ format: 'int64' });
export const Float = () => Type.Number({ format: 'double' });
export const Bool = () => Type.Boolean();
/** metav1.Time: RFC 3339 timestamp. */
export const Time = () => Type.String({ format: 'date-time' });
/** metav1.Duration: a Go duration string such as "1h30m". */
export const Duration = () => Type.String({ 'x-gardener-duration': true });

/** intstr.IntOrString. */
export const IntOrString = () => Type.Union([Type.Integer(), Type.String()], { 'x-kubernetes-int-or-string': true });
/** resource.Quantity ("1Gi", "500m", 2). */
export const Quantity = () =>
  Type.Union([Type.Integer(), Type.String()], { 'x-kubernetes-int-or-string': true, 'x-gardener-quantity': true });

/** runtime.RawExtension: any embedded object, kept as it is (provider configs and the like). */
export const RawExtension = (): TUnknown => Type.Unknown({ 'x-kubernetes-preserve-unknown-fields': true });

export const StringMap = () => Type.Record(Type.String(), Type.String());
export const BoolMap = () => Type.Record(Type.String(), Type.Boolean());
/** corev1.ResourceList: resource name to quantity. */
export const ResourceList = () => Type.Record(Type.String(), Quantity());
/** Base64 encoded bytes, as in Secret data. */
export const Bytes = () => Type.String({ format: 'byte' });

/** A string restricted to the given values; its static type is their union. */
export function StringEnum<const T extends readonly string[]>(values: T): TUnion<TLiteral<T[number]>[]> {
  return Type.Union(values.map((value) => Type.Literal(value)) as TLiteral<T[number]>[]);
}

export const List = <T extends TSchema>(items: T) => Type.Array(items);
