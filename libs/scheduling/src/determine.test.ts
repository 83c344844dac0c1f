import { describe, expect, it } from 'vitest';
import type { Seed } from '@gardener-ts/api';
import { cloudProfile, input, seed, shoot, view } from '../test/fixtures.js';
import { determineSeed } from './determine.js';

const at = (name: string, region = 'eu-west-1', change?: (s: Seed) => void) =>
  seed(name, (s) => {
    s.spec.provider.region = region;
    change?.(s);
  });

describe('determineSeed', () => {
  it('binds to the least used of the candidates', () => {
    const result = determineSeed(
      input(shoot('s'), [at('a'), at('b'), at('c')], {
        usage: new Map([
          ['a', 3],
          ['b', 1],
          ['c', 2],
        ]),
      }),
    );
    expect(result.seed?.metadata?.name).toBe('b');
    expect(result.message).toBe("Scheduled to seed 'b'");
    expect(result.reason).toBe('SameRegion');
    expect(result.candidates.map((c) => [c.seed.metadata?.name, c.shoots])).toEqual([
      ['b', 1],
      ['c', 2],
      ['a', 3],
    ]);
  });

  it('breaks ties by name, whatever the order of the seeds', () => {
    expect(determineSeed(input(shoot('s'), [at('z'), at('m'), at('b')])).seed?.metadata?.name).toBe('b');
  });

  it('records why every other seed lost', () => {
    const result = determineSeed(
      input(shoot('s'), [
        at('ok'),
        at('far', 'us-east-1'),
        at('gone', 'eu-west-1', (s) => (s.metadata!.deletionTimestamp = 'x')),
        at('gcp', 'eu-west-1', (s) => (s.spec.provider.type = 'gcp')),
      ]),
    );
    expect(result.seed?.metadata?.name).toBe('ok');
    expect(result.rejected.map((r) => [r.seed, r.stage])).toEqual([
      ['gone', 'Usable'],
      ['gcp', 'Provider'],
      ['far', 'Strategy'],
    ]);
  });

  it('fails with the first step that leaves no seed, naming each seed and its reason', () => {
    const result = determineSeed(
      input(shoot('s'), [
        at('gcp-1', 'eu-west-1', (s) => (s.spec.provider.type = 'gcp')),
        at('down', 'eu-west-1', (s) => (s.status!.conditions = [])),
      ]),
    );
    expect(result.seed).toBeUndefined();
    expect(result.reason).toBe('NoMatchingProvider');
    expect(result.message).toBe(
      'none out of the 1 seeds has a matching provider for "aws": {down => condition GardenletReady is missing; gcp-1 => provider type "gcp" differs from the shoot\'s "aws"}',
    );
  });

  it.each([
    [
      'no seeds at all',
      [],
      'NoUsableSeed',
      'none of the 0 seeds is valid for scheduling (not deleting, visible and ready)',
    ],
    [
      'the cloud profile selector',
      [at('a')],
      'SeedSelectorMismatch',
      "none out of the 1 seeds has the matching labels required by seed selector of 'CloudProfile' (selector: 'tier=gold')",
    ],
  ])('fails on %s', (_name, seeds, reason, message) => {
    const profile = view(cloudProfile('aws', (c) => (c.spec.seedSelector = { matchLabels: { tier: 'gold' } })));
    const result = determineSeed(input(shoot('s'), seeds, { cloudProfile: profile }));
    expect(result.reason).toBe(reason);
    expect(result.message.startsWith(message)).toBe(true);
  });

  it("applies the shoot's seed selector", () => {
    const s = shoot('s', (x) => (x.spec.seedSelector = { matchLabels: { env: 'prod' } }));
    const result = determineSeed(
      input(s, [
        at('dev', 'eu-west-1', (x) => (x.metadata!.labels = { env: 'dev' })),
        at('prod', 'eu-west-1', (x) => (x.metadata!.labels = { env: 'prod' })),
      ]),
    );
    expect(result.seed?.metadata?.name).toBe('prod');
  });

  it('checks networks, taints and capacity per seed', () => {
    const result = determineSeed(
      input(
        shoot('s'),
        [
          at(
            'tainted',
            'eu-west-1',
            (x) => (
              (x.spec.taints = [{ key: 'seed.gardener.cloud/protected' }]),
              (x.spec.networks.shootDefaults = { services: '100.64.0.0/13' })
            ),
          ),
          at(
            'full',
            'eu-west-1',
            (x) => (
              (x.status!.allocatable = { shoots: '1' }),
              (x.spec.networks.shootDefaults = { services: '100.64.0.0/13' })
            ),
          ),
          at('no-defaults', 'eu-west-1'),
        ],
        { usage: new Map([['full', 1]]), shoot: shoot('s', (x) => delete x.spec.networking!.services) },
      ),
    );
    expect(result.reason).toBe('NoEligibleSeed');
    expect(result.message).toMatch(/^0\/3 seed cluster candidate\(s\) are eligible for scheduling: \{/);
    expect(result.message).toContain("tainted => shoot does not tolerate the seed's taints");
    expect(result.message).toContain('full => seed does not have available capacity for shoots');
    expect(result.message).toContain('no-defaults => invalid networks: [Required value: services is required]');
  });

  it('fails when the strategy leaves no candidate', () => {
    const result = determineSeed(input(shoot('s'), [at('far', 'us-east-1')]));
    expect(result.reason).toBe('NoCandidateForStrategy');
    expect(result.message).toBe(
      "no matching seed candidate found for Configuration (Cloud Profile 'aws', Region 'eu-west-1', SeedDeterminationStrategy 'SameRegion'): {far => region \"us-east-1\" differs from the shoot's region \"eu-west-1\"}",
    );
  });

  it('schedules testing shoots to any region of their provider', () => {
    const testing = shoot('t', (x) => (x.spec.purpose = 'testing'));
    const result = determineSeed(
      input(testing, [at('far', 'ap-south-1'), at('busy', 'eu-west-1')], { usage: new Map([['busy', 5]]) }),
    );
    expect(result.seed?.metadata?.name).toBe('far');
    expect(result.strategy).toBe('SameProvider');
  });

  it('ranks by region distance under MinimalDistance, then by usage', () => {
    const result = determineSeed(
      input(shoot('s'), [at('near-busy', 'eu-west-2'), at('near-idle', 'eu-west-3'), at('far', 'us-east-1')], {
        strategy: 'MinimalDistance',
        usage: new Map([['near-busy', 4]]),
      }),
    );
    expect(result.seed?.metadata?.name).toBe('near-idle');
    expect(result.candidates.map((c) => [c.seed.metadata?.name, c.distance])).toEqual([
      ['near-idle', 2],
      ['near-busy', 2],
    ]);
  });

  it('fails on invalid input instead of throwing', () => {
    const s = shoot(
      's',
      (x) => (x.spec.seedSelector = { matchExpressions: [{ key: 'a', operator: 'In', values: [] }] }),
    );
    const result = determineSeed(input(s, [at('a')]));
    expect(result.reason).toBe('InvalidInput');
    expect(result.seed).toBeUndefined();
    expect(result.message).toContain("label selector conversion failed for the seedSelector of 'Shoot'");
  });

  it('requires three zones for a zone-tolerant control plane', () => {
    const s = shoot('s', (x) => (x.spec.controlPlane = { highAvailability: { failureTolerance: { type: 'zone' } } }));
    const result = determineSeed(input(s, [at('single', 'eu-west-1', (x) => (x.spec.provider.zones = ['a']))]));
    expect(result.message).toMatch(
      /^none of the 1 seeds has at least 3 zones for hosting a shoot control plane with failure tolerance type 'zone'/,
    );
  });

  describe('zone selection', () => {
    const zoned = (name: string, zones: string[], mode?: 'Prefer' | 'Enforce') =>
      at(name, 'eu-west-1', (x) => {
        x.spec.provider.zones = zones;
        if (mode) x.spec.settings = { ...x.spec.settings, zoneSelection: { mode } };
      });
    const workersIn = (...zones: string[]) => shoot('s', (x) => (x.spec.provider.workers![0].zones = zones));

    it('Enforce takes a seed having any of the worker zones', () => {
      const result = determineSeed(
        input(workersIn('eu-west-1a', 'eu-west-1z'), [zoned('enforcing', ['eu-west-1a', 'eu-west-1b'], 'Enforce')]),
      );
      expect(result.seed?.metadata?.name).toBe('enforcing');
    });

    it('Enforce rules out a seed having none of the worker zones', () => {
      const result = determineSeed(input(workersIn('eu-west-1z'), [zoned('enforcing', ['eu-west-1a'], 'Enforce')]));
      expect(result.reason).toBe('WorkerZonesUnavailable');
      expect(result.rejected.map((r) => [r.seed, r.stage])).toEqual([['enforcing', 'ZoneSelection']]);
    });

    it('Prefer prefers a seed having a worker zone over a less used seed without one', () => {
      const result = determineSeed(
        input(
          workersIn('eu-west-1c'),
          [zoned('idle', ['eu-west-1a'], 'Prefer'), zoned('busy', ['eu-west-1c'], 'Prefer')],
          {
            usage: new Map([['busy', 7]]),
          },
        ),
      );
      expect(result.seed?.metadata?.name).toBe('busy');
      expect(result.candidates.map((c) => c.seed.metadata?.name)).toEqual(['busy', 'idle']);
    });

    it('Prefer still takes a seed without a worker zone when no seed has one', () => {
      const result = determineSeed(input(workersIn('eu-west-1z'), [zoned('prefer', ['eu-west-1a'], 'Prefer')]));
      expect(result.seed?.metadata?.name).toBe('prefer');
    });
  });

  it('never chooses a seed under an emergency stop of shoot reconciliations', () => {
    const stopped = at(
      'a-stopped',
      'eu-west-1',
      (x) => (x.metadata!.annotations = { 'shoot.gardener.cloud/emergency-stop-reconciliations': 'true' }),
    );
    const result = determineSeed(input(shoot('s'), [stopped, at('b')], { usage: new Map([['b', 9]]) }));
    expect(result.seed?.metadata?.name).toBe('b');
    expect(result.rejected.map((r) => [r.seed, r.stage])).toEqual([['a-stopped', 'Usable']]);
  });

  it('does not schedule a self-hosted shoot', () => {
    const selfHosted = shoot('s', (x) => (x.spec.provider.workers![0].controlPlane = {}));
    const result = determineSeed(input(selfHosted, [at('a')]));
    expect(result.seed).toBeUndefined();
    expect(result.reason).toBe('SelfHostedShoot');
  });

  it("rules out a seed whose default domain the shoot's domain breaks the scheme of", () => {
    const withDefault = (name: string, domain: string) =>
      at(name, 'eu-west-1', (x) => {
        x.spec.dns = {
          defaults: [
            {
              type: 'local',
              domain,
              credentialsRef: { apiVersion: 'v1', kind: 'Secret', name: 'd', namespace: 'garden' },
            },
          ],
        };
      });
    const s = shoot('web', (x) => (x.spec.dns = { domain: 'web.other.a.example' }));
    const result = determineSeed(input(s, [withDefault('a', 'a.example'), withDefault('b', 'b.example')]));
    expect(result.seed?.metadata?.name).toBe('b');
    expect(result.rejected.map((r) => [r.seed, r.stage])).toEqual([['a', 'Candidates']]);
  });
});
