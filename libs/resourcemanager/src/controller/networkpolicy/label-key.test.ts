import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_LABEL_NAME_LENGTH, shortenLabelKey, shortenLabelName } from './label-key.js';

// A label name: alphanumerics at both ends, dashes, dots and underscores in between.
const alnum = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789'.split(''));
const inner = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789-._'.split(''));
const labelName = (minLength: number, maxLength: number) =>
  fc
    .tuple(alnum, fc.array(inner, { minLength: minLength - 2, maxLength: maxLength - 2 }), alnum)
    .map(([first, middle, last]) => first + middle.join('') + last);
const validName = /^[a-z0-9A-Z]([-a-z0-9A-Z_.]*[a-z0-9A-Z])?$/;

describe('shortenLabelName', () => {
  it("shortens like Gardener's resource-manager (its event for virtual-garden-kube-apiserver-connection-upgrade)", () => {
    expect(
      shortenLabelKey(
        'networking.resources.gardener.cloud/to-garden-virtual-garden-kube-apiserver-connection-upgrade-tcp-443',
      ),
    ).toBe('networking.resources.gardener.cloud/to-garden-virtual-garden-kube-apiserver-connection-upgrad-f4133');
  });

  it('keeps names of at most 63 characters', () => {
    fc.assert(
      fc.property(labelName(2, MAX_LABEL_NAME_LENGTH), (name) => {
        expect(shortenLabelName(name)).toBe(name);
      }),
    );
  });

  it('makes every longer name a valid label name of 63 characters that keeps its start', () => {
    fc.assert(
      fc.property(labelName(MAX_LABEL_NAME_LENGTH + 1, 200), (name) => {
        const short = shortenLabelName(name);
        expect(short).toHaveLength(MAX_LABEL_NAME_LENGTH);
        expect(short).toMatch(validName);
        expect(short.startsWith(name.slice(0, 57))).toBe(true);
        expect(shortenLabelName(name)).toBe(short);
      }),
    );
  });

  it('tells apart long names that share their first 57 characters', () => {
    const base = `to-shoot--${'p'.repeat(20)}--${'s'.repeat(20)}-kube-apiserver`;
    expect(shortenLabelName(`${base}-tcp-443`)).not.toBe(shortenLabelName(`${base}-tcp-8132`));
  });
});
