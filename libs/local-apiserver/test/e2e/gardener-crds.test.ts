// Every CRD Gardener ships loads, is served at once, and validates custom resources against its schema: a
// minimal object built from the schema's required fields is stored; one with a wrongly typed required field is
// refused with 422 and the field's path; unknown fields are pruned.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { waitFor, gardenerAsset } from '@gardener-ts/test-support';
import { LocalApiServer } from '../../src/index.js';
import type { OpenAPISchema } from '../../src/schema/types.js';
import { rawClient } from './raw-client.js';

const crdDir = gardenerAsset('crds');
const crds = readdirSync(crdDir)
  .filter((f) => f.endsWith('.yaml'))
  .map((f) => parse(readFileSync(join(crdDir, f), 'utf8')));

let server: LocalApiServer;
let api: ReturnType<typeof rawClient>;

beforeAll(async () => {
  server = await LocalApiServer.start();
  api = rawClient(server);
});
afterAll(async () => server?.stop());

/** Values for string fields with a pattern, which a generic sample cannot guess (Gardener's maintenance window). */
const PATTERNED: Record<string, string> = { begin: '220000+0100', end: '230000+0100' };

/** The smallest value a schema accepts: required properties only, enums' first value, minimums respected. */
function sample(schema: OpenAPISchema, name = ''): unknown {
  if (schema.enum) return schema.enum[0];
  if (schema.pattern && PATTERNED[name]) return PATTERNED[name];
  if (schema['x-kubernetes-int-or-string']) return 1;
  switch (schema.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const key of schema.required ?? []) out[key] = sample(schema.properties?.[key] ?? { type: 'string' }, key);
      return out;
    }
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => sample(schema.items ?? { type: 'string' }));
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return false;
    default:
      return schema.format === 'date-time' ? '2026-01-01T00:00:00Z' : 'x'.repeat(Math.max(1, schema.minLength ?? 1));
  }
}

/** The path of the first required string field, for a type violation. */
function requiredStringPath(schema: OpenAPISchema, path: string[]): string[] | undefined {
  for (const key of schema.required ?? []) {
    const child = schema.properties?.[key];
    if (!child) continue;
    if (child.type === 'string' && !child.enum) return [...path, key];
    if (child.type === 'object') {
      const found = requiredStringPath(child, [...path, key]);
      if (found) return found;
    }
  }
  return undefined;
}

describe.each(crds.map((crd) => [crd.metadata.name as string, crd]))('CRD %s', (_name, crd) => {
  const version = crd.spec.versions.find((v: { storage: boolean }) => v.storage);
  const schema: OpenAPISchema = version.schema.openAPIV3Schema;
  const base = `/apis/${crd.spec.group}/${version.name}/${crd.spec.scope === 'Namespaced' ? 'namespaces/default/' : ''}${crd.spec.names.plural}`;
  const object = (name: string, spec: unknown) => ({
    ...(sample(schema) as Record<string, unknown>),
    apiVersion: `${crd.spec.group}/${version.name}`,
    kind: crd.spec.names.kind,
    metadata: { name },
    ...(schema.properties?.spec ? { spec } : {}),
  });

  it('is established and validates its custom resources', async () => {
    expect(
      (await api.send('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', JSON.stringify(crd))).status,
    ).toBe(201);
    await waitFor('the resource to be served', async () => (await api.send('GET', base)).status === 200);

    const spec = schema.properties?.spec ? (sample(schema.properties.spec) as Record<string, unknown>) : {};
    const created = await api.send('POST', base, JSON.stringify(object('minimal', { ...spec, notInSchema: true })));
    expect(created.status, created.body).toBe(201);
    if (schema.properties?.spec && !schema.properties.spec['x-kubernetes-preserve-unknown-fields']) {
      expect(created.json().spec.notInSchema).toBeUndefined();
    }

    const path = schema.properties?.spec ? requiredStringPath(schema.properties.spec, ['spec']) : undefined;
    if (!path) return;
    const broken = structuredClone(spec);
    let cursor: Record<string, unknown> = { spec: broken };
    for (const key of path.slice(0, -1)) cursor = cursor[key] as Record<string, unknown>;
    cursor[path[path.length - 1]] = 42;
    const refused = await api.send('POST', base, JSON.stringify(object('broken', broken)));
    expect(refused.status).toBe(422);
    expect(refused.json().details.causes.map((c: { field: string }) => c.field)).toContain(path.join('.'));
  });
});
