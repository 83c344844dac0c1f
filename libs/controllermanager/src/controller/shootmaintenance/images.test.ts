// Tests of the machine image versions a worker pool may be maintained to: filtered by architecture, machine
// capabilities, CRI, kubelet version constraint and in-place update constraints; and the maintenance choosing among them.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CloudProfile, Shoot } from '@gardener-ts/api';
import { example, localShoot } from '../../../test/support/examples.js';
import { filterMachineImageVersions, machineImageVersionMisfits, type Worker } from './images.js';
import { maintainShoot } from './maintain.js';
import { compareVersions } from './versions.js';

type MachineImage = CloudProfile['spec']['machineImages'][number];
type MachineImageVersion = MachineImage['versions'][number];

const NOW = new Date('2026-06-01T22:30:00Z');

const worker = (change: (w: Worker) => void = () => undefined): Worker => {
  const w: Worker = { name: 'pool', machine: { type: 'm', image: { name: 'img', version: '1.0.0' } } } as Worker;
  change(w);
  return w;
};

describe('machineImageVersionMisfits', () => {
  const noCaps = { capabilities: undefined };

  it('checks the architecture against the versions architectures (amd64 by default)', () => {
    expect(machineImageVersionMisfits({ version: '1' }, worker(), '1.34.0', noCaps, [])).toEqual([]);
    expect(
      machineImageVersionMisfits(
        { version: '1', architectures: ['arm64'] },
        worker((w) => (w.machine.architecture = 'amd64')),
        '1.34.0',
        noCaps,
        [],
      ),
    ).toEqual(['architecture']);
  });

  it('checks the machine type capabilities and the architecture against the capability flavors', () => {
    const definitions = [
      { name: 'architecture', values: ['amd64', 'arm64'] },
      { name: 'gpu', values: ['none', 'nvidia'] },
    ];
    const version: MachineImageVersion = {
      version: '1',
      capabilityFlavors: [{ architecture: ['arm64'], gpu: ['none'] }],
    };
    const arm = worker((w) => (w.machine.architecture = 'arm64'));
    expect(
      machineImageVersionMisfits(version, arm, '1.34.0', { capabilities: { gpu: ['none'] } }, definitions),
    ).toEqual([]);
    expect(
      machineImageVersionMisfits(version, arm, '1.34.0', { capabilities: { gpu: ['nvidia'] } }, definitions),
    ).toEqual(['capabilities']);
    expect(machineImageVersionMisfits(version, worker(), '1.34.0', noCaps, definitions)).toEqual(['architecture']);
  });

  it('checks the CRI and its container runtimes', () => {
    const gvisor = worker((w) => (w.cri = { name: 'containerd', containerRuntimes: [{ type: 'gvisor' }] }));
    expect(machineImageVersionMisfits({ version: '1' }, gvisor, '1.34.0', noCaps, [])).toEqual(['cri']);
    expect(
      machineImageVersionMisfits(
        { version: '1', cri: [{ name: 'containerd', containerRuntimes: [{ type: 'gvisor' }] }] },
        gvisor,
        '1.34.0',
        noCaps,
        [],
      ),
    ).toEqual([]);
  });

  it('checks the kubelet version against the constraint', () => {
    const version = { version: '1', kubeletVersionConstraint: '< 1.34' };
    expect(machineImageVersionMisfits(version, worker(), '1.33.9', noCaps, [])).toEqual([]);
    expect(machineImageVersionMisfits(version, worker(), '1.34.0', noCaps, [])).toEqual(['kubeletVersionConstraint']);
  });

  it('lets in-place pools reach only versions that support in-place updates from their current one', () => {
    const inPlace = worker((w) => {
      w.updateStrategy = 'AutoInPlaceUpdate';
      w.machine.image = { name: 'img', version: '1.1.0' };
    });
    const misfits = (v: MachineImageVersion) => machineImageVersionMisfits(v, inPlace, '1.34.0', noCaps, []);
    expect(misfits({ version: '2.0.0' })).toEqual(['inPlaceUpdates']);
    expect(misfits({ version: '2.0.0', inPlaceUpdates: { supported: true, minVersionForUpdate: '1.0.0' } })).toEqual(
      [],
    );
    expect(misfits({ version: '2.0.0', inPlaceUpdates: { supported: true, minVersionForUpdate: '1.2.0' } })).toEqual([
      'inPlaceUpdates',
    ]);
    expect(misfits({ version: '1.1.0', inPlaceUpdates: { supported: true } })).toEqual([]);
    // Rolling pools are not constrained.
    expect(machineImageVersionMisfits({ version: '2.0.0' }, worker(), '1.34.0', noCaps, [])).toEqual([]);
  });
});

/** The local CloudProfile with an image `img` and the given versions. */
function profileWith(versions: MachineImageVersion[], updateStrategy?: 'patch' | 'minor' | 'major'): CloudProfile {
  const p = example<CloudProfile>('local', 'cloudprofile.yaml');
  p.spec.machineImages = [{ name: 'img', versions, ...(updateStrategy ? { updateStrategy } : {}) }];
  return p;
}

