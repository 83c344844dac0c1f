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
import { builtinDefinitionName as definitionName } from '../src/schema/builtin.js';

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

function typeSchema(type: string, format: string): OpenAPISchema {
  let m: RegExpExecArray | null;
  if ((m = /^Array<(.+)>$/.exec(type))) return { type: 'array', items: typeSchema(m[1], format) };
  if ((m = /^\{ \[key: string\]: (.+); \}$/.exec(type))) return { type: 'object', additionalProperties: typeSchema(m[1], format) };
  switch (type) {
    case 'string':
      return format === 'byte' ? { type: 'string', format: 'byte' } : { type: 'string' };
    case 'number':
      return format === 'double' ? { type: 'number', format: 'double' } : { type: 'integer', format: format || 'int32' };
    case 'boolean':
      return { type: 'boolean' };
    case 'Date':
    case 'V1MicroTime':
      return { type: 'string', format: 'date-time' };
    case 'IntOrString':
      return { 'x-kubernetes-int-or-string': true };
    case 'any':
    case 'object':
      return { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
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
    const property = typeSchema(attr.type, attr.format);
    const description = doc.fields.get(attr.name);
    schema.properties![attr.baseName] = property.$ref
      ? { allOf: [property], ...(description ? { description } : {}) }
      : { ...property, ...(description ? { description } : {}) };
    const meta = PATCH_METADATA[`${model}.${attr.baseName}`];
    if (meta) Object.assign(schema.properties![attr.baseName], meta);
  }
  const required = [...doc.required].filter((r) => r !== 'apiVersion' && r !== 'kind');
  if (required.length > 0) schema.required = required.map((r) => cls.attributeTypeMap!.find((a) => a.name === r)?.baseName ?? r);
}

for (const row of BUILTIN_ROWS) {
  define(row.model);
  const name = definitionName(row.model);
  const gvk = { group: row.group, version: row.version, kind: row.kind };
  const existing = definitions[name]['x-kubernetes-group-version-kind'] ?? [];
  definitions[name]['x-kubernetes-group-version-kind'] = [...existing, gvk];
}
for (const key of Object.keys(PATCH_METADATA)) {
  const [model, field] = key.split('.');
  if (!definitions[definitionName(model)]?.properties?.[field]) throw new Error(`patch metadata for unknown field ${key}`);
}

const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'schema', 'builtin-definitions.json');
const sorted = Object.fromEntries(Object.entries(definitions).sort(([a], [b]) => a.localeCompare(b)));
writeFileSync(out, JSON.stringify({ source: `@kubernetes/client-node ${k8sVersion()}`, definitions: sorted }) + '\n');
console.log(`wrote ${Object.keys(sorted).length} definitions to ${out}`);

function k8sVersion(): string {
  return (require('@kubernetes/client-node/package.json') as { version: string }).version;
}
