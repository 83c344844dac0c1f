// Renders TypeScript declarations for the kinds of Gardener's CRDs, straight from their OpenAPI schemas, so the
// types cannot drift from what the API server enforces. Each kind also gets the list of its top-level spec/status
// fields, tied to the type at compile time (see src/crd-types/fields.ts).
import prettier from 'prettier';
import type { CustomResourceDefinition, JSONSchemaProps } from '../src/crd/types.js';

const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const key = (name: string) => (identifier.test(name) ? name : JSON.stringify(name));
const indent = (depth: number) => '  '.repeat(depth);

function typeOf(schema: JSONSchemaProps, depth: number): string {
  if (schema['x-kubernetes-int-or-string']) return 'number | string';
  if (Array.isArray(schema.enum) && schema.enum.every((v) => typeof v === 'string')) {
    return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  }
  switch (schema.type) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'array':
      return `Array<${schema.items ? typeOf(schema.items, depth) : 'unknown'}>`;
    case 'object':
      if (schema.properties && Object.keys(schema.properties).length > 0) return objectType(schema, depth);
      if (typeof schema.additionalProperties === 'object') {
        return `Record<string, ${typeOf(schema.additionalProperties, depth)}>`;
      }
      return 'Record<string, unknown>';
    default:
      return 'unknown';
  }
}

function objectType(schema: JSONSchemaProps, depth: number): string {
  const required = new Set(schema.required ?? []);
  const lines = Object.entries(schema.properties ?? {}).map(
    ([name, property]) =>
      `${indent(depth + 1)}${key(name)}${required.has(name) ? '' : '?'}: ${typeOf(property, depth + 1)};`,
  );
  return `{\n${lines.join('\n')}\n${indent(depth)}}`;
}

const typeMeta = new Set(['apiVersion', 'kind', 'metadata']);

export function renderKindTypes(crd: CustomResourceDefinition): string {
  const version = crd.spec.versions.find((v) => v.storage) ?? crd.spec.versions[0];
  const schema = version.schema?.openAPIV3Schema;
  if (!schema?.properties) throw new Error(`${crd.metadata.name}: no schema`);
  const kind = crd.spec.names.kind;
  const apiVersion = `${crd.spec.group}/${version.name}`;
  const required = new Set(schema.required ?? []);
  const out: string[] = [];
  const members: string[] = [
    `  apiVersion?: ${JSON.stringify(apiVersion)};`,
    `  kind?: ${JSON.stringify(kind)};`,
    '  metadata?: ObjectMeta;',
  ];
  const fields: string[] = [];
  for (const [name, property] of Object.entries(schema.properties)) {
    if (typeMeta.has(name)) continue;
    const optional = required.has(name) ? '' : '?';
    if ((name === 'spec' || name === 'status') && property.type === 'object' && property.properties) {
      const typeName = `${kind}${name === 'spec' ? 'Spec' : 'Status'}`;
      out.push(`export interface ${typeName} ${objectType(property, 0)}\n`);
      fields.push(`  ${name}: fieldsOf<${typeName}>()(${JSON.stringify(Object.keys(property.properties))}),`);
      members.push(`  ${name}${optional}: ${typeName};`);
    } else {
      members.push(`  ${key(name)}${optional}: ${typeOf(property, 1)};`);
    }
  }
  out.push(`/** ${kind} (${apiVersion}). */\nexport interface ${kind} {\n${members.join('\n')}\n}\n`);
  out.push(`export const ${kind}Fields = {\n${fields.join('\n')}\n};\n`);
  out.push(
    `export const ${kind}Kind = { apiVersion: ${JSON.stringify(apiVersion)}, kind: ${JSON.stringify(kind)}, plural: ${JSON.stringify(crd.spec.names.plural)}, namespaced: ${crd.spec.scope === 'Namespaced'} } as const;\n`,
  );
  return out.join('\n');
}

/** Formatted like the rest of the sources, so that a regenerated file equals the committed one byte for byte. */
export async function renderGroupTypes(group: string, crds: CustomResourceDefinition[], path: string): Promise<string> {
  const options = (await prettier.resolveConfig(path)) ?? {};
  return prettier.format(rawGroupTypes(group, crds), { ...options, filepath: path });
}

function rawGroupTypes(group: string, crds: CustomResourceDefinition[]): string {
  const body = crds
    .filter((crd) => crd.spec.group === group)
    .sort((a, b) => a.spec.names.kind.localeCompare(b.spec.names.kind))
    .map(renderKindTypes)
    .join('\n');
  return [
    `// Generated from Gardener's CRDs for ${group} (crds/gardener) by \`npm run generate -w @gardener-ts/api\`. Do not edit.`,
    "import type { ObjectMeta } from '../schema/meta.js';",
    "import { fieldsOf } from './fields.js';",
    '',
    body,
  ].join('\n');
}

export const typeGroups = {
  'extensions.gardener.cloud': 'extensions-v1alpha1.generated.ts',
  'resources.gardener.cloud': 'resources-v1alpha1.generated.ts',
  'operator.gardener.cloud': 'operator-v1alpha1.generated.ts',
  'machine.sapcloud.io': 'machine-v1alpha1.generated.ts',
} as const;
