import { describe, expect, it } from 'vitest';
import { describeRejections } from './describe.js';

const r = (seed: string, reason: string) => ({ seed, region: 'r', stage: 'Provider' as const, reason });

describe('describeRejections', () => {
  it('names each seed with its reason, grouped by reason', () => {
    expect(describeRejections([r('a', 'x'), r('b', 'y'), r('c', 'x')])).toBe('{a, c => x; b => y}');
  });

  it('stays short for many seeds', () => {
    const many = Array.from({ length: 1000 }, (_, i) => r(`s${i}`, 'same'));
    expect(describeRejections(many)).toBe('{s0, s1, s2, s3, s4 (+995 more) => same}');
    const reasons = Array.from({ length: 12 }, (_, i) => r(`s${i}`, `why ${i}`));
    expect(describeRejections(reasons)).toMatch(/; \(\+2 more reasons\)\}$/);
  });
});
