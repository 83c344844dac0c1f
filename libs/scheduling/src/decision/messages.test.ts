import { describe, expect, it } from 'vitest';
import { seed } from '../../test/fixtures.js';
import type { SchedulingResult } from '../types.js';
import { previewResponseMessage, schedulingDecisionMessage } from './messages.js';

const result: SchedulingResult = {
  seed: seed('a'),
  candidates: [
    { seed: seed('a'), shoots: 1, distance: 0 },
    { seed: seed('b'), shoots: 2, distance: 0 },
  ],
  rejected: Array.from({ length: 3 }, (_, i) => ({
    seed: `r${i}`,
    region: 'x',
    stage: 'Strategy' as const,
    reason: 'far',
  })),
  strategy: 'SameRegion',
  reason: 'SameRegion',
  message: "Scheduled to seed 'a'",
};

describe('decision messages', () => {
  it('lists the eligible candidates without a reason, then the rejected seeds, capped', () => {
    const message = schedulingDecisionMessage(result, 2);
    expect(message.seed).toBe('a');
    expect(message.candidates!.map((c) => [c.seed, c.rejectionReason])).toEqual([
      ['a', ''],
      ['b', ''],
      ['r0', 'far'],
      ['r1', 'far'],
    ]);
    expect(message.message).toBe("Scheduled to seed 'a' (1 more rejected seeds not listed)");
  });

  it('ranks the candidates in the preview answer and counts the omitted rejections', () => {
    const answer = previewResponseMessage(result, 1);
    expect(answer.candidates!.map((c) => [c.seed, c.shoots, c.providerType])).toEqual([
      ['a', 1, 'aws'],
      ['b', 2, 'aws'],
    ]);
    expect(answer.rejected).toHaveLength(1);
    expect(answer.omittedRejected).toBe(2);
  });
});
