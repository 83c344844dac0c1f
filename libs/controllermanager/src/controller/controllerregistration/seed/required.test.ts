import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ControllerInstallation, ControllerRegistration } from '@gardener-ts/api';
import { localSeed, localShoot, providerLocalRegistration, registration } from '../../../../test/support/examples.js';
import {
  computeSeedNeeds,
  planInstallations,
  requiredExtensionsForShoot,
  wantedKindTypes,
  type SeedNeedsInput,
} from './required.js';

const calico = registration('networking-calico', [{ kind: 'Network', type: 'calico' }]);
const input = (changes: Partial<SeedNeedsInput> = {}): SeedNeedsInput => ({
  seed: localSeed('local'),
  registrations: [providerLocalRegistration(), calico],
  installations: [],
  shoots: [],
  backupBuckets: [],
  backupEntries: [],
  ...changes,
});
const needs = (changes: Partial<SeedNeedsInput> = {}) => {
  const result = computeSeedNeeds(input(changes));
  if (!result.ok) throw new Error(result.error);
  return [...result.registrations].sort();
};

describe('requiredExtensionsForShoot', () => {
  it("lists what Gardener's local example Shoot needs on a local seed", () => {
    expect(
      [...requiredExtensionsForShoot(localShoot('a', 'local'), localSeed('local'), [], undefined, undefined)].sort(),
    ).toEqual(['ControlPlane/local', 'Infrastructure/local', 'Network/calico', 'Worker/local']);
  });

  it('adds machine images, container runtimes, extensions, DNS and backups; drops disabled and unsupported global ones', () => {
    const shoot = localShoot('a', 'local');
    shoot.spec.provider.workers![0]!.machine.image = { name: 'gardenlinux', version: '1.0.0' };
    shoot.spec.provider.workers![0]!.cri = { name: 'containerd', containerRuntimes: [{ type: 'gvisor' }] };
    shoot.spec.extensions = [{ type: 'shoot-dns-service' }, { type: 'audit', disabled: true }];
    shoot.spec.dns = {
      domain: 'a.example.com',
      providers: [{ type: 'aws-route53', primary: true }, { type: 'unmanaged' }],
    };
    const seed = localSeed('local');
    seed.spec.backup = {
      provider: 'local',
      credentialsRef: { apiVersion: 'v1', kind: 'Secret', name: 'b', namespace: 'garden' },
    } as never;
    const globals = [
      registration('audit', [{ kind: 'Extension', type: 'audit', globallyEnabled: true }]),
      registration('ext', [{ kind: 'Extension', type: 'always-on', globallyEnabled: true }]),
    ];
    const required = requiredExtensionsForShoot(
      shoot,
      seed,
      globals,
      { domain: 'internal.example', provider: 'local' },
      'aws-route53',
    );
    expect([...required].sort()).toEqual([
      'BackupBucket/local',
      'BackupEntry/local',
      'ContainerRuntime/gvisor',
      'ControlPlane/local',
      'DNSRecord/aws-route53',
      'DNSRecord/local',
      'Extension/always-on',
      'Extension/shoot-dns-service',
      'Infrastructure/local',
      'Network/calico',
      'OperatingSystemConfig/gardenlinux',
      'Worker/local',
    ]);

    const workerless = localShoot('w', 'local');
    workerless.spec.provider.workers = [];
    expect([...requiredExtensionsForShoot(workerless, seed, globals, undefined, undefined)].sort()).toEqual([
      'BackupBucket/local',
      'BackupEntry/local',
      'ControlPlane/local',
    ]);
  });
});

