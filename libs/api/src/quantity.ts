// Kubernetes resource quantities (`resource.Quantity` of k8s.io/apimachinery), exact: parsing with kube's grammar,
// rounding (up to nano units, binary values capped at 2^63-1) and errors, the canonical form kube prints, comparison,
// addition and subtraction, and Value()/MilliValue() rounded away from zero. Values are bigint decimals, never floats.

/** The format a quantity prints in, as kube's `resource.Format`. */
export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

/** kube's `ErrFormatWrong`, `ErrNumeric` and `ErrSuffix` messages. */
export const quantityErrors = {
  formatWrong: "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
  numeric: 'unable to parse numeric part of quantity',
  suffix: "unable to parse quantity's suffix",
} as const;

/** A quantity that does not parse; the message is kube's. */
export class QuantityError extends Error {
  constructor(
    message: string,
    /** The text that did not parse. */
    readonly input: string,
  ) {
    super(message);
    this.name = 'QuantityError';
  }
}

const MAX_INT64 = (1n << 63n) - 1n;
const MAX_INT32 = 2 ** 31 - 1;
const NANO = -9;

const DECIMAL_SUFFIXES: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY_SUFFIXES: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const DECIMAL_BY_EXPONENT = new Map(Object.entries(DECIMAL_SUFFIXES).map(([s, e]) => [e, s]));
const BINARY_BY_EXPONENT = new Map(Object.entries(BINARY_SUFFIXES).map(([s, e]) => [e, s]));

const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';
const pow10 = (n: number) => 10n ** BigInt(n);
const abs = (n: bigint) => (n < 0n ? -n : n);

interface Scanned {
  negative: boolean;
  /** Sign, digits and decimal point before the suffix (may be empty or `.`). */
  value: string;
  /** Integer digits without leading zeros ("0" when none). */
  num: string;
  /** Fraction digits. */
  denom: string;
  suffix: string;
}

/** kube's `parseQuantityString`: splits sign, number and suffix; throws ErrFormatWrong. */
function scan(str: string): Scanned {
  const end = str.length;
  let pos = 0;
  let negative = false;
  if (str[0] === '-' || str[0] === '+') {
    negative = str[0] === '-';
    pos = 1;
  }
  while (pos < end && str[pos] === '0') pos++;
  if (pos >= end) return { negative, value: '0', num: '0', denom: '', suffix: '' };
  let i = pos;
  while (i < end && isDigit(str[i])) i++;
  if (i >= end) return { negative, value: str, num: str.slice(pos), denom: '', suffix: '' };
  const num = str.slice(pos, i) || '0';
  pos = i;
  let denom = '';
  if (str[pos] === '.') {
    pos++;
    i = pos;
    while (i < end && isDigit(str[i])) i++;
    denom = str.slice(pos, i);
    if (i >= end) return { negative, value: str, num, denom, suffix: '' };
    pos = i;
  }
  const value = str.slice(0, pos);
  const suffixStart = pos;
  while (pos < end && 'eEinumkKMGTP'.includes(str[pos])) pos++;
  if (pos < end && (str[pos] === '-' || str[pos] === '+')) pos++;
  while (pos < end && isDigit(str[pos])) pos++;
  if (pos < end) throw new QuantityError(quantityErrors.formatWrong, str);
  return { negative, value, num, denom, suffix: str.slice(suffixStart) };
}

/** kube's suffixer: base, exponent and format of a suffix, or undefined (ErrSuffix). */
function interpret(suffix: string): { base: 2 | 10; exponent: number; format: QuantityFormat } | undefined {
  if (Object.hasOwn(DECIMAL_SUFFIXES, suffix))
    return { base: 10, exponent: DECIMAL_SUFFIXES[suffix], format: 'DecimalSI' };
  if (Object.hasOwn(BINARY_SUFFIXES, suffix)) return { base: 2, exponent: BINARY_SUFFIXES[suffix], format: 'BinarySI' };
  if (suffix.length > 1 && (suffix[0] === 'e' || suffix[0] === 'E')) {
    // strconv.ParseInt, then kept only within [-MaxInt32, MaxInt32].
    if (!/^[+-]?\d+$/.test(suffix.slice(1))) return undefined;
    const exponent = BigInt(suffix.slice(1));
    if (exponent > BigInt(MAX_INT32) || exponent < -BigInt(MAX_INT32)) return undefined;
    return { base: 10, exponent: Number(exponent), format: 'DecimalExponent' };
  }
  return undefined;
}

