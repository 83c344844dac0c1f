import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { gardenerAsset } from '@gardener-ts/test-support';
import { BUILTIN_DEFINITIONS, builtinDefinitionName, builtinResolver } from './builtin.js';
import { applyDefaults } from './defaults.js';
import { inlineResolver, listSemantics, type SchemaView } from './navigate.js';
import { pruneUnknown } from './prune.js';
import type { OpenAPISchema } from './types.js';
import { validateValue } from './validate.js';

const crd = parse(readFileSync(gardenerAsset('crds', '10-crd-extensions.gardener.cloud_infrastructures.yaml'), 'utf8'));
const infra: OpenAPISchema = crd.spec.versions[0].schema.openAPIV3Schema;
const view: SchemaView = { root: infra, resolve: inlineResolver };

describe('structural validation of a Gardener CRD', () => {
  it('accepts a valid Infrastructure spec', () => {
    const spec = { type: 'local', region: 'local', secretRef: { name: 's', namespace: 'garden' } };
    expect(validateValue(view, infra.properties!.spec, spec, 'spec')).toEqual([]);
  });

  it('reports wrong types and missing required fields with kube field paths and reasons', () => {
    const problems = validateValue(view, infra.properties!.spec, { type: 5, region: 'x' }, 'spec');
    expect(problems).toContainEqual({
      field: 'spec.type',
      reason: 'FieldValueTypeInvalid',
      message: 'Invalid value: "integer": spec.type in body must be of type string: "integer"',
    });
    expect(problems).toContainEqual({
      field: 'spec.secretRef',
      reason: 'FieldValueRequired',
      message: 'Required value',
    });
  });

  it('checks enums, bounds, patterns and duplicate list-map keys', () => {
    const schema: OpenAPISchema = {
      type: 'object',
      properties: {
        mode: { type: 'string', enum: ['a', 'b'] },
        n: { type: 'integer', minimum: 1, maximum: 3 },
        name: { type: 'string', pattern: '^[a-z]+$', maxLength: 4 },
        items: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          items: { type: 'object', properties: { name: { type: 'string' } } },
        },
      },
    };
    const problems = validateValue(
      { root: schema, resolve: inlineResolver },
      schema,
      { mode: 'c', n: 0, name: 'ABCDE', items: [{ name: 'x' }, { name: 'x' }] },
      'spec',
    );
    expect(problems.map((p) => `${p.field} ${p.reason}`)).toEqual([
      'spec.mode FieldValueNotSupported',
      'spec.n FieldValueInvalid',
      'spec.name FieldValueTooLong',
      'spec.name FieldValueInvalid',
      'spec.items[1] FieldValueDuplicate',
    ]);
    expect(problems[0].message).toBe('Unsupported value: "c": supported values: "a", "b"');
  });
});

describe('pruning and defaulting', () => {
  it('prunes undeclared fields and returns their paths, keeping x-kubernetes-preserve-unknown-fields', () => {
    const object = { spec: { type: 'local', region: 'r', bogus: 1, providerConfig: { anything: true } }, extra: 'x' };
    const removed = pruneUnknown(view, infra, object);
    expect(removed.sort()).toEqual(['extra', 'spec.bogus']);
    expect(object.spec.providerConfig).toEqual({ anything: true });
  });

  it('prunes unknown fields of built-in kinds through $refs', () => {
    const deployment = builtinDefinitionName('V1Deployment', 'apps');
    const builtin: SchemaView = { root: BUILTIN_DEFINITIONS[deployment], resolve: builtinResolver };
    const object = {
      metadata: { name: 'a', colour: 'red' },
      spec: { replicas: 1, template: { spec: { containers: [{ name: 'c', image: 'i', imag: 'typo' }] } } },
    };
    expect(pruneUnknown(builtin, builtin.root, object).sort()).toEqual([
      'metadata.colour',
      'spec.template.spec.containers[0].imag',
    ]);
  });

  it('fills schema defaults, nested ones included', () => {
    const schema: OpenAPISchema = {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          default: {},
          properties: { replicas: { type: 'integer', default: 1 }, mode: { type: 'string', default: 'x' } },
        },
      },
    };
    const object: Record<string, unknown> = {};
    applyDefaults({ root: schema, resolve: inlineResolver }, schema, object);
    expect(object).toEqual({ spec: { replicas: 1, mode: 'x' } });
  });

  it('carries kube patch metadata on built-in lists', () => {
    const podSpec = BUILTIN_DEFINITIONS[builtinDefinitionName('V1PodSpec', '')];
    const builtin: SchemaView = { root: podSpec, resolve: builtinResolver };
    expect(listSemantics(builtin, podSpec.properties!.containers)).toMatchObject({
      strategy: 'merge',
      mergeKey: 'name',
      listType: 'map',
    });
    expect(listSemantics(builtin, podSpec.properties!.tolerations)).toMatchObject({
      strategy: 'replace',
      listType: 'atomic',
    });
  });
});
