// Parsers for the string formats Gardener's API uses: Go durations, Kubernetes quantities, semantic versions.

const durationUnits: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/** Parses a Go duration ("1h30m", "90s", "0") into milliseconds; undefined when malformed. */
export function parseDuration(text: string): number | undefined {
  if (text === '0' || text === '+0' || text === '-0') return 0;
  const match = /^([-+]?)((?:(?:\d+\.?\d*|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+)$/.exec(text);
  if (!match) return undefined;
  let total = 0;
  for (const [, amount, unit] of match[2].matchAll(/(\d+\.?\d*|\.\d+)(ns|us|µs|μs|ms|s|m|h)/g)) {
    total += Number(amount) * durationUnits[unit];
  }
  return match[1] === '-' ? -total : total;
}

export function formatDuration(ms: number): string {
  if (ms === 0) return '0s';
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = (ms % 60_000) / 1000;
  return `${h ? `${h}h` : ''}${h || m ? `${m}m` : ''}${s}s`;
}

const binarySuffix: Record<string, number> = {
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};
const decimalSuffix: Record<string, number> = {
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
};

/** Parses a Kubernetes resource quantity ("500m", "1Gi", "2", 3) into a number; undefined when malformed. */
export function parseQuantity(value: string | number): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  const match = /^([+-]?(?:\d+\.?\d*|\.\d+))(?:([eE][+-]?\d+)|(Ki|Mi|Gi|Ti|Pi|Ei)|([numkMGTPE]?))$/.exec(value);
  if (!match) return undefined;
  const [, number, exponent, binary, decimal] = match;
  if (exponent) return Number(number + exponent);
  if (binary) return Number(number) * binarySuffix[binary];
  return Number(number) * decimalSuffix[decimal ?? ''];
}

export interface Version {
  major: number;
  minor: number;
  patch: number;
  prerelease?: string;
}

/** Lenient semantic version as Gardener parses it ("1.31.2", "v1.31", "18.04.201906170"). */
export function parseVersion(text: string): Version | undefined {
  const match = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/.exec(text);
  if (!match) return undefined;
  return { major: Number(match[1]), minor: Number(match[2] ?? 0), patch: Number(match[3] ?? 0), prerelease: match[4] };
}

/** Strict X.Y.Z, as required for Kubernetes versions. */
export const isStrictVersion = (text: string) => /^\d+\.\d+\.\d+$/.test(text);

export function compareVersions(a: Version, b: Version): number {
  return a.major - b.major || a.minor - b.minor || a.patch - b.patch;
}
