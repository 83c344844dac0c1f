import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  Quantity,
  QuantityError,
  parseQuantity,
  quantityErrors,
  quantityMilliValue,
  tryParseQuantity,
} from './quantity.js';

const q = (text: string) => Quantity.parse(text);

describe('Quantity.parse and toString (kube canonical form)', () => {
  it.each([
    ['0', '0'],
    ['100m', '100m'],
    ['1000m', '1'],
    ['250m', '250m'],
    ['0.5', '500m'],
    ['1.5', '1500m'],
    ['2', '2'],
    ['1000', '1k'],
    ['1001', '1001'],
    ['1Ki', '1Ki'],
    ['1024Ki', '1Mi'],
    ['1024Mi', '1Gi'],
    ['1.5Gi', '1536Mi'],
    ['0.5Ki', '512'],
    ['1.1Ki', '1126400m'],
    ['300Mi', '300Mi'],
    ['307200Ki', '300Mi'],
    ['1000M', '1G'],
    ['0.001T', '1G'],
    ['1e3', '1e3'],
    ['12e-3', '12e-3'],
    ['.001e12', '1e9'],
    ['1000e-12', '1e-9'],
    ['1n', '1n'],
    ['1080000000n', '1080m'],
    ['100u', '100u'],
    ['-100m', '-100m'],
    ['.001Ki', '1024m'],
    ['.000000001Ki', '1024n'],
    // Rounded up to the nano unit, away from zero.
    ['0.0000000001', '1n'],
    ['3.001n', '4n'],
    ['.000000000001Ki', '2n'],
    ['-.000000000001Ki', '-2n'],
    // Binary values are capped at 2^63-1.
    ['9Ei', '9223372036854775807'],
    // Beyond E there is no decimal suffix: exponent notation.
    ['1000E', '1e21'],
    // An input already in canonical form is kept as written, as kube does.
    ['+1', '+1'],
    ['1.G', '1.G'],
    // kube's scanner accepts a missing number as zero.
    ['m', '0'],
    ['.', '0'],
  ])('%s prints as %s', (input, printed) => {
    expect(q(input).toString()).toBe(printed);
  });

  it.each([
    ['', quantityErrors.formatWrong],
    ['1.1.M', quantityErrors.formatWrong],
    ['1+1.0M', quantityErrors.formatWrong],
    ['0.1am', quantityErrors.formatWrong],
    ['aoeu', quantityErrors.formatWrong],
    [' 1', quantityErrors.formatWrong],
    ['1 ', quantityErrors.formatWrong],
    ['1GB', quantityErrors.formatWrong],
    ['0.1mi', quantityErrors.suffix],
    ['1i', quantityErrors.suffix],
    ['1ki', quantityErrors.suffix],
    ['-3.01e-', quantityErrors.suffix],
    ['1e', quantityErrors.suffix],
    ['1e4294967297', quantityErrors.suffix],
    ['e-10', quantityErrors.numeric],
  ])('%j is rejected with kube message %j', (input, message) => {
    expect(() => q(input)).toThrow(new QuantityError(message, input));
  });

  it('knows binary, decimal and exponent formats', () => {
    expect(q('1Gi').format).toBe('BinarySI');
    expect(q('1G').format).toBe('DecimalSI');
    expect(q('1e9').format).toBe('DecimalExponent');
    // A binary fraction below one is decimal.
    expect(q('0.000000000001Ki').format).toBe('DecimalSI');
  });
});

