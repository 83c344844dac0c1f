// Generates src/schema/builtin-definitions.json: OpenAPI v3 schemas of the built-in kinds the server serves,
// from the models of @kubernetes/client-node (types from attributeTypeMap, descriptions and required fields
// from the .d.ts), plus kube's patch strategies and list types, which client-node does not carry.
// Run: npx tsx libs/local-apiserver/scripts/generate-builtin-schemas.ts
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as k8s from '@kubernetes/client-node';
import { BUILTIN_ROWS } from '../src/registry/builtin/catalogue.js';
import { PATCH_METADATA } from '../src/schema/patch-metadata.js';
import type { OpenAPISchema } from '../src/schema/types.js';
import { builtinDefinitionName } from '../src/schema/builtin.js';
import { NAMED_BY_FIELD, NAMED_BY_TYPE, NAMED_TYPES } from '../src/schema/named-types.js';

interface Attribute {
  name: string;
  baseName: string;
  type: string;
  format: string;
}

const require = createRequire(import.meta.url);
const modelsDir = join(dirname(require.resolve('@kubernetes/client-node')), 'gen', 'models');
const models = k8s as unknown as Record<string, { attributeTypeMap?: Attribute[] } | undefined>;

function docs(model: string): { description?: string; fields: Map<string, string>; required: Set<string> } {
  const text = readFileSync(join(modelsDir, `${model}.d.ts`), 'utf8');
  const fields = new Map<string, string>();
  const required = new Set<string>();
  const classDoc = /\/\*\*\n((?:\s*\*.*\n)*?)\s*\*\/\nexport declare class/.exec(text);
  const propRe = /(?:\/\*\*\n((?:\s*\*(?!\/).*\n)*?)\s*\*\/\n)?\s*'([^']+)'(\?)?:/g;
  for (const m of text.matchAll(propRe)) {
    if (m[1]) fields.set(m[2], clean(m[1]));
    if (!m[3]) required.add(m[2]);
  }
  return { description: classDoc ? clean(classDoc[1]) : undefined, fields, required };
}

function clean(comment: string): string {
  return comment
    .split('\n')
    .map((l) => l.replace(/^\s*\* ?/, ''))
    .join('\n')
    .trim();
}

const definitions: Record<string, OpenAPISchema> = {};

const PRIMITIVES = new Set(['string', 'number', 'boolean', 'any', 'object', ...Object.keys(NAMED_BY_TYPE)]);

/** The model a property type names, through arrays and maps; undefined for primitives. */
function modelOf(type: string): string | undefined {
  const m = /^Array<(.+)>$/.exec(type) ?? /^\{ \[key: string\]: (.+); \}$/.exec(type);
  if (m) return modelOf(m[1]);
  return PRIMITIVES.has(type) ? undefined : type;
}

/** The API groups of the served kinds that use each model, directly or through other models. */
const usedBy = new Map<string, Set<string>>();
function use(model: string, group: string): void {
  const groups = usedBy.get(model) ?? new Set<string>();
  if (groups.has(group)) return;
  usedBy.set(model, groups.add(group));
  for (const attr of models[model]?.attributeTypeMap ?? []) {
    const nested = modelOf(attr.type);
    if (nested) use(nested, group);
  }
}
for (const row of BUILTIN_ROWS) use(row.model, row.group);

/** Core types that only other groups' kinds use here (StorageClass.allowedTopologies). */
const CORE_TYPES = new Set(['V1TopologySelectorTerm', 'V1TopologySelectorLabelRequirement']);

/**
 * kube's name of a model: client-node's models do not carry their group, so a type is taken to belong to the
 * group of the kinds that use it, core when a core kind does (PodSpec under apps' Deployments is core's).
 */
function definitionName(model: string): string {
  const groups = usedBy.get(model);
  if (!groups) throw new Error(`model ${model} is not used by a served kind`);
  if (groups.has('') || CORE_TYPES.has(model)) return builtinDefinitionName(model, '');
  const [group, ...others] = groups;
  const name = builtinDefinitionName(model, group);
  for (const other of others) {
    if (builtinDefinitionName(model, other) !== name)
      throw new Error(`${model} is used by kinds of ${[...groups].join(', ')}: name its group`);
  }
  return name;
}

