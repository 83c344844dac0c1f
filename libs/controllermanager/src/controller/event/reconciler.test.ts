import { describe, expect, it } from 'vitest';
import { eventDeletionDueInMs } from './reconciler.js';

const NOW = new Date('2026-06-01T12:00:00Z');
const HOUR = 3600_000;

describe('eventDeletionDueInMs', () => {
  it('keeps Shoot events and counts the TTL of others from when they were last seen', () => {
    expect(
      eventDeletionDueInMs(
        {
          involvedObject: { apiVersion: 'core.gardener.cloud/v1beta1', kind: 'Shoot' },
          lastTimestamp: '2026-01-01T00:00:00Z',
        },
        HOUR,
        NOW,
      ),
    ).toBeUndefined();
    expect(
      eventDeletionDueInMs(
        {
          involvedObject: { apiVersion: 'core.gardener.cloud/v1beta1', kind: 'Project' },
          lastTimestamp: '2026-06-01T11:30:00Z',
        },
        HOUR,
        NOW,
      ),
    ).toBe(HOUR / 2);
    expect(
      eventDeletionDueInMs(
        { involvedObject: { apiVersion: 'v1', kind: 'Pod' }, eventTime: '2026-06-01T10:00:00.000000Z' },
        HOUR,
        NOW,
      ),
    ).toBe(-HOUR);
    // A "Shoot" of another group is no Gardener Shoot.
    expect(
      eventDeletionDueInMs(
        {
          involvedObject: { apiVersion: 'example.com/v1', kind: 'Shoot' },
          metadata: { creationTimestamp: '2026-06-01T12:00:00Z' },
        },
        HOUR,
        NOW,
      ),
    ).toBe(HOUR);
  });
});