describe('Quantity values', () => {
  it('rounds Value() and MilliValue() up, away from zero', () => {
    expect(q('100m').value()).toBe(1n);
    expect(q('1.2').value()).toBe(2n);
    expect(q('-1.2').value()).toBe(-2n);
    expect(q('1Gi').value()).toBe(1073741824n);
    expect(q('1n').milliValue()).toBe(1n);
    expect(q('1.5').milliValue()).toBe(1500n);
    expect(q('250m').milliValue()).toBe(250n);
    expect(quantityMilliValue(2)).toBe(2000);
  });

  it('compares exactly where floats would not', () => {
    expect(q('10000T').cmp(q('100Gi'))).toBe(1);
    expect(q('1').cmp(q('1000m'))).toBe(0);
    expect(q('0.1').add(q('0.2')).cmp(q('300m'))).toBe(0);
    expect(q('9007199254740993').cmp(q('9007199254740992'))).toBe(1);
    expect(q('1e1000000').cmp(q('1E'))).toBe(1);
    expect(q('-1e1000000').cmp(q('1n'))).toBe(-1);
  });

  it('keeps the format of a non-zero left side and takes the right one for zero (kube Add/Sub)', () => {
    expect(q('100m').add(q('0')).toString()).toBe('100m');
    expect(q('0').add(q('1Gi')).toString()).toBe('1Gi');
    expect(q('0').sub(q('1Gi')).toString()).toBe('-1Gi');
    expect(q('1Gi').sub(q('512Mi')).toString()).toBe('512Mi');
    expect(q('1').add(q('500m')).toString()).toBe('1500m');
  });

  it('reads manifest values: strings with surrounding space and numbers', () => {
    expect(tryParseQuantity(' 2 ')?.toString()).toBe('2');
    expect(tryParseQuantity(0.5)?.toString()).toBe('500m');
    expect(tryParseQuantity('1 Gi')).toBeUndefined();
    expect(parseQuantity('1Gi')).toBe(2 ** 30);
    expect(parseQuantity('500m')).toBe(0.5);
    expect(parseQuantity('1GB')).toBeUndefined();
  });
});

// ---- properties ----

const suffixes = [
  '',
  'n',
  'u',
  'm',
  'k',
  'M',
  'G',
  'T',
  'P',
  'E',
  'Ki',
  'Mi',
  'Gi',
  'Ti',
  'Pi',
  'Ei',
  'e3',
  'e-3',
  'E6',
];
const quantityText = fc
  .tuple(
    fc.constantFrom('', '-', '+'),
    fc.stringMatching(/^[0-9]{1,12}$/),
    fc.option(fc.stringMatching(/^[0-9]{0,10}$/), { nil: undefined }),
    fc.constantFrom(...suffixes),
  )
  .map(([sign, whole, fraction, suffix]) => `${sign}${whole}${fraction === undefined ? '' : `.${fraction}`}${suffix}`);
const quantity = quantityText.map((text) => Quantity.parse(text));

describe('Quantity properties', () => {
  it('parses every text of kube grammar, and its printed form parses back to the same value and form', () => {
    fc.assert(
      fc.property(quantityText, (text) => {
        const parsed = Quantity.parse(text);
        const printed = parsed.toString();
        const again = Quantity.parse(printed);
        expect(again.cmp(parsed)).toBe(0);
        expect(again.toString()).toBe(printed);
      }),
    );
  });

  it('never fails other than with QuantityError', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'0123456789.+-eEinumkKMGTPa '.split('')) }), (text) => {
        try {
          Quantity.parse(text);
        } catch (err) {
          expect(err).toBeInstanceOf(QuantityError);
        }
      }),
    );
  });

  it('orders like a total order consistent with subtraction', () => {
    fc.assert(
      fc.property(quantity, quantity, (a, b) => {
        expect(a.cmp(b) + b.cmp(a)).toBe(0);
        expect(a.sub(b).sign()).toBe(a.cmp(b));
      }),
    );
  });

  it('adds commutatively and associatively, and subtraction undoes addition', () => {
    fc.assert(
      fc.property(quantity, quantity, quantity, (a, b, c) => {
        expect(a.add(b).cmp(b.add(a))).toBe(0);
        expect(
          a
            .add(b)
            .add(c)
            .cmp(a.add(b.add(c))),
        ).toBe(0);
        expect(a.add(b).sub(b).cmp(a)).toBe(0);
      }),
    );
  });

  it('rounds Value() to the nearest integer away from zero', () => {
    fc.assert(
      fc.property(quantity, (a) => {
        const v = Quantity.of(a.value());
        const distance = v.sub(a);
        // |v| >= |a| and |v - a| < 1
        expect(distance.sign() === 0 || distance.sign() === a.sign()).toBe(true);
        expect(Quantity.of(1).cmp(distance.sign() < 0 ? distance.neg() : distance)).toBe(1);
      }),
    );
  });

  it('milli-values of whole thousandths are exact', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }), (milli) => {
        expect(Quantity.parse(`${milli}m`).milliValue()).toBe(milli);
        expect(Quantity.ofMilli(milli).milliValue()).toBe(milli);
      }),
    );
  });
});
