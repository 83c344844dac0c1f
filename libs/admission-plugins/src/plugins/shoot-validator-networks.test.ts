import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parse } from 'yaml';
import type { Shoot } from '@gardener-ts/api';
import { example, request } from '../../test/examples.js';
import { staticListers } from '../listers.js';
import { managedIssuerConfigSecret } from './shoot-managed-issuer.js';
import { runChain } from '../chain.js';
import { ShootValidator } from './shoot-validator.js';
import {
  validateNetworksAgainstSeed,
  validateShootNetworkDisjointedness,
  validateShootNetworks,
} from './shoot-validator-networks.js';
import type { KubeObject } from '../attributes.js';

/** The local seed as the gardenlet chart registers it (`seedConfig` of deploy/charts/gardenlet/values.yaml). */
function localSeed(): KubeObject {
  const values = parse(
    readFileSync(fileURLToPath(new URL('../../../../deploy/charts/gardenlet/values.yaml', import.meta.url)), 'utf8'),
  );
  return { apiVersion: 'core.gardener.cloud/v1beta1', kind: 'Seed', ...values.config.seedConfig } as KubeObject;
}

const seedWith = (networks: Record<string, unknown>): KubeObject => ({
  apiVersion: 'core.gardener.cloud/v1beta1',
  kind: 'Seed',
  metadata: { name: 'local' },
  spec: { provider: { type: 'local' }, networks },
});
const shootWith = (networking: Record<string, unknown>, spec: Record<string, unknown> = {}) =>
  ({ spec: { ...spec, networking, provider: { workers: [{ name: 'w' }] } } }) as unknown as Shoot;

const ha = { controlPlane: { highAvailability: { failureTolerance: { type: 'node' } } } };

describe('validateNetworksAgainstSeed', () => {
  const seed = seedWith({ nodes: '10.240.0.0/16', pods: '10.241.128.0/17', services: '10.241.0.0/17' });
  const overlapping = { nodes: '10.241.0.0/16', pods: '10.240.0.0/16', services: '10.241.0.0/24' };

  it('accepts IPv4 networks that overlap the seed when the VPN maps them (no HA VPN), as Gardener does', () => {
    expect(validateNetworksAgainstSeed(shootWith(overlapping), seed)).toEqual([]);
  });

  it("names each overlapping network of a Shoot with HA VPN with Gardener's field path and message", () => {
    const errors = validateNetworksAgainstSeed(shootWith(overlapping, ha), seed);
    expect(errors.map((e) => e.message)).toEqual([
      'spec.networking.nodes: Invalid value: "10.241.0.0/16": shoot node network intersects with seed service network',
      'spec.networking.nodes: Invalid value: "10.241.0.0/16": shoot node network intersects with seed pod network',
      'spec.networking.services: Invalid value: "10.241.0.0/24": shoot service network intersects with seed service network',
      'spec.networking.pods: Invalid value: "10.240.0.0/16": shoot pod network intersects with seed node network',
    ]);
    expect(
      validateNetworksAgainstSeed(
        shootWith({ nodes: '10.243.0.0/16', pods: '10.242.128.0/17', services: '10.242.0.0/17' }, ha),
        seed,
      ),
    ).toEqual([]);
  });

  it('refuses IPv6 overlaps with the seed always', () => {
    const v6 = seedWith({ pods: 'fd00:10:1::/56', services: 'fd00:10:2::/112' });
    expect(
      validateNetworksAgainstSeed(shootWith({ ipFamilies: ['IPv6'], pods: 'fd00:10:1::/64' }), v6).map(
        (e) => e.message,
      ),
    ).toEqual([
      'spec.networking.pods: Invalid value: "fd00:10:1::/64": shoot pod network intersects with seed pod network',
    ]);
  });

  it("refuses the VPN's reserved ranges, also in status.networking and from the seed's shootDefaults", () => {
    const defaults = seedWith({
      pods: '10.1.0.0/16',
      services: '10.2.0.0/16',
      shootDefaults: { pods: '244.0.0.0/16' },
    });
    const shoot = shootWith({ nodes: '240.1.0.0/16' });
    (shoot as { status?: unknown }).status = { networking: { services: ['243.0.0.0/24'] } };
    expect(validateNetworksAgainstSeed(shoot, defaults).map((e) => e.message)).toEqual([
      'spec.networking.nodes: Invalid value: "240.1.0.0/16": shoot node network intersects with reserved kube-apiserver mapping range (240.0.0.0/8)',
      'spec.networking.pods: Invalid value: "244.0.0.0/16": shoot pod network intersects with reserved shoot pod network mapping range (244.0.0.0/8)',
      'status.networking.services: Invalid value: "243.0.0.0/24": shoot service network intersects with reserved shoot service network mapping range (243.0.0.0/8)',
    ]);
  });

  it('refuses exactly the shoot networks of an HA VPN Shoot that share an address with a seed network', () => {
    const block = fc.integer({ min: 0, max: 255 }).map((i) => `10.${i}.0.0/16`);
    fc.assert(
      fc.property(block, block, (shootNodes, seedNodes) => {
        const errors = validateNetworksAgainstSeed(
          shootWith({ nodes: shootNodes }, ha),
          seedWith({ nodes: seedNodes }),
        );
        expect(errors.length).toBe(shootNodes === seedNodes ? 1 : 0);
      }),
    );
  });
});

