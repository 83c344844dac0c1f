import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DurationError,
  Hour,
  Millisecond,
  Minute,
  Second,
  formatDuration,
  formatGoDuration,
  parseDuration,
  parseGoDuration,
} from './duration.js';

describe('parseGoDuration (time.ParseDuration)', () => {
  it.each([
    ['0', 0n],
    ['+0', 0n],
    ['-0', 0n],
    ['5s', 5n * Second],
    ['30s', 30n * Second],
    ['1478s', 1478n * Second],
    ['-5s', -5n * Second],
    ['+5s', 5n * Second],
    ['1h30m', 90n * Minute],
    ['1.5s', 1500n * Millisecond],
    ['.5s', 500n * Millisecond],
    ['1.s', Second],
    ['-2m3.5s', -(2n * Minute + 3500n * Millisecond)],
    ['10ns', 10n],
    ['11us', 11_000n],
    ['12µs', 12_000n], // U+00B5
    ['12μs', 12_000n], // U+03BC
    ['13ms', 13n * Millisecond],
    ['3h30m', 3n * Hour + 30n * Minute],
    ['10.5s4m', 4n * Minute + 10500n * Millisecond],
    ['1h1m1s1ms1us1ns', Hour + Minute + Second + Millisecond + 1_000n + 1n],
    ['0.3333333333333333333h', 20n * Minute],
    ['9007199254740993ns', 9007199254740993n],
    ['9223372036854775807ns', 9223372036854775807n],
    ['-9223372036854775808ns', -9223372036854775808n],
    ['1.0000000000000000000001s', Second],
  ])('%s is %d ns', (text, nanoseconds) => {
    expect(parseGoDuration(text)).toBe(nanoseconds);
  });

  it.each([
    ['', 'time: invalid duration ""'],
    ['3', 'time: missing unit in duration "3"'],
    ['-', 'time: invalid duration "-"'],
    ['s', 'time: invalid duration "s"'],
    ['.', 'time: invalid duration "."'],
    ['-.', 'time: invalid duration "-."'],
    ['.s', 'time: invalid duration ".s"'],
    ['+.s', 'time: invalid duration "+.s"'],
    ['1d', 'time: unknown unit "d" in duration "1d"'],
    ['1.5.5s', 'time: missing unit in duration "1.5.5s"'],
    [' 1s', 'time: invalid duration " 1s"'],
    ['9223372036854775808ns', 'time: invalid duration "9223372036854775808ns"'],
    ['3000000h', 'time: invalid duration "3000000h"'],
    ['1µ', 'time: unknown unit "\\xc2\\xb5" in duration "1\\xc2\\xb5"'],
  ])('%j is rejected with %j', (text, message) => {
    expect(() => parseGoDuration(text)).toThrow(new DurationError(message, text));
  });
});

describe('formatGoDuration (Duration.String)', () => {
  it.each([
    [0n, '0s'],
    [1n, '1ns'],
    [1100n, '1.1µs'],
    [2200n * 1000n, '2.2ms'],
    [3300n * Millisecond, '3.3s'],
    [4n * Minute + 5n * Second, '4m5s'],
    [4n * Minute + 5001n * Millisecond, '4m5.001s'],
    [5n * Hour + 6n * Minute + 7001n * Millisecond, '5h6m7.001s'],
    [8n * Minute + 1n, '8m0.000000001s'],
    [Hour, '1h0m0s'],
    [90n * Minute, '1h30m0s'],
    [-(2n * Minute + 3500n * Millisecond), '-2m3.5s'],
    [9223372036854775807n, '2562047h47m16.854775807s'],
    [-9223372036854775808n, '-2562047h47m16.854775808s'],
  ])('%d ns prints as %s', (nanoseconds, text) => {
    expect(formatGoDuration(nanoseconds)).toBe(text);
  });
});

describe('millisecond helpers', () => {
  it('read configuration durations as milliseconds', () => {
    expect(parseDuration('1h30m')).toBe(5_400_000);
    expect(parseDuration('1.5ms')).toBe(1.5);
    expect(parseDuration('-2m')).toBe(-120_000);
    expect(parseDuration('5')).toBeUndefined();
    expect(parseDuration('1d')).toBeUndefined();
    expect(formatDuration(90_000)).toBe('1m30s');
    expect(formatDuration(500)).toBe('500ms');
    expect(formatDuration(0.5)).toBe('500µs');
  });
});

const nanoseconds = fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n });

describe('duration properties', () => {
  it('parses what it prints, for every int64', () => {
    fc.assert(
      fc.property(nanoseconds, (d) => {
        expect(parseGoDuration(formatGoDuration(d))).toBe(d);
      }),
    );
  });

  it('sums the parts of a unit sequence', () => {
    const part = fc.tuple(
      fc.bigInt({ min: 0n, max: 10_000n }),
      fc.constantFrom(...(['h', 'm', 's', 'ms', 'us', 'ns'] as const)),
    );
    const unit = { h: Hour, m: Minute, s: Second, ms: Millisecond, us: 1000n, ns: 1n };
    fc.assert(
      fc.property(fc.boolean(), fc.array(part, { minLength: 1, maxLength: 6 }), (negative, parts) => {
        const text = `${negative ? '-' : ''}${parts.map(([n, u]) => `${n}${u}`).join('')}`;
        const sum = parts.reduce((acc, [n, u]) => acc + n * unit[u], 0n);
        expect(parseGoDuration(text)).toBe(negative ? -sum : sum);
      }),
    );
  });

  it('fails only with DurationError', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'0123456789.+-hmsnuµ x'.split('')) }), (text) => {
        try {
          parseGoDuration(text);
        } catch (err) {
          expect(err).toBeInstanceOf(DurationError);
        }
      }),
    );
  });
});
