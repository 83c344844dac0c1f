import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  escapeFieldSelectorValue,
  fieldSelectorMatches,
  fieldSelectorRequiresExactMatch,
  parseFieldSelector,
  unescapeFieldSelectorValue,
} from './field-selector.js';

describe('parseFieldSelector', () => {
  // k8s.io/apimachinery/pkg/fields selector_test.go's valid cases.
  const valid: [string, [string, '=' | '!=', string][]][] = [
    ['', []],
    ['a=b', [['a', '=', 'b']]],
    ['a==b', [['a', '=', 'b']]],
    ['a!=b', [['a', '!=', 'b']]],
    ['a=', [['a', '=', '']]],
    ['a==', [['a', '=', '']]],
    [
      'metadata.name=x,spec.nodeName!=n',
      [
        ['metadata.name', '=', 'x'],
        ['spec.nodeName', '!=', 'n'],
      ],
    ],
    // Terms are sorted as text, as kube sorts them; empty terms are skipped.
    [
      'z=1,,a=2,',
      [
        ['a', '=', '2'],
        ['z', '=', '1'],
      ],
    ],
    // Escapes in values: \, \= \\ — a backslash-escaped comma does not split.
    ['a=b\\,c', [['a', '=', 'b,c']]],
    ['a=b\\=c', [['a', '=', 'b=c']]],
    ['a=b\\\\c', [['a', '=', 'b\\c']]],
    ['a==\\=b', [['a', '=', '=b']]],
    // The field is not unescaped and whitespace is data, as kube.
    ['a b=c', [['a b', '=', 'c']]],
  ];
  it.each(valid)('%j', (text, want) => {
    expect(parseFieldSelector(text).map((r) => [r.field, r.operator, r.value])).toEqual(want);
  });

  // kube's error messages.
  const invalid: [string, string][] = [
    ['a', "invalid selector: 'a'; can't understand 'a'"],
    ['a=b,c', "invalid selector: 'a=b,c'; can't understand 'c'"],
    ['a=b=c', 'invalid field selector: unescaped character in value: 61'],
    ['a!=b,c', "invalid selector: 'a!=b,c'; can't understand 'c'"],
    ['a=\\x', 'invalid field selector: invalid escape sequence: \\x'],
    ['a=b\\', 'invalid field selector: invalid escape sequence: \\'],
    ['a\\=b=c', 'invalid field selector: unescaped character in value: 61'],
  ];
  it.each(invalid)('%j fails', (text, message) => {
    expect(() => parseFieldSelector(text)).toThrow(expect.objectContaining({ name: 'FieldSelectorError', message }));
  });

  it('reads back every escaped value (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), fc.string({ maxLength: 20 }), (a, b) => {
        const text = `f=${escapeFieldSelectorValue(a)},g!=${escapeFieldSelectorValue(b)}`;
        expect(parseFieldSelector(text)).toEqual([
          { field: 'f', operator: '=', value: a },
          { field: 'g', operator: '!=', value: b },
        ]);
        expect(unescapeFieldSelectorValue(escapeFieldSelectorValue(a))).toBe(a);
      }),
    );
  });

  it('matches with missing fields as empty and finds exact matches', () => {
    const reqs = parseFieldSelector('metadata.name=a,status.phase!=Running,spec.nodeName=');
    const fields: Record<string, string> = { 'metadata.name': 'a', 'status.phase': 'Pending' };
    expect(fieldSelectorMatches(reqs, (f) => fields[f])).toBe(true);
    expect(fieldSelectorMatches(reqs, (f) => ({ ...fields, 'status.phase': 'Running' })[f])).toBe(false);
    expect(fieldSelectorRequiresExactMatch(reqs, 'metadata.name')).toBe('a');
    expect(fieldSelectorRequiresExactMatch(reqs, 'status.phase')).toBeUndefined();
  });
});