function shoot(change: (s: Shoot) => void = () => undefined): Shoot {
  const s = localShoot('maintained', 'local');
  s.spec.kubernetes.version = '1.34.3';
  s.spec.maintenance = { autoUpdate: { kubernetesVersion: false, machineImageVersion: true } };
  s.spec.provider.workers![0]!.machine.image = { name: 'img', version: '1.0.0' };
  change(s);
  return s;
}

describe('maintainShoot with machine image filtering', () => {
  it('skips versions whose kubelet constraint the pool does not meet', () => {
    const profile = profileWith([
      { version: '1.0.0' },
      { version: '1.1.0', kubeletVersionConstraint: '>= 1.30' },
      { version: '1.2.0', kubeletVersionConstraint: '< 1.34' },
    ]);
    const result = maintainShoot(shoot(), profile, { now: NOW });
    expect(result.shoot.spec.provider.workers![0]!.machine.image?.version).toBe('1.1.0');
    expect(result.workers.local?.machineImage).toEqual({
      ok: true,
      reason: 'Automatic update of the machine image version is configured (image update strategy: major)',
      description: 'Updated machine image "img" from "1.0.0" to "1.1.0"',
    });
  });

  it("force-updates a pool whose version no longer fits it, and judges the kubelet by the pool's own version", () => {
    const profile = profileWith([{ version: '1.0.0', kubeletVersionConstraint: '< 1.34' }, { version: '1.1.0' }]);
    const forced = maintainShoot(
      shoot((s) => (s.spec.maintenance!.autoUpdate!.machineImageVersion = false)),
      profile,
      { now: NOW },
    );
    expect(forced.shoot.spec.provider.workers![0]!.machine.image?.version).toBe('1.1.0');
    expect(forced.workers.local?.machineImage?.reason).toBe('Version does not exist in CloudProfile');

    const older = maintainShoot(
      shoot((s) => {
        s.spec.maintenance!.autoUpdate!.machineImageVersion = false;
        s.spec.provider.workers![0]!.kubernetes = { version: '1.33.0' };
      }),
      profile,
      { now: NOW },
    );
    expect(older.shoot.spec.provider.workers![0]!.machine.image?.version).toBe('1.0.0');
  });

  it('stops the machine image maintenance when a pool names a machine type the profile lacks', () => {
    const result = maintainShoot(
      shoot((s) => (s.spec.provider.workers![0]!.machine.type = 'huge')),
      profileWith([{ version: '1.0.0' }, { version: '1.1.0' }]),
      { now: NOW },
    );
    expect(result.machineImageError).toBe('machine type "huge" of worker "local" does not exist in cloudprofile');
    expect(result.shoot.spec.provider.workers![0]!.machine.image?.version).toBe('1.0.0');
  });

  it('property: a chosen version always fits the pool and is higher than the current one', () => {
    const version = fc.record(
      {
        version: fc.tuple(fc.nat(2), fc.nat(3), fc.nat(3)).map(([a, b, c]) => `${a}.${b}.${c}`),
        classification: fc.constantFrom('supported', 'deprecated', 'preview'),
        kubeletVersionConstraint: fc.constantFrom('< 1.34', '>= 1.34', '>= 1.30, < 1.36'),
        architectures: fc.constantFrom(['amd64'], ['arm64'], ['amd64', 'arm64']),
        cri: fc.constantFrom(
          [{ name: 'containerd' as const }],
          [{ name: 'containerd' as const, containerRuntimes: [{ type: 'gvisor' }] }],
        ),
      },
      { requiredKeys: ['version'] },
    );
    fc.assert(
      fc.property(
        fc.uniqueArray(version, { selector: (v) => v.version, maxLength: 10 }),
        fc.constantFrom<'patch' | 'minor' | 'major'>('patch', 'minor', 'major'),
        fc.constantFrom('amd64', 'arm64'),
        fc.boolean(),
        (versions, strategy, architecture, gvisor) => {
          const s = shoot((x) => {
            const pool = x.spec.provider.workers![0]!;
            pool.machine.architecture = architecture;
            if (gvisor) pool.cri = { name: 'containerd', containerRuntimes: [{ type: 'gvisor' }] };
          });
          const pool = s.spec.provider.workers![0]!;
          const result = maintainShoot(s, profileWith(versions as MachineImageVersion[], strategy), { now: NOW });
          const chosen = result.shoot.spec.provider.workers![0]!.machine.image!.version!;
          if (!result.workers.local?.machineImage?.ok) {
            expect(chosen).toBe('1.0.0');
            return;
          }
          const entry = versions.find((v) => v.version === chosen)!;
          expect(entry).toBeDefined();
          expect(entry.classification).not.toBe('preview');
          expect(machineImageVersionMisfits(entry as MachineImageVersion, pool, '1.34.3', {}, [])).toEqual([]);
          expect(compareVersions(chosen, '1.0.0')).toBeGreaterThan(0);
          const fitting = filterMachineImageVersions(
            { name: 'img', versions: versions as MachineImageVersion[] },
            pool,
            '1.34.3',
            {},
          );
          expect(fitting.versions.map((v) => v.version)).toContain(chosen);
        },
      ),
    );
  });
});
