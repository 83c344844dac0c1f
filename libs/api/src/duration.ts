// Go's time.Duration text format, exactly as Go parses (`time.ParseDuration`) and prints it (`Duration.String()`):
// "1h30m", "1.5s", "-2m3.5s", "300ms", "0s", "1µs". Every Gardener configuration and API field of type
// metav1.Duration uses it. Durations are int64 nanoseconds, held as bigint.

/** Nanoseconds per unit, as Go's `time` package spells them (both micro signs, and `us`). */
const UNITS: Record<string, bigint> = {
  ns: 1n,
  us: 1_000n,
  µs: 1_000n, // U+00B5 micro sign
  μs: 1_000n, // U+03BC Greek mu
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};

const MAX_INT64 = (1n << 63n) - 1n;
const MAX_UINT63 = 1n << 63n;

/** One nanosecond, microsecond, ... hour in nanoseconds (Go's `time.Nanosecond` ... `time.Hour`). */
export const Nanosecond = 1n;
export const Microsecond = 1_000n;
export const Millisecond = 1_000_000n;
export const Second = 1_000_000_000n;
export const Minute = 60n * Second;
export const Hour = 60n * Minute;

/** A text that is not a Go duration; the message is Go's (`time: invalid duration "1x"`). */
export class DurationError extends Error {
  constructor(
    message: string,
    /** The text that did not parse. */
    readonly input: string,
  ) {
    super(message);
    this.name = 'DurationError';
  }
}

/** Go's `time.quote`: double quotes, `"` and `\` escaped, bytes outside printable ASCII as `\xNN`. */
function quote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const code = ch.codePointAt(0)!;
    if (code >= 0x80 || code < 0x20) {
      for (const byte of new TextEncoder().encode(ch)) out += `\\x${byte.toString(16).padStart(2, '0')}`;
    } else {
      if (ch === '"' || ch === '\\') out += '\\';
      out += ch;
    }
  }
  return `${out}"`;
}

const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';

/**
 * Go's `time.ParseDuration`: a possibly signed sequence of decimal numbers, each with optional fraction and a unit
 * suffix (`ns`, `us`/`µs`, `ms`, `s`, `m`, `h`); `0` needs no unit. Returns int64 nanoseconds; throws
 * {@link DurationError} with Go's message for malformed or out-of-range input.
 */
