// Parsers for the string formats Gardener's API uses: semantic versions here; Go durations and Kubernetes quantities
// re-exported from their own modules.

// Go durations and Kubernetes quantities have one implementation each, in ../duration.ts and ../quantity.ts.
export { parseDuration, formatDuration } from '../duration.js';
export { parseQuantity } from '../quantity.js';

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
