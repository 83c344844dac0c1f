// OpenAPI v3 schemas as the API server uses them: for built-in types (with $ref between definitions) and for
// CRDs (inline JSONSchemaProps). The x-kubernetes-* extensions drive patching, pruning and validation.
export interface OpenAPISchema {
  $ref?: string;
  allOf?: OpenAPISchema[];
  anyOf?: OpenAPISchema[];
  oneOf?: OpenAPISchema[];
  not?: OpenAPISchema;
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  format?: string;
  description?: string;
  properties?: Record<string, OpenAPISchema>;
  additionalProperties?: OpenAPISchema | boolean;
  items?: OpenAPISchema;
  required?: string[];
  enum?: unknown[];
  default?: unknown;
  nullable?: boolean;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  minProperties?: number;
  maxProperties?: number;
  multipleOf?: number;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: 'atomic' | 'granular';
  'x-kubernetes-patch-strategy'?: string;
  'x-kubernetes-patch-merge-key'?: string;
  'x-kubernetes-validations'?: {
    rule: string;
    message?: string;
    messageExpression?: string;
    reason?: string;
    fieldPath?: string;
  }[];
  'x-kubernetes-group-version-kind'?: { group: string; version: string; kind: string }[];
  [extension: `x-${string}`]: unknown;
}

/** Follows `$ref` (to `#/components/schemas/<name>` or `#/definitions/<name>`) and single-element `allOf` wrappers. */
export type SchemaResolver = (schema: OpenAPISchema) => OpenAPISchema;

/** A field-level problem, rendered the way kube-apiserver does (`spec.replicas: Invalid value: ...`). */
export interface FieldProblem {
  /** Field path such as `spec.template.spec.containers[0].image`. */
  field: string;
  /** `FieldValueRequired`, `FieldValueInvalid`, `FieldValueNotSupported`, `FieldValueTypeInvalid`, `FieldValueTooLong`, ... */
  reason: string;
  message: string;
}