describe('ShootValidator: networks when a Shoot is (re)scheduled', () => {
  const profile = () => example('local/cloudprofile.yaml');
  const project = () => example('local/project.yaml');
  const admit = (object: KubeObject, old: KubeObject | undefined, seeds: KubeObject[]) =>
    runChain(
      [ShootValidator],
      request(old ? 'UPDATE' : 'CREATE', object, old),
      staticListers(
        [project(), profile(), managedIssuerConfigSecret('discovery.local.gardener.cloud'), ...seeds],
        async () => true,
      ),
    );
  const scheduled = (networking?: Record<string, unknown>) => {
    const s = example('local/shoot.yaml');
    s.spec.seedName = 'local';
    if (networking) s.spec.networking = { ...s.spec.networking, ...networking };
    return s;
  };

  it("accepts Gardener's provider-local example Shoot on the local seed (with the seed's shoot defaults)", async () => {
    const seed = localSeed();
    const defaults = seed.spec.networks.shootDefaults;
    expect((await admit(scheduled(), undefined, [seed])).allowed).toBe(true);
    expect(
      (await admit(scheduled({ pods: defaults.pods, services: defaults.services }), undefined, [seed])).allowed,
    ).toBe(true);
  });

  it("refuses a Shoot with HA VPN whose pods overlap the seed's pods when it is scheduled", async () => {
    const seed = localSeed();
    const shoot = scheduled({ pods: seed.spec.networks.pods });
    shoot.spec.controlPlane = { highAvailability: { failureTolerance: { type: 'node' } } };
    // Without HA VPN the same overlap is mapped by the VPN and accepted.
    expect((await admit(scheduled({ pods: seed.spec.networks.pods }), undefined, [seed])).allowed).toBe(true);
    const result = await admit(shoot, undefined, [seed]);
    expect(result).toMatchObject({
      allowed: false,
      code: 403,
      message: `shoots.core.gardener.cloud "local" is forbidden: spec.networking.pods: Invalid value: "${seed.spec.networks.pods}": shoot pod network intersects with seed pod network`,
    });
  });

  it('checks the destination seed on a move, and does not check again while the seed stays', async () => {
    const seed = localSeed();
    const other = seedWith({ nodes: '10.0.0.0/16', pods: '10.1.0.0/16', services: '10.2.0.0/16' });
    other.spec.provider.zones = ['a', 'b', 'c'];
    other.metadata!.name = 'other';
    other.spec.backup = { provider: 'local' };
    seed.spec.backup ??= { provider: 'local' };
    // The stored Shoot is the one admission defaulted (version, machine image).
    const haShoot = scheduled();
    haShoot.spec.controlPlane = { highAvailability: { failureTolerance: { type: 'node' } } };
    const created = await admit(haShoot, undefined, [seed]);
    if (!created.allowed) throw new Error(created.message);
    const current = created.object ?? haShoot;
    const moved = { ...current, spec: { ...current.spec, seedName: 'other' } };
    const result = await admit(moved, current, [seed, other]);
    expect(result).toMatchObject({ allowed: false, code: 403 });
    expect(result.allowed || result.message).toContain(
      'spec.networking.nodes: Invalid value: "10.0.0.0/16": shoot node network intersects with seed node network',
    );
    // An update that keeps the seed is not checked against it (the seed's networks may only overlap old Shoots).
    const overlapping = scheduled({ pods: seed.spec.networks.pods });
    overlapping.spec.controlPlane = haShoot.spec.controlPlane;
    const labelled = { ...overlapping, metadata: { ...overlapping.metadata, labels: { x: 'y' } } };
    expect((await admit(labelled, overlapping, [seed])).allowed).toBe(true);
  });
});