describe('computeSeedNeeds', () => {
  it('installs an Always registration on every seed, an OnDemand one only where shoots need its kind/type', () => {
    expect(needs()).toEqual(['provider-local']);
    expect(needs({ shoots: [localShoot('a', 'local')] })).toEqual(['networking-calico', 'provider-local']);
  });

  it('installs AlwaysExceptNoShoots registrations only on seeds with shoots', () => {
    const monitoring = registration('monitoring', [{ kind: 'Extension', type: 'monitoring' }], {
      policy: 'AlwaysExceptNoShoots',
    });
    const registrations = [providerLocalRegistration(), calico, monitoring];
    expect(needs({ registrations })).toEqual(['provider-local']);
    expect(needs({ registrations, shoots: [localShoot('a', 'local')] })).toEqual([
      'monitoring',
      'networking-calico',
      'provider-local',
    ]);
  });

  it("honours each registration's seed selector", () => {
    const prodOnly = registration('prod-only', [{ kind: 'Extension', type: 'x' }], {
      policy: 'Always',
      seedSelector: { matchLabels: { env: 'prod' } },
    });
    const registrations = [providerLocalRegistration(), calico, prodOnly];
    expect(needs({ registrations })).toEqual(['provider-local']);
    expect(needs({ registrations, seed: localSeed('local', { env: 'prod' }) })).toEqual([
      'prod-only',
      'provider-local',
    ]);
  });

  it('keeps registrations whose installation still reports Required=True, and nothing Always once the seed is deleted', () => {
    const required: ControllerInstallation = {
      apiVersion: 'core.gardener.cloud/v1beta1',
      kind: 'ControllerInstallation',
      metadata: { name: 'networking-calico-abcde' },
      spec: { seedRef: { name: 'local' }, registrationRef: { name: 'networking-calico' } },
      status: {
        conditions: [
          {
            type: 'Required',
            status: 'True',
            reason: 'ExtensionObjectsExist',
            message: '',
            lastTransitionTime: '2026-01-01T00:00:00Z',
            lastUpdateTime: '2026-01-01T00:00:00Z',
          },
        ],
      },
    } as ControllerInstallation;
    expect(needs({ installations: [required] })).toEqual(['networking-calico', 'provider-local']);
    const deleting = localSeed('local');
    deleting.metadata!.deletionTimestamp = '2026-01-01T00:00:00Z';
    expect(needs({ seed: deleting })).toEqual([]);
  });

  it('fails when no registration provides a needed kind/type', () => {
    expect(
      computeSeedNeeds(input({ registrations: [providerLocalRegistration()], shoots: [localShoot('a', 'local')] })),
    ).toEqual({
      ok: false,
      error:
        'need to install an extension controller for "Network/calico" but no appropriate ControllerRegistration found',
    });
  });

  it('never needs less when a seed gets more shoots (property)', () => {
    const networks = ['calico', 'cilium'];
    const registrations = [
      providerLocalRegistration(),
      ...networks.map((n) => registration(`networking-${n}`, [{ kind: 'Network', type: n }])),
    ];
    const shoot = fc
      .record({ network: fc.constantFrom(...networks), workerless: fc.boolean() })
      .map(({ network, workerless }) => {
        const s = localShoot('s', 'local');
        s.spec.networking!.type = network;
        if (workerless) s.spec.provider.workers = [];
        return s;
      });
    fc.assert(
      fc.property(fc.array(shoot, { maxLength: 4 }), fc.array(shoot, { maxLength: 4 }), (some, more) => {
        const before = needs({ registrations, shoots: some });
        const after = needs({ registrations, shoots: [...some, ...more] });
        expect(after).toEqual(expect.arrayContaining(before));
        expect(
          [...wantedKindTypes(input({ registrations, shoots: some }))].every((id) =>
            wantedKindTypes(input({ registrations, shoots: [...some, ...more] })).has(id),
          ),
        ).toBe(true);
      }),
    );
  });
});

describe('planInstallations', () => {
  const installation = (registrationName: string, seed: string, deleting = false): ControllerInstallation =>
    ({
      apiVersion: 'core.gardener.cloud/v1beta1',
      kind: 'ControllerInstallation',
      metadata: {
        name: `${registrationName}-${seed}`,
        ...(deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
      },
      spec: { seedRef: { name: seed }, registrationRef: { name: registrationName } },
    }) as ControllerInstallation;

  it('splits wanted registrations into deploy, skipped and blocked, and deletes every other installation of the seed (property)', () => {
    const names = ['a', 'b', 'c', 'd', 'e'];
    fc.assert(
      fc.property(
        fc.subarray(names),
        fc.subarray(names),
        fc.subarray(names),
        fc.subarray(names),
        (wanted, installed, deletingInstallations, deletingRegistrations) => {
          const registrations: ControllerRegistration[] = names.map((n) => {
            const r = registration(n, []);
            if (deletingRegistrations.includes(n)) r.metadata!.deletionTimestamp = '2026-01-01T00:00:00Z';
            return r;
          });
          const installations = [
            ...installed.map((n) => installation(n, 'local', deletingInstallations.includes(n))),
            ...names.map((n) => installation(n, 'other')),
          ];
          const plan = planInstallations('local', new Set(wanted), registrations, installations);
          expect([...plan.deploy, ...plan.skipped, ...plan.blocked].sort()).toEqual([...wanted].sort());
          expect(plan.skipped.every((n) => deletingRegistrations.includes(n))).toBe(true);
          expect(plan.blocked.every((n) => installed.includes(n) && deletingInstallations.includes(n))).toBe(true);
          expect(plan.delete.map((i) => i.spec.registrationRef.name).sort()).toEqual(
            installed.filter((n) => !wanted.includes(n)).sort(),
          );
          expect(plan.delete.every((i) => i.spec.seedRef?.name === 'local')).toBe(true);
        },
      ),
    );
  });
});
