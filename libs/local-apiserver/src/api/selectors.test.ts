import { describe, expect, it } from 'vitest';
import { matchLabels, parseFieldSelector, parseLabelSelector } from './selectors.js';

describe('label selectors', () => {
  const cases: [string, Record<string, string>, boolean][] = [
    ['app=web', { app: 'web' }, true],
    ['app==web', { app: 'db' }, false],
    ['app!=web', {}, true],
    ['env in (a, b)', { env: 'b' }, true],
    ['env notin (a,b)', { env: 'a' }, false],
    ['env notin (a,b)', {}, true],
    ['tier', { tier: '' }, true],
    ['!tier', { tier: 'x' }, false],
    ['app=web,env in (prod),!legacy', { app: 'web', env: 'prod' }, true],
    ['gardener.cloud/role=shoot', { 'gardener.cloud/role': 'shoot' }, true],
    ['', { any: 'thing' }, true],
  ];
  it.each(cases)('%s on %j → %s', (sel, labels, want) => {
    expect(matchLabels(parseLabelSelector(sel), labels)).toBe(want);
  });

  it('refuses malformed selectors with a 400', () => {
    expect(() => parseLabelSelector('app in (a')).toThrow(/unable to parse/);
    expect(() => parseLabelSelector('-bad=x')).toThrow(
      /^unable to parse requirement: <nil>: Invalid value: "-bad": name part must consist of alphanumeric characters/,
    );
    expect(() => parseLabelSelector('app=(')).toThrow(expect.objectContaining({ code: 400 }));
  });
});

describe('field selectors', () => {
  it('matches on dotted fields and lists the fields used', () => {
    const sel = parseFieldSelector('metadata.name=a,status.phase!=Running');
    expect(sel.fields).toEqual(['metadata.name', 'status.phase']);
    expect(sel((k) => ({ 'metadata.name': 'a', 'status.phase': 'Pending' })[k])).toBe(true);
    expect(() => parseFieldSelector('metadata.name')).toThrow(
      expect.objectContaining({
        code: 400,
        message: "invalid selector: 'metadata.name'; can't understand 'metadata.name'",
      }),
    );
  });

  it('reads escaped values and refuses bad escapes with a 400', () => {
    const sel = parseFieldSelector('metadata.name=a\\,b\\=c');
    expect(sel((k) => ({ 'metadata.name': 'a,b=c' })[k])).toBe(true);
    expect(() => parseFieldSelector('metadata.name=a\\x')).toThrow(
      expect.objectContaining({ code: 400, message: 'invalid field selector: invalid escape sequence: \\x' }),
    );
  });
});