describe("validateShootNetworkDisjointedness (the Shoot's own networks)", () => {
  const messages = (errors: { message: string }[]) => errors.map((e) => e.message);

  it("accepts Gardener's disjoint example networks", () => {
    expect(validateShootNetworkDisjointedness('10.241.0.0/16', '10.242.128.0/17', '10.242.0.0/17', false)).toEqual([]);
  });

  it("names each overlap with Gardener's message and field path", () => {
    expect(messages(validateShootNetworkDisjointedness('10.0.0.0/8', '10.1.0.0/16', '10.1.0.0/20', false))).toEqual([
      'spec.networking.services: Invalid value: "10.1.0.0/20": shoot pod network intersects with shoot service network',
      'spec.networking.pods: Invalid value: "10.1.0.0/16": shoot pod network intersects with shoot node network',
      'spec.networking.services: Invalid value: "10.1.0.0/20": shoot service network intersects with shoot node network',
    ]);
  });

  it('requires the pod network of a Shoot with workers and the service network of every Shoot', () => {
    expect(messages(validateShootNetworkDisjointedness(undefined, undefined, undefined, false))).toEqual([
      'spec.networking.pods: Required value: shoot pod network is required',
      'spec.networking.services: Required value: shoot service network is required',
    ]);
    expect(messages(validateShootNetworkDisjointedness(undefined, undefined, undefined, true))).toEqual([
      'spec.networking.services: Required value: shoot service network is required',
    ]);
    expect(messages(validateShootNetworkDisjointedness('10.0.0.0/16', undefined, '10.0.0.0/24', false))).toEqual([
      'spec.networking.services: Invalid value: "10.0.0.0/24": shoot service network intersects with shoot node network',
      'spec.networking.pods: Required value: shoot pod network is required',
    ]);
  });

  it('refuses pods and services exactly when they share an address', () => {
    const block = fc.integer({ min: 0, max: 255 }).map((i) => `10.${i}.0.0/16`);
    fc.assert(
      fc.property(block, block, (pods, services) => {
        expect(validateShootNetworkDisjointedness(undefined, pods, services, false).length).toBe(
          pods === services ? 1 : 0,
        );
      }),
    );
  });
});

