// Tests of the version choice of the shoot maintenance: automatic updates by update strategy (a higher patch first,
// non-deprecated preferred), forced updates of expired versions (Kubernetes to the consecutive minor, machine images
// with `patch` to the next higher minor, `minor` to the next higher major, `major` never beyond the latest).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  autoUpdateVersion,
  compareVersions,
  nextMachineImageVersion,
  parseVersion,
  type ProfileMachineImage,
  type UpdateStrategy,
  type VersionEntry,
} from './versions.js';

const NOW = new Date('2026-06-01T00:00:00Z');
const EXPIRED = '2026-01-01T00:00:00Z';
const image = (updateStrategy: UpdateStrategy, versions: VersionEntry[]): ProfileMachineImage => ({
  name: 'gardenlinux',
  updateStrategy,
  versions,
});

describe('autoUpdateVersion', () => {
  const versions: VersionEntry[] = [
    { version: '1.0.0' },
    { version: '1.0.1' },
    { version: '1.0.2', classification: 'deprecated' },
    { version: '1.1.0' },
    { version: '1.2.0', classification: 'preview' },
    { version: '2.0.0' },
    { version: '2.1.0', expirationDate: EXPIRED },
  ];

  it('takes a higher patch first, preferring a non-deprecated one, whatever the strategy', () => {
    for (const strategy of ['patch', 'minor', 'major'] as const)
      expect(autoUpdateVersion(versions, '1.0.0', strategy, NOW)).toEqual({ version: '1.0.1' });
    expect(autoUpdateVersion(versions, '1.0.1', 'patch', NOW)).toEqual({ version: '1.0.2' });
  });

  it('then the latest of the same major (minor) or overall (major), never preview or expired', () => {
    expect(autoUpdateVersion(versions, '1.0.2', 'patch', NOW)).toEqual({ version: '' });
    expect(autoUpdateVersion(versions, '1.0.2', 'minor', NOW)).toEqual({ version: '1.1.0' });
    expect(autoUpdateVersion(versions, '1.0.2', 'major', NOW)).toEqual({ version: '2.0.0' });
    expect(autoUpdateVersion(versions, '2.0.0', 'major', NOW)).toEqual({ version: '' });
  });

  it('property: the result is higher, qualifies and stays within the strategy', () => {
    const entry = fc.record({
      version: fc.tuple(fc.nat(3), fc.nat(3), fc.nat(3)).map(([a, b, c]) => `${a}.${b}.${c}`),
      classification: fc.constantFrom(undefined, 'preview', 'supported', 'deprecated', 'expired'),
    });
    fc.assert(
      fc.property(
        fc.uniqueArray(entry, { selector: (e) => e.version, maxLength: 12 }),
        fc.tuple(fc.nat(3), fc.nat(3), fc.nat(3)),
        fc.constantFrom<UpdateStrategy>('patch', 'minor', 'major'),
        (entries, [a, b, c], strategy) => {
          const current = `${a}.${b}.${c}`;
          const result = autoUpdateVersion(entries as VersionEntry[], current, strategy, NOW);
          if ('error' in result || !result.version) return;
          const chosen = entries.find((e) => e.version === result.version)!;
          const v = parseVersion(result.version)!;
          expect(compareVersions(result.version, current)).toBeGreaterThan(0);
          expect(['preview', 'expired']).not.toContain(chosen.classification);
          if (strategy === 'patch') expect([v[0], v[1]]).toEqual([a, b]);
          if (strategy === 'minor') expect(v[0]).toBe(a);
        },
      ),
    );
  });
});

describe('nextMachineImageVersion (forced)', () => {
  it('patch: the latest version of the next higher minor that has a qualifying one', () => {
    const img = image('patch', [
      { version: '1.0.0', expirationDate: EXPIRED },
      { version: '1.2.0' },
      { version: '1.2.3' },
      { version: '1.3.0' },
      { version: '2.0.0' },
    ]);
    expect(nextMachineImageVersion({ name: 'gardenlinux', version: '1.0.0' }, img, true, NOW)).toEqual({
      version: '1.2.3',
    });
  });

  it('patch: goes to an expired version of the very next minor rather than skip it', () => {
    const img = image('patch', [
      { version: '1.0.0', expirationDate: EXPIRED },
      { version: '1.1.0', expirationDate: EXPIRED },
      { version: '1.2.0' },
    ]);
    expect(nextMachineImageVersion({ name: 'gardenlinux', version: '1.0.0' }, img, true, NOW)).toEqual({
      version: '1.1.0',
    });
  });

  it('minor: the latest version of the next higher major', () => {
    const img = image('minor', [
      { version: '1.0.0', expirationDate: EXPIRED },
      { version: '3.1.0' },
      { version: '3.4.0' },
      { version: '4.0.0' },
    ]);
    expect(nextMachineImageVersion({ name: 'gardenlinux', version: '1.0.0' }, img, true, NOW)).toEqual({
      version: '3.4.0',
    });
  });

  it("major: cannot force beyond the latest, in Gardener's words", () => {
    const img = image('major', [{ version: '1.0.0', expirationDate: EXPIRED }, { version: '0.9.0' }]);
    const result = nextMachineImageVersion({ name: 'gardenlinux', version: '1.0.0' }, img, true, NOW);
    expect(result).toEqual({
      error:
        'failed to determine the target version for maintenance of machine image "gardenlinux" with strategy "major": failed to determine version for forceful update: either the machine image "gardenlinux" is reaching end of life and migration to another machine image is required or there is a misconfiguration in the CloudProfile. If it is the latter, make sure the machine image in the CloudProfile has at least one version that is not expired, not in preview and greater or equal to the current Shoot image version "1.0.0"',
    });
  });

  it('reports a forced update that finds nothing', () => {
    const img = image('patch', [{ version: '1.0.0', expirationDate: EXPIRED }, { version: '2.0.0' }]);
    expect(nextMachineImageVersion({ name: 'gardenlinux', version: '1.0.0' }, img, true, NOW)).toMatchObject({
      error: expect.stringContaining(
        'cannot perform forceful update of expired version "1.0.0". No suitable version found in CloudProfile',
      ),
    });
  });
});
