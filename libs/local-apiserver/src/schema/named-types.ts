// kube's named definitions of types @kubernetes/client-node flattens to primitives (`Date`, `IntOrString`, a
// quantity `string`, `any`): kube's OpenAPI references them by name (`io.k8s.apimachinery.pkg.api.resource.Quantity`),
// and `kubectl explain` prints that name (`limits <map[string]Quantity>`). Used by scripts/generate-builtin-schemas.ts.
import type { OpenAPISchema } from './types.js';

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';
const APIEXTENSIONS = 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1';

export const TIME = `${META}.Time`;
export const MICRO_TIME = `${META}.MicroTime`;
export const INT_OR_STRING = 'io.k8s.apimachinery.pkg.util.intstr.IntOrString';
export const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
const RAW_EXTENSION = 'io.k8s.apimachinery.pkg.runtime.RawExtension';
const FIELDS_V1 = `${META}.FieldsV1`;
const JSON_VALUE = `${APIEXTENSIONS}.JSON`;
const OR_ARRAY = `${APIEXTENSIONS}.JSONSchemaPropsOrArray`;
const OR_BOOL = `${APIEXTENSIONS}.JSONSchemaPropsOrBool`;
const OR_STRING_ARRAY = `${APIEXTENSIONS}.JSONSchemaPropsOrStringArray`;
const SUBRESOURCE_STATUS = `${APIEXTENSIONS}.CustomResourceSubresourceStatus`;

const QUANTITY_DESCRIPTION = [
  'Quantity is a fixed-point representation of a number. It provides convenient marshaling/unmarshaling in JSON and YAML, in addition to String() and AsInt64() accessors.\n\n',
  'The serialization format is:\n\n',
  '``` <quantity>        ::= <signedNumber><suffix>\n\n\t(Note that <suffix> may be empty, from the "" case in <decimalSI>.)\n\n',
  '<digit>           ::= 0 | 1 | ... | 9 <digits>          ::= <digit> | <digit><digits> <number>          ::= <digits> | <digits>.<digits> | <digits>. | .<digits> <sign>            ::= "+" | "-" <signedNumber>    ::= <number> | <sign><number> <suffix>          ::= <binarySI> | <decimalExponent> | <decimalSI> <binarySI>        ::= Ki | Mi | Gi | Ti | Pi | Ei\n\n',
  '\t(International System of units; See: http://physics.nist.gov/cuu/Units/binary.html)\n\n',
  '<decimalSI>       ::= m | "" | k | M | G | T | P | E\n\n',
  "\t(Note that 1024 = 1Ki but 1000 = 1k; I didn't choose the capitalization.)\n\n",
  '<decimalExponent> ::= "e" <signedNumber> | "E" <signedNumber> ```\n\n',
  'No matter which of the three exponent forms is used, no quantity may represent a number greater than 2^63-1 in magnitude, nor may it have more than 3 decimal places. Numbers larger or more precise will be capped or rounded up. (E.g.: 0.1m will rounded up to 1m.) This may be extended in the future if we require larger or smaller quantities.\n\n',
  'When a Quantity is parsed from a string, it will remember the type of suffix it had, and will use the same type again when it is serialized.\n\n',
  'Before serializing, Quantity will be put in "canonical form". This means that Exponent/suffix will be adjusted up or down (with a corresponding increase or decrease in Mantissa) such that:\n\n',
  '- No precision is lost - No fractional digits will be emitted - The exponent (or suffix) is as large as possible.\n\n',
  'The sign will be omitted unless the number is negative.\n\n',
  'Examples:\n\n',
  '- 1.5 will be serialized as "1500m" - 1.5Gi will be serialized as "1536Mi"\n\n',
  'Note that the quantity will NEVER be internally represented by a floating point number. That is the whole point of this exercise.\n\n',
  "Non-canonical values will still parse as long as they are well formed, but will be re-emitted in their canonical form. (So always use canonical form, or don't diff.)\n\n",
  'This format is intended to make it difficult to use these numbers without writing some sort of special handling code in the hopes that that will cause implementors to also use a fixed point implementation.',
].join('');

/**
 * The definitions, as kube's v3 documents have them. Quantity and IntOrString are a `oneOf` of types there and a
 * `string` in v2 (see swaggerDocument). RawExtension and FieldsV1 are objects of any content; kube's documents do not
 * say so, pruning needs `x-kubernetes-preserve-unknown-fields` to keep them.
 */