describe('validateShootNetworks', () => {
  const seed = seedWith({ nodes: '10.240.0.0/16', pods: '10.241.128.0/17', services: '10.241.0.0/17' });
  const messages = (errors: { message: string }[]) => errors.map((e) => e.message);

  it('checks nothing before the Shoot has a seed', () => {
    expect(validateShootNetworks(shootWith({}), undefined, false)).toEqual([]);
  });

  it("requires pods and services of an IPv4 Shoot on a Seed without shootDefaults, with Gardener's messages", () => {
    expect(messages(validateShootNetworks(shootWith({ nodes: '10.0.0.0/16' }), seed, false))).toEqual([
      'spec.networking.pods: Required value: pods is required',
      'spec.networking.services: Required value: services is required',
      'spec.networking.pods: Required value: shoot pod network is required',
      'spec.networking.services: Required value: shoot service network is required',
    ]);
  });

  it("takes missing networks from the Seed's shootDefaults of the Shoot's IP family", () => {
    const defaults = seedWith({
      pods: '10.1.0.0/16',
      shootDefaults: { pods: '100.96.0.0/11', services: '100.64.0.0/13' },
    });
    expect(validateShootNetworks(shootWith({ nodes: '10.0.0.0/16' }), defaults, false)).toEqual([]);
    // Defaults that overlap the Shoot's nodes are refused like the Shoot's own networks.
    expect(messages(validateShootNetworks(shootWith({ nodes: '100.64.0.0/10' }), defaults, false))).toEqual([
      'spec.networking.pods: Invalid value: "100.96.0.0/11": shoot pod network intersects with shoot node network',
      'spec.networking.services: Invalid value: "100.64.0.0/13": shoot service network intersects with shoot node network',
    ]);
    // IPv6 defaults do not fit a (default) IPv4 Shoot: its networks stay missing.
    const v6 = seedWith({ shootDefaults: { pods: 'fd00:10:1::/56', services: 'fd00:10:2::/112' } });
    expect(messages(validateShootNetworks(shootWith({}), v6, false))).toEqual([
      'spec.networking.pods: Required value: shoot pod network is required',
      'spec.networking.services: Required value: shoot service network is required',
    ]);
  });

  it('leaves the networks of an IPv6-only Shoot to its own rules, and a workerless Shoot without pods', () => {
    expect(validateShootNetworks(shootWith({ ipFamilies: ['IPv6'] }), seed, false)).toEqual([]);
    const workerless = { spec: { networking: { services: '10.2.0.0/16' }, provider: {} } } as unknown as Shoot;
    expect(validateShootNetworks(workerless, seed, false)).toEqual([]);
  });

  it("checks the seed's networks only when the seed changes", () => {
    const shoot = shootWith({ nodes: '10.240.0.0/16', pods: '10.100.0.0/16', services: '10.101.0.0/16' }, ha);
    expect(validateShootNetworks(shoot, seed, false)).toEqual([]);
    expect(messages(validateShootNetworks(shoot, seed, true))).toEqual([
      'spec.networking.nodes: Invalid value: "10.240.0.0/16": shoot node network intersects with seed node network',
    ]);
  });
});

describe('ShootValidator: the networks of a Shoot with a seed', () => {
  const admit = (object: KubeObject, seed: KubeObject) =>
    runChain(
      [ShootValidator],
      request('CREATE', object),
      staticListers(
        [
          example('local/project.yaml'),
          example('local/cloudprofile.yaml'),
          managedIssuerConfigSecret('discovery.local.gardener.cloud'),
          seed,
        ],
        async () => true,
      ),
    );
  const scheduled = (networking: Record<string, unknown> = {}) => {
    const s = example('local/shoot.yaml');
    s.spec.seedName = 'local';
    s.spec.networking = { ...s.spec.networking, ...networking };
    return s;
  };
  const exampleSeed = () => {
    const s = example('50-seed.yaml');
    s.metadata!.name = 'local';
    return s;
  };

  it("refuses Gardener's example Shoot without pods and services on Gardener's example Seed (no shootDefaults)", async () => {
    const result = await admit(scheduled(), exampleSeed());
    expect(result).toMatchObject({ allowed: false, code: 403 });
    expect(!result.allowed && result.message).toContain('spec.networking.pods: Required value: pods is required');
    expect(!result.allowed && result.message).toContain(
      'spec.networking.services: Required value: services is required',
    );
    expect((await admit(scheduled({ pods: '100.96.0.0/11', services: '100.64.0.0/13' }), exampleSeed())).allowed).toBe(
      true,
    );
  });

  it('refuses a Shoot whose pod and service networks overlap', async () => {
    const result = await admit(scheduled({ pods: '100.96.0.0/11', services: '100.96.0.0/13' }), exampleSeed());
    expect(result).toMatchObject({
      allowed: false,
      code: 403,
      message:
        'shoots.core.gardener.cloud "local" is forbidden: spec.networking.services: Invalid value: "100.96.0.0/13": shoot pod network intersects with shoot service network',
    });
  });
});
