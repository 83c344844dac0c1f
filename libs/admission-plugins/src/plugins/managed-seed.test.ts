// Tests of the ManagedSeed admission plugin over Gardener's example ManagedSeed (example/55-managedseed-gardenlet.yaml)
// registering the local example Shoot: the defaulted object, the DNS provider lookups and the refusals (422 Invalid).
import { describe, expect, it } from 'vitest';
import { example, request } from '../../test/examples.js';
import { staticListers } from '../listers.js';
import { runChain } from '../chain.js';
import type { KubeObject } from '../attributes.js';
import { ManagedSeedValidator } from './managed-seed.js';

/** Gardener's example ManagedSeed with a seed template that leaves everything to the Shoot but its backup. */
const managedSeed = (name = 'my-managed-seed'): KubeObject => ({
  apiVersion: 'seedmanagement.gardener.cloud/v1alpha1',
  kind: 'ManagedSeed',
  metadata: { name, namespace: 'garden' },
  spec: {
    shoot: { name: 'crazy-botany' },
    gardenlet: {
      bootstrap: 'ServiceAccount',
      mergeWithParent: true,
      config: {
        apiVersion: 'gardenlet.config.gardener.cloud/v1alpha1',
        kind: 'GardenletConfiguration',
        seedConfig: {
          metadata: { name },
          spec: {
            backup: {
              region: 'local',
              credentialsRef: { apiVersion: 'v1', kind: 'Secret', name: 'backup-local', namespace: 'garden' },
            },
          },
        },
      },
    },
  },
});

/** The local example Shoot as a seed needs it, in `garden`, scheduled to seed `local`. */
const seedShoot = (): KubeObject => {
  const shoot = example('local/shoot.yaml');
  shoot.metadata = { ...shoot.metadata, name: 'crazy-botany', namespace: 'garden' };
  shoot.spec.dns = { domain: 'crazy-botany.garden.local.gardener.cloud' };
  shoot.spec.kubernetes.verticalPodAutoscaler = { enabled: true };
  shoot.spec.networking = { ...shoot.spec.networking, pods: '10.3.0.0/16', services: '10.4.0.0/16' };
  shoot.spec.provider.workers[0].zones = ['0', '1'];
  shoot.spec.seedName = 'local';
  return shoot;
};

/** Gardener's example default domain Secret (example/10-secret-default-domain.yaml) for the local setup. */
const defaultDomain: KubeObject = {
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: {
    name: 'default-domain-local',
    namespace: 'garden',
    labels: { 'gardener.cloud/role': 'default-domain' },
    annotations: { 'dns.gardener.cloud/provider': 'local', 'dns.gardener.cloud/domain': 'local.gardener.cloud' },
  },
};

const admit = (object: KubeObject, objects: KubeObject[], old?: KubeObject) =>
  runChain([ManagedSeedValidator], request(old ? 'UPDATE' : 'CREATE', object, old), staticListers(objects));
const seedSpec = (o: KubeObject | undefined) => o?.spec.gardenlet.config.seedConfig.spec;
const invalidPrefix = 'ManagedSeed.seedmanagement.gardener.cloud "my-managed-seed" is invalid: ';

