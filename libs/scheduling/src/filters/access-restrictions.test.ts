import { describe, expect, it } from 'vitest';
import { seed, shoot } from '../../test/fixtures.js';
import { unsupportedAccessRestrictions } from './access-restrictions.js';

const seedWith = (...names: string[]) =>
  seed('s', (s) => (s.spec.accessRestrictions = names.map((name) => ({ name }))));
const shootWith = (...names: string[]) =>
  shoot('s', (s) => (s.spec.accessRestrictions = names.map((name) => ({ name }))));

describe('access restrictions', () => {
  it.each([
    ['a shoot without restrictions fits any seed', shootWith(), seedWith(), true],
    ['a supported restriction fits', shootWith('eu-access-only'), seedWith('eu-access-only', 'other'), true],
    ['an unsupported restriction is rejected', shootWith('eu-access-only'), seedWith('other'), false],
    ['a seed without restrictions rejects a restricted shoot', shootWith('eu-access-only'), seedWith(), false],
  ])('%s', (_name, s, candidate, fits) => {
    expect(unsupportedAccessRestrictions(candidate, s) === undefined).toBe(fits);
  });
});