export const NAMED_TYPES: Record<string, OpenAPISchema> = {
  [TIME]: {
    description:
      'Time is a wrapper around time.Time which supports correct marshaling to YAML and JSON.  Wrappers are provided for many of the factory methods that the time package offers.',
    type: 'string',
    format: 'date-time',
  },
  [MICRO_TIME]: {
    description: 'MicroTime is version of Time with microsecond level precision.',
    type: 'string',
    format: 'date-time',
  },
  [INT_OR_STRING]: {
    description:
      'IntOrString is a type that can hold an int32 or a string.  When used in JSON or YAML marshalling and unmarshalling, it produces or consumes the inner type.  This allows you to have, for example, a JSON field that can accept a name or number.',
    format: 'int-or-string',
    oneOf: [{ type: 'integer' }, { type: 'string' }],
  },
  [QUANTITY]: { description: QUANTITY_DESCRIPTION, oneOf: [{ type: 'string' }, { type: 'number' }] },
  [RAW_EXTENSION]: {
    description:
      'RawExtension is used to hold extensions in external versions.\n\nTo use this, make a field which has RawExtension as its type in your external, versioned struct, and Object in your internal struct. You also need to register your various plugin types.',
    type: 'object',
    'x-kubernetes-preserve-unknown-fields': true,
  },
  [FIELDS_V1]: {
    description:
      "FieldsV1 stores a set of fields in a data structure like a Trie, in JSON format.\n\nEach key is either a '.' representing the field itself, and will always map to an empty set, or a string representing a sub-field or item. The string will follow one of these four formats: 'f:<name>', where <name> is the name of a field in a struct, or key in a map 'v:<value>', where <value> is the exact json formatted value of a list item 'i:<index>', where <index> is position of a item in a list 'k:<keys>', where <keys> is a map of  a list item's key fields to their unique values If a key maps to an empty Fields value, the field that key represents is part of the set.\n\nThe exact format is defined in sigs.k8s.io/structured-merge-diff",
    type: 'object',
    'x-kubernetes-preserve-unknown-fields': true,
  },
  [JSON_VALUE]: {
    description:
      'JSON represents any valid JSON value. These types are supported: bool, int64, float64, string, []interface{}, map[string]interface{} and nil.',
  },
  [OR_ARRAY]: {
    description:
      'JSONSchemaPropsOrArray represents a value that can either be a JSONSchemaProps or an array of JSONSchemaProps. Mainly here for serialization purposes.',
  },
  [OR_BOOL]: {
    description:
      'JSONSchemaPropsOrBool represents JSONSchemaProps or a boolean value. Defaults to true for the boolean property.',
  },
  [OR_STRING_ARRAY]: { description: 'JSONSchemaPropsOrStringArray represents a JSONSchemaProps or a string array.' },
  [SUBRESOURCE_STATUS]: {
    description:
      'CustomResourceSubresourceStatus defines how to serve the status subresource for CustomResources. Status is represented by the `.status` JSON path inside of a CustomResource. When set, * exposes a /status subresource for the custom resource * PUT requests to the /status subresource take a custom resource object, and ignore changes to anything except the status stanza * PUT/POST/PATCH requests to the custom resource ignore changes to the status stanza',
    type: 'object',
  },
};

/** The named types of client-node's flattened types that say which they are. */
export const NAMED_BY_TYPE: Record<string, string> = {
  Date: TIME,
  V1MicroTime: MICRO_TIME,
  IntOrString: INT_OR_STRING,
};

/**
 * Fields (`Model.field`) whose `string` (or map/array values) is a Quantity, and whose `any` is one of the other
 * named types. client-node does not tell them apart from plain strings and arbitrary values.
 */
export const NAMED_BY_FIELD: Record<string, string> = {
  'V1ResourceFieldSelector.divisor': QUANTITY,
  'V1ResourceRequirements.limits': QUANTITY,
  'V1ResourceRequirements.requests': QUANTITY,
  'V1VolumeResourceRequirements.limits': QUANTITY,
  'V1VolumeResourceRequirements.requests': QUANTITY,
  'V1PodSpec.overhead': QUANTITY,
  'V1EmptyDirVolumeSource.sizeLimit': QUANTITY,
  'V1ContainerStatus.allocatedResources': QUANTITY,
  'V1NodeStatus.allocatable': QUANTITY,
  'V1NodeStatus.capacity': QUANTITY,
  'V1PersistentVolumeSpec.capacity': QUANTITY,
  'V1PersistentVolumeClaimStatus.allocatedResources': QUANTITY,
  'V1PersistentVolumeClaimStatus.capacity': QUANTITY,
  'V1ResourceQuotaSpec.hard': QUANTITY,
  'V1ResourceQuotaStatus.hard': QUANTITY,
  'V1ResourceQuotaStatus.used': QUANTITY,
  'V1LimitRangeItem.default': QUANTITY,
  'V1LimitRangeItem.defaultRequest': QUANTITY,
  'V1LimitRangeItem.max': QUANTITY,
  'V1LimitRangeItem.maxLimitRequestRatio': QUANTITY,
  'V1LimitRangeItem.min': QUANTITY,
  'V1Overhead.podFixed': QUANTITY,
  'V2MetricTarget.averageValue': QUANTITY,
  'V2MetricTarget.value': QUANTITY,
  'V2MetricValueStatus.averageValue': QUANTITY,
  'V2MetricValueStatus.value': QUANTITY,
  'V1ManagedFieldsEntry.fieldsV1': FIELDS_V1,
  'V1ControllerRevision.data': RAW_EXTENSION,
  'V1CustomResourceSubresources.status': SUBRESOURCE_STATUS,
  'V1JSONSchemaProps.default': JSON_VALUE,
  'V1JSONSchemaProps.example': JSON_VALUE,
  'V1JSONSchemaProps.enum': JSON_VALUE,
  'V1JSONSchemaProps.items': OR_ARRAY,
  'V1JSONSchemaProps.additionalItems': OR_BOOL,
  'V1JSONSchemaProps.additionalProperties': OR_BOOL,
  'V1JSONSchemaProps.dependencies': OR_STRING_ARRAY,
};