/** Number of decimal digits of a non-negative bigint. */
const digitCount = (n: bigint) => (n === 0n ? 1 : n.toString().length);

/** `unscaled × 10^exponent` with the factors of 10 moved into the exponent (0 has exponent 0). */
function normalize(unscaled: bigint, exponent: number): [bigint, number] {
  if (unscaled === 0n) return [0n, 0];
  while (unscaled % 10n === 0n) {
    unscaled /= 10n;
    exponent++;
  }
  return [unscaled, exponent];
}

/** Divides by 10^places, rounding away from zero (inf.RoundUp). */
function divideRoundingUp(unscaled: bigint, places: number): bigint {
  if (unscaled === 0n) return 0n;
  // More places than digits: the magnitude is below one unit, which rounds up to one.
  if (places > digitCount(abs(unscaled))) return unscaled < 0n ? -1n : 1n;
  const divisor = pow10(places);
  const quotient = unscaled / divisor;
  if (quotient * divisor === unscaled) return quotient;
  return unscaled < 0n ? quotient - 1n : quotient + 1n;
}

/** A Kubernetes resource quantity: an exact decimal value and the format it prints in. Immutable. */
export class Quantity {
  /** The value is `unscaled × 10^exponent`; unscaled has no trailing zeros. */
  private readonly unscaled: bigint;
  private readonly exponent: number;
  /** The parsed text when kube keeps it as the printed form (input already canonical). */
  private readonly text: string | undefined;

  private constructor(
    unscaled: bigint,
    exponent: number,
    /** The format the quantity prints in (kube's `Quantity.Format`). */
    readonly format: QuantityFormat,
    text?: string,
  ) {
    [this.unscaled, this.exponent] = normalize(unscaled, exponent);
    this.text = text;
  }

  /** kube's `ParseQuantity`: no surrounding whitespace; throws {@link QuantityError} with kube's message. */
  static parse(text: string): Quantity {
    if (text.length === 0) throw new QuantityError(quantityErrors.formatWrong, text);
    if (text === '0') return new Quantity(0n, 0, 'DecimalSI', text);
    const { negative, value, num, denom, suffix } = scan(text);
    const interpreted = interpret(suffix);
    if (!interpreted) throw new QuantityError(quantityErrors.suffix, text);
    const { base, exponent } = interpreted;
    let format = interpreted.format;

    // kube's fast path: small exact values keep the input text as their printed form when it is canonical.
    let precision: number;
    if (base === 10) precision = 18 - (num.length + denom.length);
    else if (exponent >= 0 && denom.length === 0) precision = 15 - num.length - Math.trunc((exponent * 3) / 10) - 1;
    else precision = -1;
    const scale = (base === 10 ? exponent : 0) - denom.length;
    if (precision >= 0 && scale >= NANO) {
      const shifted = num + denom;
      const digits = BigInt(shifted);
      const magnitude = base === 2 ? digits << BigInt(exponent) : digits;
      if (magnitude <= MAX_INT64) {
        const signed = negative ? -magnitude : magnitude;
        const canonical =
          base === 2
            ? exponent % 10 === 0 && (digits & 7n) !== 0n
            : scale % 3 === 0 && !shifted.endsWith('000') && shifted[0] !== '0';
        return new Quantity(signed, scale, format, canonical ? text : undefined);
      }
    }

    // The general path (inf.Dec): exact value, rounded up to nano units, binary values capped at 2^63-1.
    if (!/^[+-]?(\d+\.?\d*|\.\d+)$/.test(value)) throw new QuantityError(quantityErrors.numeric, text);
    let magnitude = BigInt(num + denom);
    let exp10 = -denom.length;
    if (base === 10) exp10 += exponent;
    else magnitude <<= BigInt(exponent);
    if (exp10 < NANO) {
      magnitude = divideRoundingUp(magnitude, NANO - exp10);
      exp10 = NANO;
    }
    if (format === 'BinarySI') {
      // exp10 is at least -9 here, so these scalings stay small.
      const one = exp10 < 0 ? pow10(-exp10) : 1n;
      const value = exp10 > 0 ? magnitude * pow10(exp10) : magnitude;
      if (value > MAX_INT64 * one) [magnitude, exp10] = [MAX_INT64, 0];
      // A fraction of one unit prints as decimal, to avoid rounding it.
      else if (value !== 0n && value < one) format = 'DecimalSI';
    }
    return new Quantity(negative ? -magnitude : magnitude, exp10, format);
  }

