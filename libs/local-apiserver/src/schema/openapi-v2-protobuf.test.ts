// The protobuf /openapi/v2 document, decoded with protobufjs from a hand-written .proto of gnostic's openapi.v2
// (testdata/gnostic-openapiv2.proto) rather than with the encoder's own tables, so a wrong field number, a wrong
// message shape or a lost vendor extension makes these tests fail.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { builtinResources } from '../registry/builtin/index.js';
import { Registry } from '../registry/registry.js';
import type { ResourceDefinition } from '../registry/types.js';
import { createSchemas } from '../server/schemas.js';
import { definitionNameOf } from './openapi.js';

const HERE = dirname(fileURLToPath(import.meta.url));

interface NamedAny {
  name: string;
  value: { yaml: string };
}
interface Schema {
  _ref?: string;
  description?: string;
  format?: string;
  type?: { value: string[] };
  required?: string[];
  enum?: { yaml: string }[];
  default?: { yaml: string };
  maximum?: number;
  items?: { schema: Schema[] };
  additionalProperties?: { schema?: Schema; boolean?: boolean };
  allOf?: Schema[];
  properties?: { additionalProperties: { name: string; value: Schema }[] };
  vendorExtension?: NamedAny[];
}
interface Document {
  swagger: string;
  info: { title: string; version: string };
  paths?: object;
  definitions: { additionalProperties: { name: string; value: Schema }[] };
}

let documentType: protobuf.Type;
beforeAll(() => {
  const text = readFileSync(join(HERE, 'testdata', 'gnostic-openapiv2.proto'), 'utf8');
  documentType = protobuf.parse(text).root.lookupType('openapi.v2.Document');
});

function decode(bytes: Uint8Array): Document {
  return documentType.toObject(documentType.decode(bytes), { longs: Number, defaults: false }) as Document;
}

const definition = (doc: Document, name: string) =>
  doc.definitions.additionalProperties.find((d) => d.name === name)?.value;
const property = (schema: Schema | undefined, name: string) =>
  schema?.properties?.additionalProperties.find((p) => p.name === name)?.value;
const extension = (schema: Schema | undefined, name: string) => {
  const found = schema?.vendorExtension?.find((e) => e.name === name);
  return found ? (parseYaml(found.value.yaml) as unknown) : undefined;
};

const WIDGET: ResourceDefinition = {
  group: 'example.com',
  version: 'v1',
  resource: 'widgets',
  singular: 'widget',
  kind: 'Widget',
  listKind: 'WidgetList',
  namespaced: true,
  verbs: ['get', 'list', 'create'],
  subresources: {},
  served: true,
  storageVersion: 'v1',
  custom: true,
  schema: {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        required: ['size'],
        properties: {
          size: { type: 'string', enum: ['small', 'large', 'yes'], default: 'small' },
          count: { type: 'integer', maximum: 10 },
          labels: { type: 'object', additionalProperties: { type: 'string' } },
          anything: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
          either: { anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true },
          tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
        },
      },
    },
  },
};

describe('/openapi/v2 as gnostic protobuf', () => {
  it('carries the built-in definitions with their x-kubernetes-group-version-kind', () => {
    const registry = new Registry(builtinResources());
    const doc = decode(createSchemas(registry).openapi.v2Protobuf());
    expect(doc.swagger).toBe('2.0');
    expect(doc.info.title).toBe('Kubernetes');
    expect(doc.paths).toEqual({});

    const deploymentDef = registry.byKind('apps', 'v1', 'Deployment')!;
    const name = definitionNameOf(deploymentDef);
    const deployment = definition(doc, name);
    expect(deployment).toBeDefined();
    expect(extension(deployment, 'x-kubernetes-group-version-kind')).toEqual([
      { group: 'apps', version: 'v1', kind: 'Deployment' },
    ]);
    expect(deployment!.type).toEqual({ value: ['object'] });

    // A reference wrapped in allOf (v3 style) is a plain `$ref` here, so kubectl's models can follow it.
    const spec = property(deployment, 'spec');
    expect(spec?._ref).toBe('#/definitions/io.k8s.api.apps.v1.DeploymentSpec');
    expect(spec?.allOf).toBeUndefined();
    expect(spec?.type).toBeUndefined();

    const deploymentSpec = definition(doc, spec!._ref!.slice('#/definitions/'.length));
    expect(deploymentSpec?.required).toContain('selector');
    expect(property(deploymentSpec, 'replicas')).toMatchObject({ type: { value: ['integer'] }, format: 'int32' });

    // Every reference points at a definition of the document (kubectl refuses the whole document otherwise).
    const names = new Set(doc.definitions.additionalProperties.map((d) => d.name));
    const refs: string[] = [];
    const walk = (s: Schema | undefined): void => {
      if (!s) return;
      if (s._ref) refs.push(s._ref.slice('#/definitions/'.length));
      s.properties?.additionalProperties.forEach((p) => walk(p.value));
      s.items?.schema.forEach(walk);
      walk(s.additionalProperties?.schema);
      s.allOf?.forEach(walk);
    };
    doc.definitions.additionalProperties.forEach((d) => walk(d.value));
    expect(refs.length).toBeGreaterThan(100);
    expect(refs.filter((r) => !names.has(r))).toEqual([]);
  });

  it('encodes a CRD schema: enum, default, maximum, maps, arrays and vendor extensions; drops anyOf', () => {
    const registry = new Registry(builtinResources());
    registry.setResource(WIDGET.group, WIDGET.resource, [WIDGET]);
    const doc = decode(createSchemas(registry).openapi.v2Protobuf());
    const widget = definition(doc, definitionNameOf(WIDGET));
    expect(extension(widget, 'x-kubernetes-group-version-kind')).toEqual([
      { group: 'example.com', version: 'v1', kind: 'Widget' },
    ]);
    expect(property(widget, 'metadata')?._ref).toBe('#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta');

    const spec = property(widget, 'spec');
    expect(spec?.required).toEqual(['size']);
    const size = property(spec, 'size');
    expect(size?.enum?.map((e) => parseYaml(e.yaml) as unknown)).toEqual(['small', 'large', 'yes']);
    expect(parseYaml(size!.default!.yaml)).toBe('small');
    expect(property(spec, 'count')?.maximum).toBe(10);
    expect(property(spec, 'labels')?.additionalProperties?.schema?.type).toEqual({ value: ['string'] });
    expect(extension(property(spec, 'anything'), 'x-kubernetes-preserve-unknown-fields')).toBe(true);
    const either = property(spec, 'either');
    expect(either?.type).toBeUndefined();
    expect(extension(either, 'x-kubernetes-int-or-string')).toBe(true);
    const tags = property(spec, 'tags');
    expect(tags?.items?.schema).toEqual([{ type: { value: ['string'] } }]);
    expect(extension(tags, 'x-kubernetes-list-type')).toBe('set');
  });

  it('caches the bytes until the registry changes', () => {
    const registry = new Registry(builtinResources());
    const { openapi } = createSchemas(registry);
    const first = openapi.v2Protobuf();
    const etag = openapi.v2ETag();
    expect(openapi.v2Protobuf()).toBe(first);
    expect(etag).toMatch(/^[0-9A-F]{128}$/);
    expect(definition(decode(first), definitionNameOf(WIDGET))).toBeUndefined();

    registry.setResource(WIDGET.group, WIDGET.resource, [WIDGET]);
    const second = openapi.v2Protobuf();
    expect(second).not.toBe(first);
    expect(openapi.v2ETag()).not.toBe(etag);
    expect(definition(decode(second), definitionNameOf(WIDGET))).toBeDefined();
  });
});