describe('ManagedSeed', () => {
  it("defaults Gardener's example from the Shoot and maintains the seed name labels", async () => {
    const result = await admit(managedSeed(), [seedShoot(), defaultDomain]);
    expect(result.allowed).toBe(true);
    const admitted = result.allowed ? result.object : undefined;
    expect(admitted?.metadata?.labels).toEqual({
      'name.seed.gardener.cloud/local': 'true',
      'name.seed.gardener.cloud/my-managed-seed': 'true',
    });
    expect(seedSpec(admitted)).toEqual({
      backup: {
        provider: 'local',
        region: 'local',
        credentialsRef: { apiVersion: 'v1', kind: 'Secret', name: 'backup-local', namespace: 'garden' },
      },
      dns: { provider: { type: 'local', secretRef: { name: 'default-domain-local', namespace: 'garden' } } },
      ingress: { controller: { kind: 'nginx' }, domain: 'ingress.crazy-botany.garden.local.gardener.cloud' },
      networks: { nodes: '10.0.0.0/16', pods: '10.3.0.0/16', services: '10.4.0.0/16' },
      provider: { type: 'local', region: 'local', zones: ['0', '1'] },
      settings: { verticalPodAutoscaler: { enabled: false } },
    });
    const again = await admit(admitted!, [seedShoot(), defaultDomain], admitted);
    expect(again).toEqual({ allowed: true, warnings: [] });
  });

  it("takes the DNS provider from the Shoot's primary provider and its credentials", async () => {
    const shoot = seedShoot();
    shoot.spec.dns.domain = 'crazy-botany.example.com';
    shoot.spec.dns.providers = [{ type: 'aws-route53' }, { type: 'aws-route53', primary: true }];
    const binding: KubeObject = {
      apiVersion: 'security.gardener.cloud/v1alpha1',
      kind: 'CredentialsBinding',
      metadata: { name: 'local', namespace: 'garden' },
      credentialsRef: { apiVersion: 'v1', kind: 'Secret', name: 'route53', namespace: 'garden' },
    };
    const result = await admit(managedSeed(), [shoot, binding]);
    expect(result.allowed && seedSpec(result.object).dns).toEqual({
      provider: { type: 'aws-route53', secretRef: { name: 'route53', namespace: 'garden' } },
    });
    shoot.spec.dns.providers[1].secretName = 'dns-secret';
    const own = await admit(managedSeed(), [shoot]);
    expect(own.allowed && seedSpec(own.object).dns.provider.secretRef).toEqual({
      name: 'dns-secret',
      namespace: 'garden',
    });
  });

  it('refuses a Shoot whose DNS provider cannot be determined, at the ingress path', async () => {
    const shoot = seedShoot();
    shoot.spec.dns.domain = 'crazy-botany.example.com';
    expect(await admit(managedSeed(), [shoot, defaultDomain])).toMatchObject({
      allowed: false,
      code: 422,
      message: `${invalidPrefix}spec.gardenlet.config.seedConfig.spec.ingress: Invalid value: {"controller":{"kind":"nginx"}}: domain of shoot garden/crazy-botany is neither a custom domain nor a default domain`,
    });
    shoot.spec.dns.providers = [{ type: 'aws-route53', primary: true }];
    const missing = await admit(managedSeed(), [shoot]);
    expect(!missing.allowed && missing.message).toContain('credentials binding garden/local not found');
    const broken = { ...defaultDomain, metadata: { ...defaultDomain.metadata, annotations: {} } };
    expect(await admit(managedSeed(), [seedShoot(), broken])).toMatchObject({
      allowed: false,
      code: 500,
      message:
        'Internal error occurred: could not get domain info from domain secret annotations: missing dns domain annotation on domain secret',
    });
  });

  it('refuses ManagedSeeds outside garden, without a Shoot, or with a Shoot that cannot host a seed', async () => {
    const elsewhere = managedSeed();
    elsewhere.metadata!.namespace = 'garden-local';
    expect((await admit(elsewhere, [seedShoot()])) as { message: string }).toMatchObject({
      message: `${invalidPrefix}metadata.namespace: Invalid value: "garden-local": namespace must be garden`,
    });
    const noShoot = managedSeed();
    delete noShoot.spec.shoot;
    expect(await admit(noShoot, [])).toMatchObject({
      code: 422,
      message: `${invalidPrefix}spec.shoot: Required value: shoot is required`,
    });
    expect(await admit(managedSeed(), [])).toMatchObject({
      message: `${invalidPrefix}spec.shoot.name: Invalid value: "crazy-botany": shoot garden/crazy-botany not found`,
    });
    const workerless = seedShoot();
    workerless.spec.provider.workers = [];
    expect(await admit(managedSeed(), [workerless, defaultDomain])).toMatchObject({
      message: `${invalidPrefix}spec.shoot.name: Invalid value: "crazy-botany": workerless shoot cannot be used to create managed seed`,
    });
  });

  it('registers a Shoot once', async () => {
    const first = managedSeed('first');
    expect(await admit(managedSeed(), [seedShoot(), defaultDomain, first])).toMatchObject({
      allowed: false,
      message: `${invalidPrefix}spec.shoot.name: Invalid value: "crazy-botany": shoot garden/crazy-botany already registered as seed by managed seed garden/first`,
    });
  });

  it('collects the contradictions with the Shoot and the zone checks in one 422', async () => {
    const wrong = managedSeed();
    Object.assign(seedSpec(wrong), { provider: { type: 'aws', zones: ['0', '2'] } });
    expect(await admit(wrong, [seedShoot(), defaultDomain])).toMatchObject({
      code: 422,
      message:
        `${invalidPrefix}[spec.gardenlet.config.seedConfig.spec.provider.type: Invalid value: "aws": seed provider type must be equal to shoot provider type local, ` +
        'spec.gardenlet.config.seedConfig.spec.provider.zones: Invalid value: ["0","2"]: cannot use zone in seed provider that is not available in referenced shoot]',
    });
  });

  it('refuses removing zones on UPDATE while Shoots are on the seed', async () => {
    const created = await admit(managedSeed(), [seedShoot(), defaultDomain]);
    const stored = created.allowed ? created.object! : managedSeed();
    const fewer = structuredClone(stored);
    seedSpec(fewer).provider.zones = ['0'];
    const user = {
      ...example('local/shoot.yaml'),
      spec: { ...example('local/shoot.yaml').spec, seedName: 'my-managed-seed' },
    };
    expect((await admit(fewer, [seedShoot(), defaultDomain], stored)).allowed).toBe(true);
    expect(await admit(fewer, [seedShoot(), defaultDomain, user], stored)).toMatchObject({
      allowed: false,
      message: `${invalidPrefix}spec.gardenlet.config.seedConfig.spec.provider.zones: Forbidden: zones must not be removed while shoots are still scheduled onto seed`,
    });
  });
});