  /** `NewQuantity(value, format)` / `NewMilliQuantity` / `NewScaledQuantity`: `value × 10^scale`. */
  static of(value: bigint | number, format: QuantityFormat = 'DecimalSI', scale = 0): Quantity {
    if (typeof value === 'number' && !Number.isSafeInteger(value)) {
      throw new RangeError(`quantity value ${value} is not a safe integer`);
    }
    return new Quantity(BigInt(value), scale, format);
  }

  /** A quantity of `value / 1000` (kube's `NewMilliQuantity`). */
  static ofMilli(value: bigint | number, format: QuantityFormat = 'DecimalSI'): Quantity {
    return Quantity.of(value, format, -3);
  }

  /** True when zero. */
  isZero(): boolean {
    return this.unscaled === 0n;
  }

  /** -1, 0 or 1. */
  sign(): -1 | 0 | 1 {
    return this.unscaled < 0n ? -1 : this.unscaled > 0n ? 1 : 0;
  }

  /** -1, 0 or 1 as this is less than, equal to or greater than `other` (kube's `Cmp`). */
  cmp(other: Quantity): -1 | 0 | 1 {
    const a = this.sign();
    const b = other.sign();
    if (a !== b) return a < b ? -1 : 1;
    if (a === 0) return 0;
    // Same sign: order by magnitude, first by the position of the leading digit (cheap for huge exponents).
    const leadA = digitCount(abs(this.unscaled)) + this.exponent;
    const leadB = digitCount(abs(other.unscaled)) + other.exponent;
    let order: number;
    if (leadA !== leadB) order = leadA < leadB ? -1 : 1;
    else {
      const e = Math.min(this.exponent, other.exponent);
      const x = abs(this.unscaled) * pow10(this.exponent - e);
      const y = abs(other.unscaled) * pow10(other.exponent - e);
      order = x < y ? -1 : x > y ? 1 : 0;
    }
    return order === 0 ? 0 : ((order * a) as -1 | 1);
  }

  /** True when both have the same value (formats may differ). */
  equals(other: Quantity): boolean {
    return this.cmp(other) === 0;
  }

  /** The sum; a zero left side takes the right side's format (kube's `Add`). */
  add(other: Quantity): Quantity {
    const e = Math.min(this.exponent, other.exponent);
    const sum = this.unscaled * pow10(this.exponent - e) + other.unscaled * pow10(other.exponent - e);
    return new Quantity(sum, e, this.isZero() ? other.format : this.format);
  }

  /** The difference; a zero left side takes the right side's format (kube's `Sub`). */
  sub(other: Quantity): Quantity {
    return this.add(other.neg());
  }

  /** The negated value (kube's `Neg`). */
  neg(): Quantity {
    return new Quantity(-this.unscaled, this.exponent, this.format);
  }

  /** The same value printed in another format. */
  withFormat(format: QuantityFormat): Quantity {
    return format === this.format ? this : new Quantity(this.unscaled, this.exponent, format);
  }

  /** `ceil(q / 10^scale)` rounded away from zero, kube's `ScaledValue(scale)` (may exceed int64). */
  scaledValue(scale: number): bigint {
    const shift = this.exponent - scale;
    if (shift >= 0) return this.unscaled * pow10(shift);
    return divideRoundingUp(this.unscaled, -shift);
  }

  /** The value rounded up to an integer away from zero (kube's `Value()`): `1.2` → 2, `100m` → 1. */
  value(): bigint {
    return this.scaledValue(0);
  }

  /** The value in thousandths rounded up away from zero (kube's `MilliValue()`): `1.5` → 1500, `1n` → 1. */
  milliValue(): bigint {
    return this.scaledValue(-3);
  }

  /** True when the value is a whole number within int64. */
  isInt64(): boolean {
    if (this.exponent < 0) return false;
    const v = this.unscaled * pow10(this.exponent);
    return v <= MAX_INT64 && v >= -MAX_INT64 - 1n;
  }

