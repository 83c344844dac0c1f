import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renewalRequested, rotationDeadline } from './rotation.js';

describe('rotationDeadline', () => {
  it('lies between min and max percent of the validity (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2_000_000_000_000 }),
        fc.integer({ min: 600_000, max: 10 * 365 * 86_400_000 }),
        fc.integer({ min: 1, max: 99 }),
        fc.integer({ min: 1, max: 99 }),
        (start, validity, a, b) => {
          const [min, max] = a < b ? [a, b] : [b, a + 1];
          const notBefore = new Date(start);
          const notAfter = new Date(start + validity);
          for (const random of [0, 0.5, 0.999999]) {
            const at = rotationDeadline(notBefore, notAfter, { min, max }, random).getTime() - start;
            expect(at).toBeGreaterThanOrEqual(Math.floor((validity * min) / 100) - 1);
            expect(at).toBeLessThanOrEqual((validity * max) / 100);
          }
        },
      ),
    );
  });

  it('defaults: a one-year certificate rotates after 70-90 % (about 8.4 to 10.8 months)', () => {
    const notBefore = new Date('2026-01-01T00:00:00Z');
    const notAfter = new Date('2027-01-01T00:00:00Z');
    expect(rotationDeadline(notBefore, notAfter, { min: 70, max: 90 }, 0).toISOString()).toBe(
      '2026-09-13T12:00:00.000Z',
    );
    expect(rotationDeadline(notBefore, notAfter, { min: 70, max: 90 }, 0.5).toISOString()).toBe(
      '2026-10-20T00:00:00.000Z',
    );
  });
});

describe('renewalRequested', () => {
  it('reacts to gardener.cloud/operation renew (and renew-kubeconfig) only', () => {
    expect(renewalRequested({ 'gardener.cloud/operation': 'renew' })).toBe(true);
    expect(renewalRequested({ 'gardener.cloud/operation': 'renew-kubeconfig' })).toBe(true);
    expect(renewalRequested({ 'gardener.cloud/operation': 'reconcile' })).toBe(false);
    expect(renewalRequested(undefined)).toBe(false);
  });
});
