// `/openapi/v2` as protobuf: the Swagger 2.0 document encoded as gnostic's `openapi.v2.Document`
// (github.com/google/gnostic-models openapiv2/OpenAPIv2.proto), which kubectl requests for its client-side
// validation (`application/com.github.proto-openapi.spec.v2@v1.0+protobuf`). Only the messages and fields our
// document can contain are declared; JSON Schema keywords gnostic's v2 Schema has no field for (anyOf, oneOf, not,
// nullable) are dropped, like kube-apiserver's conversion drops them. Vendor extensions (`x-...`) become
// `vendor_extension` NamedAny entries whose Any.yaml holds the value as YAML (JSON flow style, which YAML reads).
// Our v2 document has no paths (kubectl's validation reads only the definitions), so Paths carries only extensions.
import protobuf from 'protobufjs';

type Json = Record<string, unknown>;

const str = (id: number) => ({ type: 'string', id });
const rep = (type: string, id: number) => ({ rule: 'repeated', type, id });
const msg = (type: string, id: number) => ({ type, id });

/** protobufjs reflection of the gnostic openapi.v2 subset (field numbers from OpenAPIv2.proto). */
const REFLECTION = {
  nested: {
    openapi: {
      nested: {
        v2: {
          nested: {
            Document: {
              fields: {
                swagger: str(1),
                info: msg('Info', 2),
                host: str(3),
                basePath: str(4),
                schemes: rep('string', 5),
                consumes: rep('string', 6),
                produces: rep('string', 7),
                paths: msg('Paths', 8),
                definitions: msg('Definitions', 9),
                vendorExtension: rep('NamedAny', 16),
              },
            },
            Info: {
              fields: { title: str(1), version: str(2), description: str(3), vendorExtension: rep('NamedAny', 7) },
            },
            Paths: { fields: { vendorExtension: rep('NamedAny', 1) } },
            Definitions: { fields: { additionalProperties: rep('NamedSchema', 1) } },
            NamedSchema: { fields: { name: str(1), value: msg('Schema', 2) } },
            NamedAny: { fields: { name: str(1), value: msg('Any', 2) } },
            Any: { fields: { yaml: str(2) } },
            TypeItem: { fields: { value: rep('string', 1) } },
            ItemsItem: { fields: { schema: rep('Schema', 1) } },
            Properties: { fields: { additionalProperties: rep('NamedSchema', 1) } },
            AdditionalPropertiesItem: {
              oneofs: { oneof: { oneof: ['schema', 'boolean'] } },
              fields: { schema: msg('Schema', 1), boolean: { type: 'bool', id: 2 } },
            },
            Schema: {
              fields: {
                ref: str(1),
                format: str(2),
                title: str(3),
                description: str(4),
                default: msg('Any', 5),
                multipleOf: { type: 'double', id: 6 },
                maximum: { type: 'double', id: 7 },
                exclusiveMaximum: { type: 'bool', id: 8 },
                minimum: { type: 'double', id: 9 },
                exclusiveMinimum: { type: 'bool', id: 10 },
                maxLength: { type: 'int64', id: 11 },
                minLength: { type: 'int64', id: 12 },
                pattern: str(13),
                maxItems: { type: 'int64', id: 14 },
                minItems: { type: 'int64', id: 15 },
                uniqueItems: { type: 'bool', id: 16 },
                maxProperties: { type: 'int64', id: 17 },
                minProperties: { type: 'int64', id: 18 },
                required: rep('string', 19),
                enum: rep('Any', 20),
                additionalProperties: msg('AdditionalPropertiesItem', 21),
                type: msg('TypeItem', 22),
                items: msg('ItemsItem', 23),
                allOf: rep('Schema', 24),
                properties: msg('Properties', 25),
                discriminator: str(26),
                readOnly: { type: 'bool', id: 27 },
                example: msg('Any', 30),
                vendorExtension: rep('NamedAny', 31),
              },
            },
          },
        },
      },
    },
  },
};

let documentType: protobuf.Type | undefined;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const anyOf = (value: unknown) => ({ yaml: JSON.stringify(value) });