  /** The nearest float64 (kube's `AsApproximateFloat64`). */
  asApproximateFloat64(): number {
    return Number(`${this.unscaled}e${this.exponent}`);
  }

  /** Compares the magnitude with a non-negative integer. */
  private cmpAbs(n: bigint): -1 | 0 | 1 {
    if (digitCount(abs(this.unscaled)) + this.exponent > digitCount(n) + 1) return 1;
    const magnitude = abs(this.unscaled) * pow10(Math.max(this.exponent, 0));
    const scaled = n * pow10(Math.max(-this.exponent, 0));
    return magnitude < scaled ? -1 : magnitude > scaled ? 1 : 0;
  }

  /** The canonical form kube prints (`String()`): `1536Mi`, `100m`, `1k`, `1e3`, `0`. */
  toString(): string {
    if (this.text !== undefined) return this.text;
    if (this.isZero()) return '0';
    let format = this.format;
    // Binary only for whole numbers outside (-1024, 1024); the normalized exponent is negative for fractions.
    if (format === 'BinarySI' && (this.exponent < 0 || this.cmpAbs(1024n) < 0)) format = 'DecimalSI';
    if (format === 'BinarySI') {
      let amount = this.unscaled * pow10(this.exponent);
      let exponent = 0;
      while (abs(amount) >= 1024n && amount % 1024n === 0n) {
        amount /= 1024n;
        exponent += 10;
      }
      const suffix = BINARY_BY_EXPONENT.get(exponent) ?? (exponent === 0 ? '' : undefined);
      if (suffix !== undefined) return `${amount}${suffix}`;
      format = 'DecimalExponent';
    }
    // Decimal: the exponent lowered to a multiple of three.
    const down = ((this.exponent % 3) + 3) % 3;
    const mantissa = this.unscaled * pow10(down);
    const exponent = this.exponent - down;
    if (format === 'DecimalSI') {
      const suffix = DECIMAL_BY_EXPONENT.get(exponent);
      if (suffix !== undefined) return `${mantissa}${suffix}`;
    }
    return exponent === 0 ? `${mantissa}` : `${mantissa}e${exponent}`;
  }

  /** JSON as kube serializes it: the canonical string. */
  toJSON(): string {
    return this.toString();
  }
}

/**
 * Parses a quantity as it appears in a manifest: a string (kube's `ParseQuantity`, whitespace around it ignored
 * as JSON decoding does) or a number. Throws {@link QuantityError}.
 */
export function parseQuantityStrict(value: string | number): Quantity {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new QuantityError(quantityErrors.formatWrong, String(value));
    return Quantity.parse(String(value));
  }
  return Quantity.parse(value.trim());
}

/** The quantity, or undefined when `value` is not one (see {@link parseQuantityStrict}). */
export function tryParseQuantity(value: string | number): Quantity | undefined {
  try {
    return parseQuantityStrict(value);
  } catch (err) {
    if (err instanceof QuantityError) return undefined;
    throw err;
  }
}

/** True when `text` parses as a quantity (CEL's `isQuantity`). */
export function isQuantity(text: string): boolean {
  try {
    Quantity.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * The approximate numeric value of a quantity (`"500m"` → 0.5, `"1Gi"` → 1073741824, `3` → 3), or undefined when
 * malformed. Parsed exactly with kube's rules, then converted to the nearest float64; prefer {@link Quantity} for
 * arithmetic and comparison.
 */
export function parseQuantity(value: string | number): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  try {
    return Quantity.parse(value).asApproximateFloat64();
  } catch {
    return undefined;
  }
}

/** `Value()` of a quantity text or number as a JS number (rounded up away from zero); throws QuantityError. */
export function quantityValue(value: string | number): number {
  return Number(parseQuantityStrict(value).value());
}

/** `MilliValue()` of a quantity text or number as a JS number (rounded up away from zero); throws QuantityError. */
export function quantityMilliValue(value: string | number): number {
  return Number(parseQuantityStrict(value).milliValue());
}

/** -1, 0 or 1 comparing two quantities exactly; throws QuantityError when one does not parse. */
export function compareQuantities(a: string | number, b: string | number): -1 | 0 | 1 {
  return parseQuantityStrict(a).cmp(parseQuantityStrict(b));
}