export function parseGoDuration(text: string): bigint {
  const invalid = () => new DurationError(`time: invalid duration ${quote(text)}`, text);
  let s = text;
  let negative = false;
  if (s !== '' && (s[0] === '-' || s[0] === '+')) {
    negative = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0n;
  if (s === '') throw invalid();
  let total = 0n;
  while (s !== '') {
    if (!(s[0] === '.' || isDigit(s[0]))) throw invalid();
    // The integer part.
    let i = 0;
    let whole = 0n;
    while (isDigit(s[i])) {
      whole = whole * 10n + BigInt(s.charCodeAt(i) - 48);
      if (whole > MAX_UINT63) throw invalid();
      i++;
    }
    const pre = i > 0;
    s = s.slice(i);
    // The fraction: digits beyond what fits are consumed and ignored, as Go does.
    let fraction = 0n;
    let scale = 1;
    let post = false;
    if (s[0] === '.') {
      s = s.slice(1);
      let j = 0;
      let overflow = false;
      while (isDigit(s[j])) {
        if (!overflow) {
          const next = fraction * 10n + BigInt(s.charCodeAt(j) - 48);
          if (fraction > MAX_INT64 / 10n || next > MAX_UINT63) overflow = true;
          else {
            fraction = next;
            scale *= 10;
          }
        }
        j++;
      }
      post = j > 0;
      s = s.slice(j);
    }
    if (!pre && !post) throw invalid();
    // The unit: everything up to the next digit or '.'.
    let k = 0;
    while (k < s.length && s[k] !== '.' && !isDigit(s[k])) k++;
    if (k === 0) throw new DurationError(`time: missing unit in duration ${quote(text)}`, text);
    const name = s.slice(0, k);
    s = s.slice(k);
    const unit = UNITS[name];
    if (unit === undefined) {
      throw new DurationError(`time: unknown unit ${quote(name)} in duration ${quote(text)}`, text);
    }
    if (whole > MAX_UINT63 / unit) throw invalid();
    let v = whole * unit;
    if (fraction > 0n) {
      // float64 arithmetic, truncated, exactly as Go computes it.
      v += BigInt(Math.trunc(Number(fraction) * (Number(unit) / scale)));
      if (v > MAX_UINT63) throw invalid();
    }
    total += v;
    if (total > MAX_UINT63) throw invalid();
  }
  if (negative) return -total;
  if (total > MAX_INT64) throw invalid();
  return total;
}

/** Go's `fmtFrac`: the fraction of `v / 10^precision` without trailing zeros (and without the point when 0). */
function fraction(v: bigint, precision: number): [string, bigint] {
  let digits = '';
  let print = false;
  for (let i = 0; i < precision; i++) {
    const digit = v % 10n;
    print ||= digit !== 0n;
    if (print) digits = `${digit}${digits}`;
    v /= 10n;
  }
  return [print ? `.${digits}` : '', v];
}

/**
 * Go's `Duration.String()` of int64 nanoseconds: `72h3m0.5s`, `1m30s`, `1.5s`, `300ms`, `2µs`, `5ns`, `0s`.
 * A number is taken as nanoseconds too.
 */
export function formatGoDuration(nanoseconds: bigint | number): string {
  let u = BigInt(nanoseconds);
  const negative = u < 0n;
  if (negative) u = -u;
  let out: string;
  if (u < Second) {
    if (u === 0n) return '0s';
    let precision: number;
    let unit: string;
    if (u < Microsecond) [precision, unit] = [0, 'ns'];
    else if (u < Millisecond) [precision, unit] = [3, 'µs'];
    else [precision, unit] = [6, 'ms'];
    const [frac, whole] = fraction(u, precision);
    out = `${whole}${frac}${unit}`;
  } else {
    const [frac, seconds] = fraction(u, 9);
    out = `${seconds % 60n}${frac}s`;
    const minutes = seconds / 60n;
    if (minutes > 0n) {
      out = `${minutes % 60n}m${out}`;
      const hours = minutes / 60n;
      if (hours > 0n) out = `${hours}h${out}`;
    }
  }
  return negative ? `-${out}` : out;
}

/**
 * Milliseconds of a Go duration text (`"1m30s"` → 90000, `"1.5ms"` → 1.5), or undefined when the text is not one.
 * Parsed with {@link parseGoDuration}; sub-millisecond parts stay as fractions.
 */
export function parseDuration(text: string): number | undefined {
  try {
    return nanosToMillis(parseGoDuration(text));
  } catch (err) {
    if (err instanceof DurationError) return undefined;
    throw err;
  }
}

/** Go's `Duration.String()` of a number of milliseconds (`90000` → `"1m30s"`, `0.5` → `"500µs"`). */
export function formatDuration(milliseconds: number): string {
  return formatGoDuration(millisToNanos(milliseconds));
}

/** Nanoseconds as (fractional) milliseconds. */
export function nanosToMillis(nanoseconds: bigint): number {
  const whole = nanoseconds / Millisecond;
  return Number(whole) + Number(nanoseconds - whole * Millisecond) / 1e6;
}

/** Milliseconds as nanoseconds, rounded to the nearest nanosecond. */
export function millisToNanos(milliseconds: number): bigint {
  if (!Number.isFinite(milliseconds)) throw new RangeError(`duration ${milliseconds}ms is not finite`);
  const whole = Math.trunc(milliseconds);
  return BigInt(whole) * Millisecond + BigInt(Math.round((milliseconds - whole) * 1e6));
}
