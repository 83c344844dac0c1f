import { parseFieldSelector } from '@gardener-ts/api';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fieldSelectorString, listQuery } from './options.js';

describe('field selectors in list requests', () => {
  it("escapes an object selector's values as kube's fields.EscapeValue does", () => {
    expect(fieldSelectorString({ 'metadata.name': 'a,b=c\\d' })).toBe('metadata.name=a\\,b\\=c\\\\d');
    expect(listQuery({ fieldSelector: { 'spec.nodeName': 'n,1' } }).get('fieldSelector')).toBe('spec.nodeName=n\\,1');
    // A string is the caller's selector, already in kube's syntax.
    expect(fieldSelectorString('metadata.name!=x')).toBe('metadata.name!=x');
  });

  it('reads back as the same equalities for any values', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom('metadata.name', 'spec.nodeName', 'status.phase'), fc.string()),
        (selector) => {
          const parsed = parseFieldSelector(fieldSelectorString(selector)!);
          const expected = Object.entries(selector)
            .filter(([, value]) => value !== undefined)
            .map(([field, value]) => ({ field, operator: '=', value }));
          expect([...parsed].sort((a, b) => a.field.localeCompare(b.field))).toEqual(
            expected.sort((a, b) => a.field.localeCompare(b.field)),
          );
        },
      ),
    );
  });
});
