import { describe, expect, it } from 'vitest';
import type { Seed, Shoot } from '@gardener-ts/api';
import { seed, shoot } from '../../test/fixtures.js';
import { enforcedZonesMissing, pinnedZonesMissing, placesInWorkerZone } from './zones.js';

const withZones = (zones: string[], mode?: 'Prefer' | 'Enforce') =>
  seed('s', (s: Seed) => {
    s.spec.provider.zones = zones;
    if (mode) s.spec.settings = { ...s.spec.settings, zoneSelection: { mode } };
  });
const workersIn =
  (...zones: string[]) =>
  (s: Shoot) =>
    (s.spec.provider.workers![0].zones = zones);
const pinned =
  (...zones: string[]) =>
  (s: Shoot) =>
    (s.spec.controlPlane = { zones } as never);

describe('zone pinning (spec.controlPlane.zones)', () => {
  it.each([
    ['a seed with the pinned zone fits', shoot('s', pinned('z1')), withZones(['z1', 'z2']), true],
    ['a seed with all pinned zones fits', shoot('s', pinned('z1', 'z2')), withZones(['z1', 'z2', 'z3']), true],
    ['a seed lacking a pinned zone is rejected', shoot('s', pinned('z1', 'z4')), withZones(['z1', 'z2']), false],
    ['an unpinned shoot fits any seed', shoot('s'), withZones([]), true],
  ])('%s', (_name, s, candidate, fits) => {
    expect(pinnedZonesMissing(candidate, s) === undefined).toBe(fits);
  });
});

describe('zone selection mode Enforce', () => {
  it.each([
    [
      'Enforce fits when the seed has every worker zone',
      shoot('s', workersIn('z1', 'z2')),
      withZones(['z1', 'z2', 'z3'], 'Enforce'),
      true,
    ],
    [
      'Enforce fits when the seed has any of the worker zones',
      shoot('s', workersIn('z1', 'z9')),
      withZones(['z1', 'z2'], 'Enforce'),
      true,
    ],
    [
      'Enforce rejects a seed with none of the worker zones',
      shoot('s', workersIn('z8', 'z9')),
      withZones(['z1', 'z2'], 'Enforce'),
      false,
    ],
    ['Prefer never rejects', shoot('s', workersIn('z9')), withZones(['z1'], 'Prefer'), true],
    ['no mode never rejects', shoot('s', workersIn('z9')), withZones(['z1']), true],
    [
      'a workerless shoot fits Enforce',
      shoot('s', (x) => (x.spec.provider.workers = [])),
      withZones(['z1'], 'Enforce'),
      true,
    ],
    [
      'a zone-tolerant HA shoot is not placed in one zone, so Enforce does not apply',
      shoot('s', (x) => {
        workersIn('z9')(x);
        x.spec.controlPlane = { highAvailability: { failureTolerance: { type: 'zone' } } };
      }),
      withZones(['z1', 'z2', 'z3'], 'Enforce'),
      true,
    ],
    [
      'a node-tolerant HA shoot is placed in one zone, so Enforce applies',
      shoot('s', (x) => {
        workersIn('z9')(x);
        x.spec.controlPlane = { highAvailability: { failureTolerance: { type: 'node' } } };
      }),
      withZones(['z1'], 'Enforce'),
      false,
    ],
    [
      'pinned zones bypass Enforce',
      shoot('s', (x) => (workersIn('z9')(x), pinned('z1')(x))),
      withZones(['z1'], 'Enforce'),
      true,
    ],
  ])('%s', (_name, s, candidate, fits) => {
    expect(enforcedZonesMissing(candidate, s) === undefined).toBe(fits);
  });
});

describe('zone selection mode Prefer', () => {
  it.each([
    [
      'a Prefer seed with a worker zone is preferred',
      shoot('s', workersIn('z1', 'z9')),
      withZones(['z1'], 'Prefer'),
      true,
    ],
    [
      'an Enforce seed with a worker zone is preferred',
      shoot('s', workersIn('z1')),
      withZones(['z1'], 'Enforce'),
      true,
    ],
    ['a Prefer seed without a worker zone is not', shoot('s', workersIn('z9')), withZones(['z1'], 'Prefer'), false],
    ['a seed without zone selection places nothing', shoot('s', workersIn('z1')), withZones(['z1']), false],
    [
      'pinned shoots are not placed by zone selection',
      shoot('s', (x) => (workersIn('z1')(x), pinned('z1')(x))),
      withZones(['z1'], 'Prefer'),
      false,
    ],
  ])('%s', (_name, s, candidate, preferred) => {
    expect(placesInWorkerZone(candidate, s)).toBe(preferred);
  });
});
