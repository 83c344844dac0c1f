// kube's name and label syntax with its exact messages (the one implementation libs/api and the local API server share).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dns1123LabelErrors, labelValueErrors, qualifiedNameErrors, regexError } from './names.js';

const alnum = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'.split(''));
const middle = fc.constantFrom(...'abcXYZ019-_.'.split(''));
const validName = fc
  .tuple(alnum, fc.array(middle, { maxLength: 61 }), alnum)
  .map(([a, m, b]) => a + m.join('') + b)
  .filter((s) => s.length <= 63);

describe('kube qualified names', () => {
  it('accepts the keys Gardener and kube use', () => {
    for (const key of [
      'app',
      'shoot.gardener.cloud/status',
      'resources.gardener.cloud/managed-by',
      'kubernetes.io/hostname',
      'MyName',
      'a',
    ]) {
      expect(qualifiedNameErrors(key)).toEqual([]);
    }
  });

  it('words problems as kube does', () => {
    expect(qualifiedNameErrors('a'.repeat(64))).toEqual(['name part must be no more than 63 characters']);
    expect(qualifiedNameErrors('/x')).toEqual(['prefix part must be non-empty']);
    expect(qualifiedNameErrors('a/b/c')[0]).toBe(
      "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    );
    expect(qualifiedNameErrors('Example.com/x')[0]).toMatch(
      /^prefix part a lowercase RFC 1123 subdomain must consist of/,
    );
    expect(qualifiedNameErrors('x/')).toEqual([
      'name part must be non-empty',
      `name part ${regexError("must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character", '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]', 'MyName', 'my.name', '123-abc')}`,
    ]);
  });

  it('property: a valid name with an optional DNS prefix is accepted; one more character past 63 is not', () => {
    fc.assert(
      fc.property(
        validName,
        fc.option(fc.stringMatching(/^[a-z0-9]([-a-z0-9]{0,20}[a-z0-9])?(\.[a-z0-9]{1,10})*$/)),
        (name, prefix) => {
          const key = prefix ? `${prefix}/${name}` : name;
          expect(qualifiedNameErrors(key)).toEqual([]);
          expect(qualifiedNameErrors(`${key}${'x'.repeat(64 - name.length)}`)).toContain(
            'name part must be no more than 63 characters',
          );
        },
      ),
    );
  });

  it('property: label values are valid exactly when empty or a valid name part', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 70 }), (value) => {
        const valid = value === '' || (value.length <= 63 && /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/.test(value));
        expect(labelValueErrors(value).length === 0).toBe(valid);
      }),
    );
  });

  it('DNS-1123 labels', () => {
    expect(dns1123LabelErrors('config')).toEqual([]);
    expect(dns1123LabelErrors('../../x')).toEqual([
      "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    ]);
  });
});
