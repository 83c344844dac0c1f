import { describe, expect, it } from 'vitest';
import { generatedCRDs } from './generate.js';
import type { JSONSchemaProps } from './types.js';

const rootOf = (name: string): JSONSchemaProps => {
  const crd = generatedCRDs().find((c) => c.metadata.name === name);
  if (!crd) throw new Error(`no CRD ${name}`);
  return crd.spec.versions[0].schema!.openAPIV3Schema;
};

/** Every `default` in a structural schema, by dotted path (`[]` for array items, `*` for map values). */
function defaults(schema: JSONSchemaProps, path = ''): [string, unknown][] {
  const own: [string, unknown][] = schema.default !== undefined ? [[path, schema.default]] : [];
  const children = [
    ...Object.entries(schema.properties ?? {}).map(([k, s]) => defaults(s, path ? `${path}.${k}` : k)),
    ...(schema.items ? [defaults(schema.items, `${path}.[]`)] : []),
    ...(typeof schema.additionalProperties === 'object' ? [defaults(schema.additionalProperties, `${path}.*`)] : []),
  ];
  return [...own, ...children.flat()];
}

describe("status defaults: Go's zero values of non-omitempty fields", () => {
  it('give a Shoot status hibernated: false and an empty gardener, as Gardener returns them', () => {
    const status = rootOf('shoots.core.gardener.cloud').properties!.status;
    expect(status.default).toBeUndefined(); // no status is made up for an object without one
    expect(status.properties!.hibernated.default).toBe(false);
    expect(status.properties!.gardener.default).toEqual({ id: '', name: '', version: '' });
    expect(status.properties!.gardener.properties!.version.default).toBe('');
    expect(status.properties!.technicalID.default).toBe('');
    expect(status.properties!.lastOperation.default).toBeUndefined(); // a pointer: omitted
    expect(status.properties!.lastOperation.properties!.progress.default).toBe(0);
    expect(status.properties!.lastOperation.properties!.state.default).toBeUndefined(); // an enum
    expect(status.properties!.lastOperation.properties!.lastUpdateTime.default).toBeUndefined(); // metav1.Time: null
  });

  it('are only in status, never in spec or other top-level fields', () => {
    for (const crd of generatedCRDs()) {
      const paths = defaults(crd.spec.versions[0].schema!.openAPIV3Schema).map(([path]) => path);
      expect(
        paths.filter((p) => !p.startsWith('status.')),
        crd.metadata.name,
      ).toEqual([]);
    }
  });

  it('are values their schema accepts: a string for a string, a bool for a bool, an object for an object', () => {
    const typeOf = (v: unknown) => (Array.isArray(v) ? 'array' : typeof v === 'number' ? 'integer' : typeof v);
    for (const crd of generatedCRDs()) {
      const walk = (schema: JSONSchemaProps) => {
        if (schema.default !== undefined) {
          expect([schema.type, schema.type === 'number' ? 'integer' : undefined]).toContain(typeOf(schema.default));
          expect(schema.enum).toBeUndefined();
          expect(schema.format === undefined || schema.type !== 'string').toBe(true);
        }
        Object.values(schema.properties ?? {}).forEach(walk);
        if (schema.items) walk(schema.items);
        if (typeof schema.additionalProperties === 'object') walk(schema.additionalProperties);
      };
      walk(crd.spec.versions[0].schema!.openAPIV3Schema);
    }
  });
});