function extensions(node: Json): { name: string; value: { yaml: string } }[] {
  return Object.entries(node)
    .filter(([k, v]) => k.startsWith('x-') && v !== undefined)
    .map(([name, v]) => ({ name, value: anyOf(v) }));
}

const NUMBERS = ['multipleOf', 'maximum', 'minimum'] as const;
const INTEGERS = ['maxLength', 'minLength', 'maxItems', 'minItems', 'maxProperties', 'minProperties'] as const;
const BOOLEANS = ['exclusiveMaximum', 'exclusiveMinimum', 'uniqueItems', 'readOnly'] as const;
const STRINGS = ['format', 'title', 'description', 'pattern', 'discriminator'] as const;

/** A JSON schema → the gnostic Schema object form; `$ref`s to missing definitions are dropped (kubectl rejects them). */
function schemaOf(node: unknown, known: ReadonlySet<string>): Json {
  if (!isObject(node)) return {};
  const out: Json = {};
  const ref = node.$ref;
  if (typeof ref === 'string' && ref.startsWith('#/definitions/') && known.has(ref.slice('#/definitions/'.length)))
    out.ref = ref;
  for (const k of STRINGS) if (typeof node[k] === 'string') out[k] = node[k];
  for (const k of NUMBERS) if (typeof node[k] === 'number') out[k] = node[k];
  for (const k of INTEGERS) if (typeof node[k] === 'number') out[k] = node[k];
  for (const k of BOOLEANS) if (typeof node[k] === 'boolean') out[k] = node[k];
  if (node.default !== undefined) out.default = anyOf(node.default);
  if (node.example !== undefined) out.example = anyOf(node.example);
  if (Array.isArray(node.required)) out.required = node.required.filter((r) => typeof r === 'string');
  if (Array.isArray(node.enum)) out.enum = node.enum.map(anyOf);
  const types = (Array.isArray(node.type) ? node.type : [node.type]).filter((t): t is string => typeof t === 'string');
  if (types.length > 0 && !out.ref) out.type = { value: types };
  if (types.length === 1 && types[0] === 'array' && node.items === undefined)
    out.items = { schema: [{}] }; // kubectl needs one
  else if (isObject(node.items)) out.items = { schema: [schemaOf(node.items, known)] };
  else if (Array.isArray(node.items)) out.items = { schema: node.items.map((i) => schemaOf(i, known)) };
  if (isObject(node.additionalProperties))
    out.additionalProperties = { schema: schemaOf(node.additionalProperties, known) };
  else if (typeof node.additionalProperties === 'boolean')
    out.additionalProperties = { boolean: node.additionalProperties };
  if (Array.isArray(node.allOf)) out.allOf = node.allOf.map((s) => schemaOf(s, known));
  if (isObject(node.properties) && !out.ref) {
    out.properties = {
      additionalProperties: Object.entries(node.properties).map(([name, s]) => ({ name, value: schemaOf(s, known) })),
    };
  }
  const vendor = extensions(node);
  if (vendor.length > 0) out.vendorExtension = vendor;
  return out;
}

/** Encodes a Swagger 2.0 document (as `swaggerDocument` builds it) as gnostic's `openapi.v2.Document`. */
export function encodeSwaggerProtobuf(doc: Json): Uint8Array {
  documentType ??= protobuf.Root.fromJSON(REFLECTION).lookupType('openapi.v2.Document');
  const info = isObject(doc.info) ? doc.info : {};
  const definitions = isObject(doc.definitions) ? doc.definitions : {};
  const known = new Set(Object.keys(definitions));
  const message = {
    swagger: typeof doc.swagger === 'string' ? doc.swagger : '2.0',
    info: {
      title: info.title,
      version: info.version,
      description: info.description,
      vendorExtension: extensions(info),
    },
    paths: { vendorExtension: isObject(doc.paths) ? extensions(doc.paths) : [] },
    definitions: {
      additionalProperties: Object.entries(definitions).map(([name, s]) => ({ name, value: schemaOf(s, known) })),
    },
    vendorExtension: extensions(doc),
  };
  return documentType.encode(documentType.fromObject(message)).finish();
}
