import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Condition } from '@gardener-ts/controller-runtime';
import { decideLifecycle } from './lifecycle.js';

const NOW = new Date('2026-01-01T12:00:00Z');
const ready = (status: Condition['status'], since: Date): Condition => ({
  type: 'GardenletReady',
  status,
  reason: status === 'Unknown' ? 'SeedStatusUnknown' : 'GardenletReady',
  message: '',
  lastTransitionTime: since.toISOString(),
  lastUpdateTime: since.toISOString(),
});
const MONITOR = 40_000;
const SHOOT_MONITOR = 200_000;
const decide = (conditions: Condition[] | undefined, renewTime: Date | undefined) =>
  decideLifecycle({ conditions, renewTime, now: NOW, monitorPeriodMs: MONITOR, shootMonitorPeriodMs: SHOOT_MONITOR });

describe('decideLifecycle', () => {
  it('waits for a seed whose gardenlet never reported', () => {
    expect(decide(undefined, undefined)).toEqual({ action: 'wait' });
    expect(decide([], new Date(0))).toEqual({ action: 'wait' });
  });

  it('waits while the Lease was renewed within the monitor period, and acts once it was not (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 * MONITOR }), (ageMs) => {
        const decision = decide([ready('True', new Date(0))], new Date(NOW.getTime() - ageMs));
        expect(decision.action).toBe(ageMs < MONITOR ? 'wait' : 'seedUnknown');
      }),
    );
  });

  it('marks the seed Unknown without a Lease; the shoots only once Unknown has lasted the shoot monitor period', () => {
    expect(decide([ready('True', new Date(0))], undefined)).toEqual({
      action: 'seedUnknown',
      shootsUnknown: false,
      offlineSince: NOW,
    });
    const since = new Date(NOW.getTime() - SHOOT_MONITOR + 1);
    expect(decide([ready('Unknown', since)], undefined)).toMatchObject({ action: 'seedUnknown', shootsUnknown: false });
    const longAgo = new Date(NOW.getTime() - SHOOT_MONITOR);
    expect(decide([ready('Unknown', longAgo)], new Date(0))).toEqual({
      action: 'seedUnknown',
      shootsUnknown: true,
      offlineSince: longAgo,
    });
  });
});
