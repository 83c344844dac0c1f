import { describe, expect, it } from 'vitest';
import { rotationDeadline } from './serving-cert-manager.js';

describe('rotationDeadline', () => {
  it('falls between 70 % and 90 % of the lifetime, jittered', () => {
    const cert = { notBefore: 1_000, notAfter: 101_000 };
    expect(rotationDeadline(cert, 0)).toBeCloseTo(71_000, 3);
    expect(rotationDeadline(cert, 1)).toBeCloseTo(91_000, 3);
    expect(rotationDeadline(cert, 0.5)).toBeCloseTo(81_000, 3);
  });
});
