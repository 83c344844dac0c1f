// Tests of the ManagedSeed rules: which Shoots can be registered, the seed spec defaulted from the Shoot (compared
// field by field), each contradiction refused with Gardener's path and message, and the zone checks.
import { describe, expect, it } from 'vitest';
import { example } from '../../test/examples.js';
import type { KubeObject } from '../attributes.js';
import {
  admitSeedSpec,
  createZoneErrors,
  seedSpecOf,
  shootRegistrationError,
  shootZones,
  updateZoneErrors,
  type SeedDNSProviderLookup,
} from './managed-seed-rules.js';

/** Gardener's local example Shoot as a seed needs it: in `garden`, a domain, VPA, pod/service networks, zones. */
const seedShoot = (): KubeObject => {
  const shoot = example('local/shoot.yaml');
  shoot.metadata = { ...shoot.metadata, name: 'crazy-botany', namespace: 'garden' };
  shoot.spec.dns = { domain: 'crazy-botany.garden.local.gardener.cloud' };
  shoot.spec.kubernetes.verticalPodAutoscaler = { enabled: true };
  shoot.spec.networking = { ...shoot.spec.networking, pods: '10.3.0.0/16', services: '10.4.0.0/16' };
  shoot.spec.provider.workers[0].zones = ['1', '0'];
  return shoot;
};
const dns: SeedDNSProviderLookup = {
  provider: { type: 'local', secretRef: { name: 'default-domain-local', namespace: 'garden' } },
};
const messages = (errors: { message: string }[]) => errors.map((e) => e.message);
const p = 'spec.gardenlet.config.seedConfig.spec';

describe('shootRegistrationError', () => {
  it('accepts a Shoot that can host a seed and names the first reason another cannot', () => {
    expect(shootRegistrationError(seedShoot())).toBeUndefined();
    const noDomain = seedShoot();
    delete noDomain.spec.dns;
    expect(shootRegistrationError(noDomain)).toBe('shoot garden/crazy-botany does not specify a domain');
    const nginx = seedShoot();
    nginx.spec.addons = { nginxIngress: { enabled: true } };
    expect(shootRegistrationError(nginx)).toBe(
      'shoot ingress addon is not supported for managed seeds - use the managed seed ingress controller',
    );
    const noVPA = seedShoot();
    noVPA.spec.kubernetes.verticalPodAutoscaler.enabled = false;
    expect(shootRegistrationError(noVPA)).toBe('shoot VPA has to be enabled for managed seeds');
    const workerless = seedShoot();
    workerless.spec.provider.workers = [];
    expect(shootRegistrationError(workerless)).toBe('workerless shoot cannot be used to create managed seed');
  });
});

