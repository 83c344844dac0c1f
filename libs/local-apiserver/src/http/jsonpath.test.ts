import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatGoFloat, goJson, JsonPath, JsonPathError, printJsonPathValue } from './jsonpath.js';
import { jsonPathCell } from './table.js';

const find = (template: string, data: unknown) => JsonPath.parse(template).findResults(data);

const shoot = {
  metadata: { name: 'dev', labels: { 'shoot.gardener.cloud/status': 'healthy', app: 'x' } },
  spec: { workers: [{ name: 'a', zones: ['z1', 'z2'] }, { name: 'b', zones: ['z3'] }, { name: 'c' }] },
  status: {
    conditions: [
      { type: 'APIServerAvailable', status: 'True' },
      { type: 'Ready', status: 'False', count: 3 },
    ],
  },
};

describe('kube JSONPath', () => {
  it('escaped dots in field names', () => {
    expect(find('{.metadata.labels.shoot\\.gardener\\.cloud/status}', shoot)).toEqual([['healthy']]);
    expect(find("{.metadata.labels['app']}", shoot)).toEqual([['x']]);
  });

  it('filters compare with Go template rules', () => {
    expect(find('{.status.conditions[?(@.type=="Ready")].status}', shoot)).toEqual([['False']]);
    expect(find("{.status.conditions[?(@.type!='Ready')].type}", shoot)).toEqual([['APIServerAvailable']]);
    expect(find('{.status.conditions[?(@.count>2)].type}', shoot)).toEqual([['Ready']]);
    expect(find('{.status.conditions[?(@.count)].type}', shoot)).toEqual([['Ready']]);
    // An int compared with a string is an error in Go templates.
    expect(() => find('{.status.conditions[?(@.count=="3")].type}', shoot)).toThrow(JsonPathError);
    expect(() => find('{.status.conditions[?(@.count==3.0)].type}', shoot)).toThrow('incompatible types');
  });

  it('indexes, slices, wildcards, unions and recursive descent', () => {
    expect(find('{.spec.workers[0].name}', shoot)).toEqual([['a']]);
    expect(find('{.spec.workers[-1].name}', shoot)).toEqual([['c']]);
    expect(find('{.spec.workers[0:2].name}', shoot)).toEqual([['a', 'b']]);
    expect(find('{.spec.workers[::2].name}', shoot)).toEqual([['a', 'c']]);
    expect(find('{.spec.workers[*].zones[*]}', shoot)).toEqual([['z1', 'z2', 'z3']]);
    expect(find('{.spec.workers[0,2].name}', shoot)).toEqual([['a', 'c']]);
    expect(find('{.spec.workers.*.name}', shoot)).toEqual([['a', 'b', 'c']]);
    expect(find('{..zones[0]}', shoot)).toEqual([['z1', 'z3']]);
    expect(find('{$.metadata.name}', shoot)).toEqual([['dev']]);
  });

  it('missing keys give no results; bounds errors throw as in kube', () => {
    expect(find('{.status.missing.deeper}', shoot)).toEqual([[]]);
    expect(() => find('{.spec.workers[5].name}', shoot)).toThrow('array index out of bounds: index 5, length 3');
    expect(() => find('{.metadata[0]}', shoot)).toThrow('is not array or slice');
    expect(find('{.spec.workers[1:1]}', shoot)).toEqual([[]]);
  });

  it('templates with text and several actions', () => {
    expect(find('name={.metadata.name} {"quoted"}', shoot)).toEqual([['name='], ['dev'], [' '], ['quoted']]);
    expect(() => JsonPath.parse('{.a')).toThrow('unclosed action');
    expect(() => JsonPath.parse('{.a[x]}')).toThrow('invalid array index x');
  });

  it('prints values as kube does', () => {
    expect(printJsonPathValue({ b: 1, a: ['<x>'] })).toBe('{"a":["\\u003cx\\u003e"],"b":1}');
    expect(printJsonPathValue(3)).toBe('3');
    expect(printJsonPathValue(0.5)).toBe('0.5');
    expect(printJsonPathValue(null)).toBe('<no value>');
    expect(formatGoFloat(1234567.5)).toBe('1.2345675e+06');
    expect(formatGoFloat(0.00001)).toBe('1e-05');
    expect(goJson([1, 'a&b'])).toBe('[1,"a\\u0026b"]');
  });

  it('printer cells: first result, typed values, nil when missing or failing', () => {
    expect(jsonPathCell(shoot, { jsonPath: '.spec.workers[*].name', type: 'string' })).toBe('a');
    expect(jsonPathCell(shoot, { jsonPath: '.status.conditions[?(@.type=="Ready")].count', type: 'integer' })).toBe(3);
    expect(jsonPathCell(shoot, { jsonPath: '.metadata.name', type: 'integer' })).toBeNull();
    expect(jsonPathCell(shoot, { jsonPath: '.spec.workers[9].name', type: 'string' })).toBeNull();
    expect(jsonPathCell(shoot, { jsonPath: '.metadata.labels', type: 'string' })).toBe(
      '{"app":"x","shoot.gardener.cloud/status":"healthy"}',
    );
  });

  it('property: an escaped path reaches any key made of label characters', () => {
    const key = fc.stringMatching(/^[A-Za-z0-9][-A-Za-z0-9_./]{0,20}$/);
    fc.assert(
      fc.property(fc.array(key, { minLength: 1, maxLength: 4 }), fc.string(), (keys, leaf) => {
        let data: unknown = leaf;
        for (const k of [...keys].reverse()) data = { [k]: data };
        const path = keys.map((k) => '.' + k.replace(/\./g, '\\.')).join('');
        expect(find(`{${path}}`, data)).toEqual([[leaf]]);
      }),
    );
  });

  it('property: slices select what Go slicing selects', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer(), { maxLength: 8 }),
        fc.nat(8),
        fc.nat(8),
        fc.integer({ min: 1, max: 3 }),
        (list, a, b, step) => {
          const template = `{[${a}:${b}:${step}]}`;
          const inBounds = a === b || (a < list.length && b <= list.length && a <= b);
          if (!inBounds) {
            expect(() => find(template, list)).toThrow(JsonPathError);
            return;
          }
          const expected = a === b ? [] : list.slice(a, b).filter((_, i) => i % step === 0);
          expect(find(template, list)).toEqual([expected]);
        },
      ),
    );
  });
});
