// Go's zero values for the fields a schema requires: Gardener's API server decodes JSON into Go structs, so a field
// without `omitempty` that a client left out is read as its zero value ("", false, 0, an empty struct) and returned
// with it, never refused. The pure core here derives those values from the TypeBox schemas; the CRD generator turns
// them into structural `default`s of status fields and `defaultObject` fills them in.
import { Kind, OptionalKind, type TSchema } from '@sinclair/typebox';
import type { KindDefinition } from './kind.js';

/** Schema keywords that constrain a string so that Go's zero value "" may not be valid under it. */
const STRING_CONSTRAINTS = ['format', 'pattern', 'minLength', 'x-gardener-duration'] as const;

/**
 * The JSON Go writes for the zero value of a required (non-omitempty) field with this schema, or undefined where Go
 * writes nothing or `null` (slices, maps, pointers, times, raw extensions) or where the schema could not accept the
 * zero value (enums, patterned or formatted strings, numbers with a positive minimum): those stay absent.
 */
export function zeroValue(schema: TSchema): unknown {
  if (isOpaque(schema)) return undefined;
  switch (schema[Kind]) {
    case 'Object':
      return fillZeroValues(schema, {});
    case 'String':
      return STRING_CONSTRAINTS.some((keyword) => schema[keyword] !== undefined) ? undefined : '';
    case 'Integer':
    case 'Number':
      return acceptsZero(schema) ? 0 : undefined;
    case 'Boolean':
      return false;
    default:
      return undefined;
  }
}

/**
 * Returns `value` with every missing required field that has a Go zero value (see `zeroValue`) filled in, in objects
 * at any depth (also inside arrays and maps). Present values are never changed, values of a wrong type are left for
 * validation to report, and the input is not modified: what is unchanged is shared with it.
 */
export function fillZeroValues<T>(schema: TSchema, value: T): T {
  if (isOpaque(schema)) return value;
  switch (schema[Kind]) {
    case 'Object': {
      if (!isPlainObject(value)) return value;
      let out: Record<string, unknown> | undefined;
      const set = (key: string, next: unknown) => {
        out ??= { ...value };
        out[key] = next;
      };
      for (const [key, property] of Object.entries(schema.properties as Record<string, TSchema>)) {
        const current = value[key];
        if (current === undefined) {
          if (property[OptionalKind] === 'Optional') continue;
          const zero = zeroValue(property);
          if (zero !== undefined) set(key, zero);
          continue;
        }
        const filled = fillZeroValues(property, current);
        if (filled !== current) set(key, filled);
      }
      return (out ?? value) as T;
    }
    case 'Array': {
      if (!Array.isArray(value)) return value;
      const items = schema.items as TSchema;
      const filled = value.map((item: unknown) => fillZeroValues(items, item));
      return (filled.some((item, i) => item !== value[i]) ? filled : value) as T;
    }
    case 'Record': {
      if (!isPlainObject(value)) return value;
      const [values] = Object.values(schema.patternProperties as Record<string, TSchema>);
      let out: Record<string, unknown> | undefined;
      for (const [key, current] of Object.entries(value)) {
        const filled = fillZeroValues(values, current);
        if (filled !== current) (out ??= { ...value })[key] = filled;
      }
      return (out ?? value) as T;
    }
    default:
      return value;
  }
}

/**
 * The object with Go's zero values filled into its `status` (see `fillZeroValues`), as Gardener's API server returns a
 * status: a status holding only `lastOperation` comes back with `hibernated: false` and an empty `gardener`. An object
 * without a status is returned as it is.
 */
export function withStatusZeroValues<T extends object>(kind: KindDefinition, object: T): T {
  const schema = (kind.schema.properties as Record<string, TSchema>).status;
  const current = (object as { status?: unknown }).status;
  if (!schema || !isPlainObject(current)) return object;
  const status = fillZeroValues(schema, current);
  return status === current ? object : { ...object, status };
}

/** Embedded objects kept as written (raw extensions, templates' ObjectMeta, int-or-string): no Go struct to decode. */
function isOpaque(schema: TSchema): boolean {
  return (
    schema['x-kubernetes-preserve-unknown-fields'] === true ||
    schema['x-gardener-object-meta'] === true ||
    schema['x-kubernetes-int-or-string'] === true
  );
}

function acceptsZero(schema: TSchema): boolean {
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum } = schema as Record<string, unknown>;
  if (typeof minimum === 'number' && minimum > 0) return false;
  if (typeof maximum === 'number' && maximum < 0) return false;
  if (typeof exclusiveMinimum === 'number' && exclusiveMinimum >= 0) return false;
  return !(typeof exclusiveMaximum === 'number' && exclusiveMaximum <= 0);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
