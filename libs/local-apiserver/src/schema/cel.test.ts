import { describe, expect, it } from 'vitest';
import { resolveFieldPath, validateCRDRules, validateRules } from './cel.js';
import type { OpenAPISchema } from './types.js';

type Rule = NonNullable<OpenAPISchema['x-kubernetes-validations']>[number] & { optionalOldSelf?: boolean };
const rules = (schema: OpenAPISchema, ...r: Rule[]): OpenAPISchema => ({ ...schema, 'x-kubernetes-validations': r });
const root = (spec: OpenAPISchema, status?: OpenAPISchema): OpenAPISchema => ({
  type: 'object',
  properties: {
    apiVersion: { type: 'string' },
    kind: { type: 'string' },
    metadata: { type: 'object' },
    spec,
    ...(status ? { status } : {}),
  },
});
const obj = (spec: unknown, status?: unknown) => ({
  apiVersion: 'x/v1',
  kind: 'X',
  metadata: { name: 'a', namespace: 'n' },
  spec,
  ...(status ? { status } : {}),
});

describe('x-kubernetes-validations', () => {
  it('binds self to the value at the node carrying the rule', () => {
    const schema = root({
      type: 'object',
      properties: {
        replicas: rules({ type: 'integer' }, { rule: 'self >= 1 && self <= 5', message: 'must be between 1 and 5' }),
        name: rules({ type: 'string' }, { rule: 'self.startsWith("x-")' }),
      },
    });
    expect(validateRules(schema, obj({ replicas: 3, name: 'x-a' }), undefined).problems).toEqual([]);
    expect(validateRules(schema, obj({ replicas: 9, name: 'y' }), undefined).problems).toEqual([
      {
        field: 'spec.replicas',
        reason: 'FieldValueInvalid',
        message: 'Invalid value: "integer": must be between 1 and 5',
      },
      {
        field: 'spec.name',
        reason: 'FieldValueInvalid',
        message: 'Invalid value: "string": failed rule: self.startsWith("x-")',
      },
    ]);
  });

  it('evaluates object rules with has(), size() and macros, and root rules with metadata.name only', () => {
    const spec = rules(
      {
        type: 'object',
        properties: {
          a: { type: 'string' },
          b: { type: 'string' },
          items: { type: 'array', items: { type: 'integer' } },
        },
      },
      { rule: 'has(self.a) != has(self.b)', message: 'exactly one of a and b' },
      { rule: '!has(self.items) || (self.items.size() <= 3 && self.items.all(i, i > 0))', message: 'bad items' },
    );
    const schema = rules(root(spec), {
      rule: 'self.metadata.name == "a" && !has(self.metadata.namespace)',
      message: 'root',
    });
    expect(validateRules(schema, obj({ a: 'x', items: [1, 2] }), undefined).problems).toEqual([]);
    expect(
      validateRules(schema, obj({ a: 'x', b: 'y', items: [1, 0] }), undefined).problems.map((p) => p.message),
    ).toEqual(['Invalid value: "object": exactly one of a and b', 'Invalid value: "object": bad items']);
    expect(validateRules(schema, { ...obj({ a: 'x' }), metadata: { name: 'b' } }, undefined).problems).toEqual([
      { field: '', reason: 'FieldValueInvalid', message: 'Invalid value: "object": root' },
    ]);
  });

  it('evaluates transition rules only on update and only with an old value', () => {
    const schema = root({
      type: 'object',
      properties: {
        type: rules({ type: 'string' }, { rule: 'self == oldSelf', message: 'Value is immutable' }),
        other: { type: 'string' },
      },
    });
    expect(validateRules(schema, obj({ type: 'aws' }), undefined).problems).toEqual([]);
    expect(validateRules(schema, obj({ type: 'aws', other: 'b' }), obj({ type: 'aws', other: 'a' })).problems).toEqual(
      [],
    );
    // No old value at that path: not evaluated.
    expect(validateRules(schema, obj({ type: 'gcp' }), obj({ other: 'a' })).problems).toEqual([]);
    expect(validateRules(schema, obj({ type: 'gcp' }), obj({ type: 'aws' })).problems).toEqual([
      { field: 'spec.type', reason: 'FieldValueInvalid', message: 'Invalid value: "string": Value is immutable' },
    ]);
  });

  it('makes oldSelf optional with optionalOldSelf', () => {
    const schema = root({
      type: 'object',
      properties: {
        v: rules(
          { type: 'string' },
          {
            rule: '!oldSelf.hasValue() ? self == "first" : oldSelf.orValue("") != "locked"',
            optionalOldSelf: true,
            message: 'no',
          },
        ),
      },
    });
    expect(validateRules(schema, obj({ v: 'other' }), undefined).problems).toHaveLength(1);
    expect(validateRules(schema, obj({ v: 'first' }), undefined).problems).toEqual([]);
    expect(validateRules(schema, obj({ v: 'x' }), obj({ v: 'open' })).problems).toEqual([]);
    expect(validateRules(schema, obj({ v: 'x' }), obj({ v: 'locked' })).problems).toHaveLength(1);
  });

  it('correlates list-map items by key, and never atomic list items', () => {
    const item: OpenAPISchema = rules(
      { type: 'object', properties: { name: { type: 'string' }, port: { type: 'integer' } } },
      { rule: 'self.port == oldSelf.port', message: 'port is immutable' },
    );
    const schema = root({
      type: 'object',
      properties: {
        map: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: item },
        atomic: { type: 'array', items: item },
      },
    });
    const old = obj({
      map: [
        { name: 'a', port: 1 },
        { name: 'b', port: 2 },
      ],
      atomic: [{ name: 'a', port: 1 }],
    });
    // Reordered, one new item: correlated by name, the new item has no old value.
    expect(
      validateRules(
        schema,
        obj({
          map: [
            { name: 'c', port: 9 },
            { name: 'b', port: 2 },
            { name: 'a', port: 1 },
          ],
          atomic: [{ name: 'a', port: 5 }],
        }),
        old,
      ).problems,
    ).toEqual([]);
    expect(
      validateRules(
        schema,
        obj({
          map: [
            { name: 'b', port: 3 },
            { name: 'a', port: 1 },
          ],
        }),
        old,
      ).problems,
    ).toEqual([
      { field: 'spec.map[0]', reason: 'FieldValueInvalid', message: 'Invalid value: "object": port is immutable' },
    ]);
  });

  it('evaluates rules per item and per additionalProperties value', () => {
    const schema = root({
      type: 'object',
      properties: {
        list: { type: 'array', items: rules({ type: 'string' }, { rule: 'self.size() < 4' }) },
        labels: {
          type: 'object',
          additionalProperties: rules(
            { type: 'string' },
            { rule: 'self != ""', reason: 'FieldValueRequired', message: 'must be set' },
          ),
        },
      },
    });
    expect(
      validateRules(schema, obj({ list: ['ok', 'too long'], labels: { a: 'x', b: '' } }), undefined).problems,
    ).toEqual([
      {
        field: 'spec.list[1]',
        reason: 'FieldValueInvalid',
        message: 'Invalid value: "string": failed rule: self.size() < 4',
      },
      { field: 'spec.labels[b]', reason: 'FieldValueRequired', message: 'Required value: must be set' },
    ]);
  });

  it('uses messageExpression, falling back to message when it fails or is empty', () => {
    const spec = (messageExpression: string): OpenAPISchema =>
      root({
        type: 'object',
        properties: { n: rules({ type: 'integer' }, { rule: 'self < 10', message: 'static', messageExpression }) },
      });
    expect(
      validateRules(spec('"n is " + string(self) + ", want < 10"'), obj({ n: 12 }), undefined).problems[0].message,
    ).toBe('Invalid value: "integer": n is 12, want < 10');
    expect(validateRules(spec('self.nope'), obj({ n: 12 }), undefined).problems[0].message).toBe(
      'Invalid value: "integer": static',
    );
    expect(validateRules(spec('"  "'), obj({ n: 12 }), undefined).problems[0].message).toBe(
      'Invalid value: "integer": static',
    );
  });

  it('reports at fieldPath with the reason', () => {
    const spec = rules(
      {
        type: 'object',
        properties: {
          min: { type: 'integer' },
          max: { type: 'integer' },
          m: { type: 'object', additionalProperties: { type: 'string' } },
        },
      },
      { rule: 'self.min <= self.max', fieldPath: '.max', reason: 'FieldValueForbidden', message: 'max below min' },
      { rule: '!has(self.m) || !("k" in self.m)', fieldPath: ".m['k']", reason: 'FieldValueDuplicate' },
    );
    expect(validateRules(root(spec), obj({ min: 3, max: 1, m: { k: 'v' } }), undefined).problems).toEqual([
      { field: 'spec.max', reason: 'FieldValueForbidden', message: 'Forbidden: max below min' },
      { field: 'spec.m[k]', reason: 'FieldValueDuplicate', message: 'Duplicate value: "object"' },
    ]);
    expect(resolveFieldPath('.nope', spec)).toEqual({ error: 'does not refer to a valid field' });
  });

  it('reports runtime errors as kube does', () => {
    const schema = root(rules({ type: 'object', properties: { a: { type: 'string' } } }, { rule: 'self.a == "x"' }));
    expect(validateRules(schema, obj({}), undefined).problems).toEqual([
      {
        field: 'spec',
        reason: 'FieldValueInvalid',
        message: 'Invalid value: "object": No such key: a evaluating rule: self.a == "x"',
      },
    ]);
  });

  it('ratchets unchanged values: failures of non-transition rules become warnings', () => {
    const schema = root({
      type: 'object',
      properties: { name: rules({ type: 'string' }, { rule: 'self.size() <= 3', message: 'too long' }) },
    });
    const result = validateRules(schema, obj({ name: 'toolong' }), obj({ name: 'toolong' }));
    expect(result.problems).toEqual([]);
    expect(result.warnings).toEqual(['spec.name: Invalid value: "string": too long']);
    expect(validateRules(schema, obj({ name: 'toolong2' }), obj({ name: 'toolong' })).problems).toHaveLength(1);
  });

  it('splits rules between the main resource and the status subresource', () => {
    const schema = root(
      { type: 'object', properties: { x: rules({ type: 'string' }, { rule: 'self == "ok"' }) } },
      { type: 'object', properties: { y: rules({ type: 'string' }, { rule: 'self == "ok"' }) } },
    );
    const bad = obj({ x: 'bad' }, { y: 'bad' });
    expect(validateRules(schema, bad, undefined, 'all').problems.map((p) => p.field)).toEqual(['spec.x', 'status.y']);
    expect(validateRules(schema, bad, obj({ x: 'ok' }, { y: 'ok' }), 'main').problems.map((p) => p.field)).toEqual([
      'spec.x',
    ]);
    expect(validateRules(schema, bad, obj({ x: 'ok' }, { y: 'ok' }), 'status').problems.map((p) => p.field)).toEqual([
      'status.y',
    ]);
  });

  it('provides the Kubernetes list, regex, URL and quantity functions', () => {
    const check = (rule: string, value: unknown) =>
      validateRules(rules({}, { rule }), value, undefined).problems.length === 0;
    expect(check('self.isSorted() && self.sum() == 6 && self.max() == 3 && self.indexOf(2) == 1', [1, 2, 3])).toBe(
      true,
    );
    expect(check('self.isSorted()', [3, 1])).toBe(false);
    expect(check('self.find("[0-9]+") == "12" && self.findAll("[a-z]").size() == 2', 'ab12')).toBe(true);
    expect(
      check(
        'isURL(self) && url(self).getHost() == "example.com:8443" && url(self).getScheme() == "https"',
        'https://example.com:8443/p',
      ),
    ).toBe(true);
    expect(check('isURL(self)', 'not a url')).toBe(false);
    expect(
      check(
        'isQuantity(self) && quantity(self).isGreaterThan(quantity("1Gi")) && quantity(self).compareTo(quantity("2048Mi")) == 0',
        '2Gi',
      ),
    ).toBe(true);
    expect(check('self.matches("^[a-z]+$")', 'abc')).toBe(true);
  });
});

