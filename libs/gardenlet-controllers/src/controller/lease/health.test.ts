import { describe, expect, it } from 'vitest';
import { HealthManager } from './health.js';

describe('HealthManager', () => {
  it('is healthy after a successful renewal until it goes stale', () => {
    let now = 0;
    const health = new HealthManager(20_000, () => now);
    now = 100_000;
    expect(health.get()).toBe(true); // not started: a replica that does not lead is not judged
    health.start();
    now = 100_000 + 20_000;
    expect(health.get()).toBe(true);
    now = 100_000 + 20_001;
    expect(health.get()).toBe(false); // started, but no renewal reported
    now = 0;
    health.set(true);
    now = 20_000;
    expect(health.get()).toBe(true);
    now = 20_001; // the renewal loop stalled: no report for longer than leaseResyncSeconds × missThreshold
    expect(health.get()).toBe(false);
    health.set(true);
    expect(health.get()).toBe(true);
    health.set(false); // a failed renewal reports at once
    expect(health.get()).toBe(false);
  });
});
