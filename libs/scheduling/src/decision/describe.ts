// Rejections as one line for events and status: seeds grouped by reason, so a thousand seeds ruled out for the same
// reason stay readable: {seed-a, seed-b (+998 more) => provider type "gcp" differs from the shoot's "aws"; ...}.
import type { Rejection } from '../types.js';

export interface DescribeLimits {
  /** Reasons listed at most; the rest are counted. */
  maxReasons?: number;
  /** Seed names listed per reason at most; the rest are counted. */
  maxSeedsPerReason?: number;
}

export function describeRejections(
  rejected: readonly Rejection[],
  { maxReasons = 10, maxSeedsPerReason = 5 }: DescribeLimits = {},
): string {
  const byReason = new Map<string, string[]>();
  for (const r of rejected) {
    const seeds = byReason.get(r.reason) ?? [];
    seeds.push(r.seed);
    byReason.set(r.reason, seeds);
  }
  const groups = [...byReason.entries()].map(([reason, seeds]) => {
    const names = seeds.slice(0, maxSeedsPerReason).join(', ');
    const more = seeds.length > maxSeedsPerReason ? ` (+${seeds.length - maxSeedsPerReason} more)` : '';
    return `${names}${more} => ${reason}`;
  });
  const shown = groups.slice(0, maxReasons);
  if (groups.length > maxReasons) shown.push(`(+${groups.length - maxReasons} more reasons)`);
  return `{${shown.join('; ')}}`;
}