/** A reference to one of kube's named types, defined on first use. */
function namedRef(name: string): OpenAPISchema {
  definitions[name] ??= NAMED_TYPES[name];
  return { $ref: `#/components/schemas/${name}` };
}

/** The schema of a client-node attribute type; `named` is the kube type its primitive is (a Quantity string). */
function typeSchema(type: string, format: string, named?: string): OpenAPISchema {
  let m: RegExpExecArray | null;
  if ((m = /^Array<(.+)>$/.exec(type))) return { type: 'array', items: typeSchema(m[1], format, named) };
  if ((m = /^\{ \[key: string\]: (.+); \}$/.exec(type)))
    return { type: 'object', additionalProperties: typeSchema(m[1], format, named) };
  if (named) return namedRef(named);
  if (NAMED_BY_TYPE[type]) return namedRef(NAMED_BY_TYPE[type]);
  switch (type) {
    case 'string':
      return format === 'byte' ? { type: 'string', format: 'byte' } : { type: 'string' };
    case 'number':
      return format === 'double'
        ? { type: 'number', format: 'double' }
        : { type: 'integer', format: format || 'int32' };
    case 'boolean':
      return { type: 'boolean' };
    case 'any':
    case 'object':
      throw new Error(`an arbitrary value without its kube type: add the field to NAMED_BY_FIELD`);
    default:
      define(type);
      return { $ref: `#/components/schemas/${definitionName(type)}` };
  }
}

function define(model: string): void {
  const name = definitionName(model);
  if (definitions[name]) return;
  const cls = models[model];
  if (!cls?.attributeTypeMap) throw new Error(`no client-node model ${model}`);
  const doc = docs(model);
  const schema: OpenAPISchema = { type: 'object', properties: {} };
  definitions[name] = schema;
  if (doc.description) schema.description = doc.description;
  for (const attr of cls.attributeTypeMap) {
    let property: OpenAPISchema;
    try {
      property = typeSchema(attr.type, attr.format, NAMED_BY_FIELD[`${model}.${attr.baseName}`]);
    } catch (e) {
      throw new Error(`${model}.${attr.baseName}: ${(e as Error).message}`);
    }
    const description = doc.fields.get(attr.name);
    schema.properties![attr.baseName] = property.$ref
      ? { allOf: [property], ...(description ? { description } : {}) }
      : { ...property, ...(description ? { description } : {}) };
    const meta = PATCH_METADATA[`${model}.${attr.baseName}`];
    if (meta) Object.assign(schema.properties![attr.baseName], meta);
  }
  const required = [...doc.required].filter((r) => r !== 'apiVersion' && r !== 'kind');
  if (required.length > 0)
    schema.required = required.map((r) => cls.attributeTypeMap!.find((a) => a.name === r)?.baseName ?? r);
}

for (const row of BUILTIN_ROWS) {
  define(row.model);
  const name = definitionName(row.model);
  if (name !== builtinDefinitionName(row.model, row.group))
    throw new Error(`${row.model} of ${row.group} is named ${name}`);
  const gvk = { group: row.group, version: row.version, kind: row.kind };
  const existing = definitions[name]['x-kubernetes-group-version-kind'] ?? [];
  definitions[name]['x-kubernetes-group-version-kind'] = [...existing, gvk];
}
for (const key of Object.keys(NAMED_BY_FIELD)) {
  const [model, field] = key.split('.');
  if (!definitions[definitionName(model)]?.properties?.[field]) throw new Error(`named type for unknown field ${key}`);
}
for (const key of Object.keys(PATCH_METADATA)) {
  const [model, field] = key.split('.');
  if (!definitions[definitionName(model)]?.properties?.[field])
    throw new Error(`patch metadata for unknown field ${key}`);
}

const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'schema', 'builtin-definitions.json');
const sorted = Object.fromEntries(Object.entries(definitions).sort(([a], [b]) => a.localeCompare(b)));
writeFileSync(out, JSON.stringify({ source: `@kubernetes/client-node ${k8sVersion()}`, definitions: sorted }) + '\n');
console.log(`wrote ${Object.keys(sorted).length} definitions to ${out}`);

function k8sVersion(): string {
  return (require('@kubernetes/client-node/package.json') as { version: string }).version;
}
