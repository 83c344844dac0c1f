import fc from 'fast-check';
import { Kind, OptionalKind, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import { ShootKind, ShootStatus } from '../core/v1beta1/index.js';
import { gardenerKinds } from '../kinds.js';
import { fillZeroValues, withStatusZeroValues, zeroValue } from './zero-values.js';

const lastOperation = {
  type: 'Reconcile',
  state: 'Processing',
  progress: 10,
  description: 'Reconciliation of Shoot cluster in progress.',
  lastUpdateTime: '2026-01-01T00:00:00Z',
};

describe('zeroValue', () => {
  it("is Go's zero value of Gardener's Gardener struct: three empty strings", () => {
    expect(zeroValue(ShootStatus.properties.gardener)).toEqual({ id: '', name: '', version: '' });
  });

  it('is false for a bool, "" for a string, 0 for a number', () => {
    expect(zeroValue(ShootStatus.properties.hibernated)).toBe(false);
    expect(zeroValue(ShootStatus.properties.technicalID)).toBe('');
    expect(zeroValue(ShootStatus.properties.lastOperation.properties.progress)).toBe(0);
  });

  it('is absent where Go writes null or the schema cannot hold the zero value', () => {
    const op = ShootStatus.properties.lastOperation.properties;
    expect(zeroValue(op.lastUpdateTime)).toBeUndefined(); // metav1.Time
    expect(zeroValue(op.state)).toBeUndefined(); // an enum: "" is not one of its values
    expect(zeroValue(ShootStatus.properties.conditions)).toBeUndefined(); // a nil slice
  });
});

describe('withStatusZeroValues', () => {
  it('fills a Shoot status holding only lastOperation as Gardener returns it', () => {
    const shoot = { apiVersion: 'core.gardener.cloud/v1beta1', kind: 'Shoot', status: { lastOperation } };
    const filled = withStatusZeroValues(ShootKind, shoot);
    expect(filled.status).toEqual({
      lastOperation,
      gardener: { id: '', name: '', version: '' },
      hibernated: false,
      technicalID: '',
      uid: '',
    });
    expect(Value.Check(ShootStatus, filled.status)).toBe(true);
    expect(shoot.status).toEqual({ lastOperation }); // the input is left alone
  });

  it('fills inside what is there: a partial gardener, conditions without reason and message', () => {
    const status = {
      gardener: { version: 'v1.2.3' },
      hibernated: true,
      conditions: [{ type: 'APIServerAvailable', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z' }],
    };
    const filled = withStatusZeroValues(ShootKind, { status }).status as Record<string, any>;
    expect(filled.gardener).toEqual({ id: '', name: '', version: 'v1.2.3' });
    expect(filled.hibernated).toBe(true);
    expect(filled.conditions[0]).toEqual({ ...status.conditions[0], reason: '', message: '' });
  });

  it('leaves an object without status as it is (status is cleared on create)', () => {
    const shoot = { kind: 'Shoot', spec: { region: 'local' } };
    expect(withStatusZeroValues(ShootKind, shoot)).toBe(shoot);
  });

  it('leaves wrongly typed values for validation to report', () => {
    const filled = withStatusZeroValues(ShootKind, { status: { hibernated: 'yes', gardener: 'x' } });
    expect(filled.status).toMatchObject({ hibernated: 'yes', gardener: 'x' });
  });
});

/** Values shaped like the schema, with fields left out at random and now and then a value of any JSON type. */
function sparse(schema: TSchema): fc.Arbitrary<unknown> {
  const any = fc.jsonValue({ maxDepth: 1 });
  if (schema['x-kubernetes-preserve-unknown-fields'] || schema['x-kubernetes-int-or-string']) return any;
  let shaped: fc.Arbitrary<unknown>;
  switch (schema[Kind]) {
    case 'Object': {
      const properties = schema.properties as Record<string, TSchema>;
      const arbitraries = Object.fromEntries(Object.entries(properties).map(([k, p]) => [k, sparse(p)]));
      shaped = fc.record(arbitraries, { requiredKeys: [] });
      break;
    }
    case 'Array':
      shaped = fc.array(sparse(schema.items as TSchema), { maxLength: 2 });
      break;
    case 'Record': {
      const [values] = Object.values(schema.patternProperties as Record<string, TSchema>);
      shaped = fc.dictionary(fc.string({ maxLength: 4 }), sparse(values), { maxKeys: 2 });
      break;
    }
    case 'String':
      shaped = fc.string({ maxLength: 4 });
      break;
    case 'Integer':
    case 'Number':
      shaped = fc.integer();
      break;
    case 'Boolean':
      shaped = fc.boolean();
      break;
    default:
      shaped = any;
  }
  return fc.oneof({ weight: 9, arbitrary: shaped }, { weight: 1, arbitrary: any });
}

/** Whether every value present in `original` is in `filled` unchanged, at the same place. */
function keeps(filled: unknown, original: unknown): boolean {
  if (Array.isArray(original)) {
    return Array.isArray(filled) && filled.length === original.length && original.every((v, i) => keeps(filled[i], v));
  }
  if (typeof original === 'object' && original !== null) {
    if (typeof filled !== 'object' || filled === null || Array.isArray(filled)) return false;
    return Object.entries(original).every(([k, v]) => keeps((filled as Record<string, unknown>)[k], v));
  }
  return Object.is(filled, original);
}

const statusSchemas = gardenerKinds
  .map((kind) => [kind.info.kind, (kind.schema.properties as Record<string, TSchema>).status] as const)
  .filter(([, schema]) => schema !== undefined);

describe('fillZeroValues (property)', () => {
  it.each(statusSchemas)('%s status: idempotent, keeps what is present, does not modify its input', (_, schema) => {
    fc.assert(
      fc.property(sparse(schema), (value) => {
        const before = structuredClone(value);
        const filled = fillZeroValues(schema, value);
        expect(value).toEqual(before);
        expect(keeps(filled, value)).toBe(true);
        expect(fillZeroValues(schema, filled)).toEqual(filled);
      }),
      { numRuns: 200 },
    );
  });

  it.each(statusSchemas)('%s status: what it fills is valid, what it leaves out has no Go zero value', (_, schema) => {
    fc.assert(
      fc.property(sparse(schema), (value) => {
        const filled = fillZeroValues(schema, value);
        for (const error of Value.Errors(schema, filled)) {
          const path = error.path
            .split('/')
            .slice(1)
            .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~')); // a JSON pointer
          const original = path.reduce<any>((node, part) => node?.[part], value);
          if (original !== undefined) continue; // the input's own mistake
          // Missing after filling: a field Go writes as null or whose zero value the schema refuses.
          expect(error.value).toBeUndefined();
          expect(requiredSchemaAt(schema, path)).toSatisfy((s: TSchema) => zeroValue(s) === undefined);
        }
      }),
      { numRuns: 200 },
    );
  });
});

/** The schema of the field at `path`, checking that the field is a required one. */
function requiredSchemaAt(schema: TSchema, path: string[]): TSchema {
  const field = path.reduce<TSchema>((node, part) => {
    if (node[Kind] === 'Array') return node.items as TSchema;
    if (node[Kind] === 'Record') return Object.values(node.patternProperties as Record<string, TSchema>)[0];
    return (node.properties as Record<string, TSchema>)[part];
  }, schema);
  expect(field[OptionalKind]).not.toBe('Optional');
  return field;
}