describe('admitSeedSpec', () => {
  it('defaults an empty seed spec from the Shoot, field by field', () => {
    const { spec, errors } = admitSeedSpec({ backup: { region: 'local' } }, seedShoot(), dns);
    expect(errors).toEqual([]);
    expect(spec.backup).toEqual({ region: 'local', provider: 'local' });
    expect(spec.dns).toEqual({ provider: dns.provider });
    expect(spec.ingress).toEqual({
      controller: { kind: 'nginx' },
      domain: 'ingress.crazy-botany.garden.local.gardener.cloud',
    });
    expect(spec.networks).toEqual({ nodes: '10.0.0.0/16', pods: '10.3.0.0/16', services: '10.4.0.0/16' });
    expect(spec.provider).toEqual({ type: 'local', region: 'local', zones: ['0', '1'] });
    expect(spec.settings).toEqual({ verticalPodAutoscaler: { enabled: false } });
    expect(Object.keys(spec).sort()).toEqual(['backup', 'dns', 'ingress', 'networks', 'provider', 'settings']);
  });

  it('keeps what the seed spec sets in line with the Shoot, and a DNS provider of its own', () => {
    const own = {
      dns: { provider: { type: 'aws-route53', secretRef: { name: 'dns', namespace: 'garden' } } },
      ingress: { domain: 'ingress.crazy-botany.garden.local.gardener.cloud', controller: { kind: 'nginx' } },
      networks: { nodes: '10.0.0.0/16', pods: '10.3.0.0/16', services: '10.4.0.0/16', blockCIDRs: ['169.254.0.0/16'] },
      provider: { type: 'local', region: 'local', zones: ['0'] },
      settings: { verticalPodAutoscaler: { enabled: false }, excessCapacityReservation: { enabled: false } },
    };
    const { spec, errors } = admitSeedSpec(own, seedShoot(), undefined);
    expect(errors).toEqual([]);
    expect(spec).toEqual(own);
  });

  it("refuses a missing DNS provider at the ingress path with the lookup's reason", () => {
    const { spec, errors } = admitSeedSpec({}, seedShoot(), { error: 'secret binding garden/x not found' });
    expect(messages(errors)).toEqual([
      `${p}.ingress: Invalid value: {"controller":{"kind":"nginx"}}: secret binding garden/x not found`,
    ]);
    expect(spec.dns).toEqual({});
  });

  it('refuses every difference from the Shoot with its path', () => {
    const shoot = seedShoot();
    shoot.spec.kubernetes.kubeAPIServer = { featureGates: { TopologyAwareHints: false } };
    shoot.spec.kubernetes.kubeProxy = { featureGates: { TopologyAwareHints: false } };
    const { errors } = admitSeedSpec(
      {
        ingress: { domain: 'ingress.other.example.com' },
        networks: { nodes: '10.10.0.0/16', pods: '10.11.0.0/16', services: '10.12.0.0/16' },
        provider: { type: 'aws', region: 'eu-west-1' },
        settings: { verticalPodAutoscaler: { enabled: true }, topologyAwareRouting: { enabled: true } },
      },
      shoot,
      dns,
    );
    expect(messages(errors)).toEqual([
      `${p}.ingress.domain: Invalid value: "ingress.other.example.com": seed ingress domain must be equal to shoot DNS domain ingress.crazy-botany.garden.local.gardener.cloud`,
      `${p}.networks.nodes: Invalid value: "10.10.0.0/16": seed nodes CIDR must be equal to shoot nodes CIDR 10.0.0.0/16`,
      `${p}.networks.pods: Invalid value: "10.11.0.0/16": seed pods CIDR must be equal to shoot pods CIDR 10.3.0.0/16`,
      `${p}.networks.services: Invalid value: "10.11.0.0/16": seed services CIDR must be equal to shoot services CIDR 10.4.0.0/16`,
      `${p}.provider.type: Invalid value: "aws": seed provider type must be equal to shoot provider type local`,
      `${p}.provider.region: Invalid value: "eu-west-1": seed provider region must be equal to shoot region local`,
      `${p}.settings.verticalPodAutoscaler.enabled: Invalid value: true: seed VPA is not supported for managed seeds - use the shoot VPA`,
      `${p}.settings.topologyAwareRouting.enabled: Invalid value: true: the topology-aware routing seed setting cannot be enabled when the TopologyAwareHints feature gate is disabled for kube-apiserver`,
      `${p}.settings.topologyAwareRouting.enabled: Invalid value: true: the topology-aware routing seed setting cannot be enabled when the TopologyAwareHints feature gate is disabled for kube-proxy`,
    ]);
  });

  it('does not change its input', () => {
    const input = { provider: {} };
    admitSeedSpec(input, seedShoot(), dns);
    expect(input).toEqual({ provider: {} });
  });
});

describe('zones', () => {
  const spec = (zones: string[]) => ({ provider: { zones } });

  it("needs the seed's zones among the Shoot's workers' on CREATE", () => {
    expect(shootZones(seedShoot())).toEqual(['0', '1']);
    expect(createZoneErrors(spec(['0', '1']), seedShoot())).toEqual([]);
    expect(messages(createZoneErrors(spec(['0', '2']), seedShoot()))).toEqual([
      `${p}.provider.zones: Invalid value: ["0","2"]: cannot use zone in seed provider that is not available in referenced shoot`,
    ]);
  });

  it('refuses removing zones while Shoots use the seed, and added zones the Shoot does not have', () => {
    expect(updateZoneErrors(spec(['0', 'a']), spec(['0', 'a', '1']), seedShoot(), true)).toEqual([]);
    expect(updateZoneErrors(spec(['0', '1']), spec(['0']), seedShoot(), false)).toEqual([]);
    expect(messages(updateZoneErrors(spec(['0', '1']), spec(['0', '2']), seedShoot(), true))).toEqual([
      `${p}.provider.zones: Forbidden: zones must not be removed while shoots are still scheduled onto seed`,
      `${p}.provider.zones: Invalid value: ["2"]: added zones must match zone names configured for workers in the referenced shoot cluster`,
    ]);
  });

  it('reads the seed spec from the gardenlet configuration', () => {
    const managedSeed = { spec: { gardenlet: { config: { seedConfig: { spec: spec(['0']) } } } } };
    expect(seedSpecOf(managedSeed)).toEqual(spec(['0']));
    expect(seedSpecOf({ spec: { gardenlet: {} } })).toBeUndefined();
  });
});
