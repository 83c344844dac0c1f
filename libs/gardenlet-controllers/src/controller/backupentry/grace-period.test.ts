import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deletionSchedule, gracePeriodMs } from './grace-period.js';

const HOUR = 3_600_000;

describe('gracePeriodMs', () => {
  it('applies to every purpose when none are configured, and to entries without a purpose', () => {
    expect(gracePeriodMs({ deletionGracePeriodHours: 48 }, 'evaluation')).toBe(48 * HOUR);
    expect(gracePeriodMs({ deletionGracePeriodHours: 48, deletionGracePeriodShootPurposes: [] }, 'testing')).toBe(
      48 * HOUR,
    );
    expect(
      gracePeriodMs({ deletionGracePeriodHours: 48, deletionGracePeriodShootPurposes: ['production'] }, undefined),
    ).toBe(48 * HOUR);
  });

  it('applies only to the configured purposes otherwise', () => {
    const config = { deletionGracePeriodHours: 24, deletionGracePeriodShootPurposes: ['production', 'infrastructure'] };
    expect(gracePeriodMs(config, 'production')).toBe(24 * HOUR);
    expect(gracePeriodMs(config, 'infrastructure')).toBe(24 * HOUR);
    expect(gracePeriodMs(config, 'evaluation')).toBe(0);
  });
});

describe('deletionSchedule', () => {
  const deletedAt = '2026-11-29T10:00:00Z';
  const entry = (annotations: Record<string, string> = {}) => ({
    metadata: { deletionTimestamp: deletedAt, annotations },
  });

  it('is due once the grace period since the deletionTimestamp has passed, and says when before', () => {
    const config = { deletionGracePeriodHours: 2 };
    const early = deletionSchedule(entry(), config, new Date('2026-11-29T11:30:00Z'));
    expect(early).toEqual({ due: false, at: new Date('2026-11-29T12:00:00Z'), requeueAfterMs: 30 * 60_000 });
    expect(deletionSchedule(entry(), config, new Date('2026-11-29T12:00:00Z'))).toEqual({ due: true });
    expect(deletionSchedule(entry(), { deletionGracePeriodHours: 0 }, new Date(deletedAt))).toEqual({ due: true });
  });

  it('reads the purpose from the shoot purpose annotation', () => {
    const config = { deletionGracePeriodHours: 2, deletionGracePeriodShootPurposes: ['production'] };
    const at = new Date('2026-11-29T10:00:01Z');
    expect(deletionSchedule(entry({ 'shoot.gardener.cloud/purpose': 'evaluation' }), config, at)).toEqual({
      due: true,
    });
    expect(deletionSchedule(entry({ 'shoot.gardener.cloud/purpose': 'production' }), config, at).due).toBe(false);
  });

  it('is due at once with the force-deletion annotation', () => {
    const forced = entry({ 'backupentry.core.gardener.cloud/force-deletion': 'true' });
    expect(deletionSchedule(forced, { deletionGracePeriodHours: 72 }, new Date(deletedAt))).toEqual({ due: true });
    const notForced = entry({ 'backupentry.core.gardener.cloud/force-deletion': 'false' });
    expect(deletionSchedule(notForced, { deletionGracePeriodHours: 72 }, new Date(deletedAt)).due).toBe(false);
  });

  it('requeues exactly until the deadline', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 200 * HOUR }), (hours, elapsed) => {
        const now = new Date(Date.parse(deletedAt) + elapsed);
        const schedule = deletionSchedule(entry(), { deletionGracePeriodHours: hours }, now);
        if (elapsed >= hours * HOUR) expect(schedule).toEqual({ due: true });
        else
          expect(schedule).toEqual({
            due: false,
            at: new Date(Date.parse(deletedAt) + hours * HOUR),
            requeueAfterMs: hours * HOUR - elapsed,
          });
      }),
    );
  });
});