describe('CRD rule compilation', () => {
  const crd = (rule: string, extra: Record<string, unknown> = {}) => ({
    spec: {
      versions: [
        {
          name: 'v1',
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  properties: { type: { type: 'string', 'x-kubernetes-validations': [{ rule, ...extra }] } },
                },
              },
            },
          },
        },
      ],
    },
  });

  it('accepts rules that compile', () => {
    expect(validateCRDRules(crd('self == oldSelf', { message: 'Value is immutable' }))).toEqual([]);
  });

  it('refuses a rule that does not compile, at kube field path', () => {
    const [problem] = validateCRDRules(crd('self ==')) as { field: string; message: string }[];
    expect(problem.field).toBe(
      'spec.validation.openAPIV3Schema.properties[spec].properties[type].x-kubernetes-validations[0].rule',
    );
    expect(problem.message).toMatch(
      /^Invalid value: apiextensions\.ValidationRule\{Rule:"self ==", .*\}: compilation failed: ERROR: <input>: /,
    );
  });

  it('refuses bad reasons, fieldPaths, non-bool rules and messageExpressions', () => {
    expect(validateCRDRules(crd('self.size()')).map((p) => p.message)).toEqual([
      expect.stringMatching(/cel expression must evaluate to a bool$/),
    ]);
    expect(validateCRDRules(crd('true', { reason: 'Nope' })).map((p) => p.field)).toEqual([
      expect.stringMatching(/x-kubernetes-validations\[0\]\.reason$/),
    ]);
    expect(validateCRDRules(crd('true', { messageExpression: 'self +' })).map((p) => p.field)).toEqual([
      expect.stringMatching(/\.messageExpression$/),
    ]);
    expect(validateCRDRules(crd('true', { fieldPath: '.x' })).map((p) => p.field)).toEqual([
      expect.stringMatching(/\.fieldPath$/),
    ]);
    expect(validateCRDRules(crd('  ')).map((p) => p.message)).toEqual(['Required value: rule is not specified']);
  });
});
