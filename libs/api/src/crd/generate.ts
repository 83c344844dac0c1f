// Generates the CustomResourceDefinitions of the kinds defined here from their TypeBox schemas.
import { Kind, OptionalKind, type TSchema } from '@sinclair/typebox';
import { stringify } from 'yaml';
import { gardenerKinds } from '../kinds.js';
import type { KindDefinition } from '../schema/kind.js';
import { toStructural } from './structural.js';
import type { CustomResourceDefinition, JSONSchemaProps } from './types.js';

/** Top-level fields every object has; metadata is validated by the API server itself. */
const typeMetaFields = new Set(['apiVersion', 'kind', 'metadata']);

export function crdFor({ info, schema }: KindDefinition): CustomResourceDefinition {
  const properties: Record<string, JSONSchemaProps> = {
    apiVersion: { type: 'string' },
    kind: { type: 'string' },
    metadata: { type: 'object' },
  };
  const required: string[] = [];
  for (const [name, field] of Object.entries(schema.properties as Record<string, TSchema>)) {
    if (typeMetaFields.has(name)) continue;
    properties[name] = toStructural(field, { required: name !== 'status', zeroDefaults: name === 'status' });
    if (field[OptionalKind] !== 'Optional') required.push(name);
  }
  if (schema[Kind] !== 'Object') throw new Error(`${info.kind}: the schema of a kind must be an object`);

  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${info.plural}.${info.group}` },
    spec: {
      group: info.group,
      names: {
        kind: info.kind,
        listKind: `${info.kind}List`,
        plural: info.plural,
        singular: info.singular,
        ...(info.shortNames?.length ? { shortNames: info.shortNames } : {}),
        ...(info.categories?.length ? { categories: info.categories } : {}),
      },
      scope: info.namespaced ? 'Namespaced' : 'Cluster',
      versions: [
        {
          name: info.version,
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: { type: 'object', properties, ...(required.length > 0 ? { required } : {}) },
          },
          ...(info.statusSubresource ? { subresources: { status: {} } } : {}),
          ...(info.printerColumns?.length
            ? {
                additionalPrinterColumns: info.printerColumns.map((c) => ({
                  name: c.name,
                  type: c.type,
                  jsonPath: c.jsonPath,
                  ...(c.priority ? { priority: c.priority } : {}),
                })),
              }
            : {}),
        },
      ],
    },
  };
}

/** The CRDs of every kind with a TypeBox schema (core, security, seedmanagement, operations). */
export function generatedCRDs(): CustomResourceDefinition[] {
  return gardenerKinds.map(crdFor);
}

/** File name in the style of Gardener's CRD files. */
export function crdFileName(crd: CustomResourceDefinition): string {
  return `10-crd-${crd.spec.group}_${crd.spec.names.plural}.yaml`;
}

const header =
  '# Generated from the TypeBox schemas of @gardener-ts/api by `npm run generate -w @gardener-ts/api`. Do not edit.\n';

export function renderCRD(crd: CustomResourceDefinition): string {
  return header + stringify(crd, { lineWidth: 0 });
}
