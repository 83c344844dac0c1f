import { describe, expect, it } from 'vitest';
import type { Taint, Toleration } from '../shared/kinds.js';
import { noExecuteTaints, schedule, verdict } from './eviction.js';

const T0 = Date.parse('2026-01-01T00:00:00Z');
const dedicated: Taint = { key: 'example.com/dedicated', value: 'db', effect: 'NoExecute' };
const maintenance: Taint = { key: 'example.com/maintenance', effect: 'NoExecute' };

describe('noExecuteTaints', () => {
  it('keeps only NoExecute taints', () => {
    expect(
      noExecuteTaints([{ key: 'a', effect: 'NoSchedule' }, dedicated, { key: 'b', effect: 'PreferNoSchedule' }]),
    ).toEqual([dedicated]);
    expect(noExecuteTaints(undefined)).toEqual([]);
  });
});

describe('verdict', () => {
  it('never evicts without NoExecute taints', () => {
    expect(verdict([], undefined)).toEqual({ evict: 'never' });
  });

  it('evicts at once when any taint is not tolerated', () => {
    expect(verdict([dedicated], undefined)).toEqual({ evict: 'now' });
    expect(verdict([dedicated, maintenance], [{ key: dedicated.key, value: 'db', effect: 'NoExecute' }])).toEqual({
      evict: 'now',
    });
    // The value must match for operator Equal; the effect must match when given.
    expect(verdict([dedicated], [{ key: dedicated.key, value: 'web' }])).toEqual({ evict: 'now' });
    expect(verdict([dedicated], [{ key: dedicated.key, operator: 'Exists', effect: 'NoSchedule' }])).toEqual({
      evict: 'now',
    });
  });

  it('keeps a pod forever when no matching toleration is bounded', () => {
    expect(verdict([dedicated], [{ key: dedicated.key, operator: 'Exists' }])).toEqual({ evict: 'never' });
    expect(verdict([dedicated, maintenance], [{ operator: 'Exists' }])).toEqual({ evict: 'never' });
  });

  it('takes the shortest tolerationSeconds among the tolerations that matched a taint', () => {
    const tolerations: Toleration[] = [
      { key: dedicated.key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 },
      { key: maintenance.key, operator: 'Exists', tolerationSeconds: 30 },
      // Matches no taint: its shorter time does not count.
      { key: 'example.com/other', operator: 'Exists', tolerationSeconds: 1 },
      // Unbounded, but a bounded one matched too: the bound wins.
      { operator: 'Exists' },
    ];
    expect(verdict([dedicated, maintenance], tolerations)).toEqual({ evict: 'after', ms: 30_000 });
    expect(verdict([dedicated], tolerations)).toEqual({ evict: 'after', ms: 60_000 });
  });

  it('evicts at once for tolerationSeconds of zero or less', () => {
    expect(verdict([dedicated], [{ key: dedicated.key, operator: 'Exists', tolerationSeconds: 0 }])).toEqual({
      evict: 'now',
    });
    expect(
      verdict([dedicated], [{ key: dedicated.key, operator: 'Exists', tolerationSeconds: -5 }, { operator: 'Exists' }]),
    ).toEqual({ evict: 'now' });
  });
});

describe('schedule', () => {
  it('cancels for never and fires at once for now', () => {
    const pending = { createdAt: T0, fireAt: T0 + 30_000 };
    expect(schedule({ evict: 'never' }, pending, T0 + 1000)).toBeUndefined();
    expect(schedule({ evict: 'now' }, pending, T0 + 1000)).toEqual({ createdAt: T0 + 1000, fireAt: T0 + 1000 });
  });

  it('starts a countdown from now, and keeps a running one as it is', () => {
    const started = schedule({ evict: 'after', ms: 30_000 }, undefined, T0)!;
    expect(started).toEqual({ createdAt: T0, fireAt: T0 + 30_000 });
    expect(schedule({ evict: 'after', ms: 5_000 }, started, T0 + 10_000)).toBe(started);
    expect(schedule({ evict: 'after', ms: 90_000 }, started, T0 + 10_000)).toBe(started);
  });
});
