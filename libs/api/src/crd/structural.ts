// Converts a TypeBox schema into a Kubernetes structural OpenAPI v3 schema.
import { Kind, OptionalKind, type TSchema } from '@sinclair/typebox';
import { zeroValue } from '../schema/zero-values.js';
import type { JSONSchemaProps } from './types.js';

export interface StructuralOptions {
  /**
   * Emit `required`. Off for status: controllers write status piecewise, and Gardener's own API server does not enforce
   * the required markers of status types either.
   */
  required: boolean;
  /**
   * Emit Go's zero value (`zeroValue`) as the `default` of each required field that has one, so that the API server
   * fills what a client left out as Gardener's API server does when it decodes into Go structs. On for status.
   */
  zeroDefaults?: boolean;
}

export function toStructural(schema: TSchema, options: StructuralOptions): JSONSchemaProps {
  if (schema['x-kubernetes-int-or-string']) {
    return { anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true };
  }
  if (schema['x-kubernetes-preserve-unknown-fields']) return { 'x-kubernetes-preserve-unknown-fields': true };
  // Embedded ObjectMeta (templates) is kept as written, like the API server does for metadata at the top level.
  if (schema['x-gardener-object-meta']) return { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
  switch (schema[Kind]) {
    case 'Object': {
      const properties: Record<string, JSONSchemaProps> = {};
      for (const [name, property] of Object.entries(schema.properties as Record<string, TSchema>)) {
        properties[name] = toStructural(property, options);
        const zero = options.zeroDefaults && property[OptionalKind] !== 'Optional' ? zeroValue(property) : undefined;
        if (zero !== undefined) properties[name].default = zero;
      }
      const required = Object.entries(schema.properties as Record<string, TSchema>)
        .filter(([, property]) => property[OptionalKind] !== 'Optional')
        .map(([name]) => name);
      return {
        type: 'object',
        properties,
        ...(options.required && required.length > 0 ? { required } : {}),
      };
    }
    case 'Record': {
      const [value] = Object.values(schema.patternProperties as Record<string, TSchema>);
      return { type: 'object', additionalProperties: toStructural(value, options) };
    }
    case 'Array':
      return { type: 'array', items: toStructural(schema.items as TSchema, options) };
    case 'String':
      return withFormat({ type: 'string' }, schema);
    case 'Integer':
      return withFormat({ type: 'integer' }, schema);
    case 'Number':
      return withFormat({ type: 'number' }, schema);
    case 'Boolean':
      return { type: 'boolean' };
    case 'Literal':
      return { type: typeof schema.const, enum: [schema.const] };
    case 'Union': {
      const members = schema.anyOf as TSchema[];
      if (members.every((m) => m[Kind] === 'Literal' && typeof m.const === 'string')) {
        return { type: 'string', enum: members.map((m) => m.const) };
      }
      break;
    }
    case 'Unknown':
      return { 'x-kubernetes-preserve-unknown-fields': true };
  }
  throw new Error(`cannot express TypeBox kind ${String(schema[Kind])} as a structural schema`);
}

function withFormat(props: JSONSchemaProps, schema: TSchema): JSONSchemaProps {
  return typeof schema.format === 'string' ? { ...props, format: schema.format } : props;
}
