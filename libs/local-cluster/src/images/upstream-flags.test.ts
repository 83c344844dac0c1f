import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { booleanValue, parseUpstreamFlags, type UpstreamFlag } from './upstream-flags.js';

const name = fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/);
// Values as a Pod spec carries them: paths, durations, lists, CIDRs, and words that are no flags.
const value = fc.stringMatching(/^[A-Za-z0-9/:.,=*_][A-Za-z0-9/:.,=*_-]{0,20}$/);
const flag = fc.record({ name, value: fc.option(value, { nil: undefined }), inline: fc.boolean() });

describe('parseUpstreamFlags', () => {
  it('reads back every flag however its value is written (property)', () => {
    fc.assert(
      fc.property(fc.array(flag, { maxLength: 8 }), fc.array(name, { maxLength: 3 }), (flags, booleanNames) => {
        const booleans = new Set(booleanNames);
        const args = flags.flatMap((f) =>
          f.value === undefined
            ? [`--${f.name}`]
            : f.inline || booleans.has(f.name)
              ? [`--${f.name}=${f.value}`]
              : [`--${f.name}`, f.value],
        );
        const ignored: string[] = [];
        const parsed = parseUpstreamFlags(args, { ignored: (w) => ignored.push(w) }, booleans);
        // A separate value only ever follows its own flag; a boolean's value is always inline, as pflag needs it.
        const expected: UpstreamFlag[] = flags.map((f) => ({ name: f.name, value: f.value }));
        expect(parsed).toEqual(expected);
        expect(ignored).toEqual([]);
      }),
    );
  });

  it('never lets a boolean flag take the next word, and reports words that are no flags', () => {
    const ignored: string[] = [];
    expect(
      parseUpstreamFlags(
        ['--leader-elect', 'stray', '--v', '2'],
        { ignored: (w) => ignored.push(w) },
        new Set(['leader-elect']),
      ),
    ).toEqual([
      { name: 'leader-elect', value: undefined },
      { name: 'v', value: '2' },
    ]);
    expect(ignored).toEqual(['stray']);
  });
});

describe('booleanValue', () => {
  it("takes Go's spellings of true and false and refuses anything else", () => {
    const of = (value: string | undefined) => booleanValue('kube-x', { name: 'flag', value });
    expect([undefined, '1', 't', 'T', 'true', 'TRUE', 'True'].map(of)).toEqual(Array(7).fill(true));
    expect(['0', 'f', 'F', 'false', 'FALSE', 'False'].map(of)).toEqual(Array(6).fill(false));
    expect(() => of('yes')).toThrow('kube-x flag --flag: "yes" is not a boolean');
  });
});
