import { describe, expect, it } from 'vitest';
import { example, request } from '../../test/examples.js';
import { staticListers } from '../listers.js';
import { managedIssuerConfigSecret } from './shoot-managed-issuer.js';
import { runChain } from '../chain.js';
import { ShootValidator } from './shoot-validator.js';
import type { AccessAttributes, KubeObject } from '../attributes.js';

const profile = () => example('local/cloudprofile.yaml');
const shoot = () => example('local/shoot.yaml');
const project = () => example('local/project.yaml');

async function admit(object: KubeObject, old?: KubeObject, objects: KubeObject[] = [profile()]) {
  return runChain(
    [ShootValidator],
    request(old ? 'UPDATE' : 'CREATE', object, old),
    // The user may bind Shoots to seeds (`update shoots/binding`), as the scheduler and admins may.
    staticListers(
      [project(), managedIssuerConfigSecret('discovery.local.gardener.cloud'), ...objects],
      async () => true,
    ),
  );
}

/**
 * Gardener's example Seed with the `shootDefaults` its manifest leaves commented out (the local seed has them): a
 * Shoot without pod and service networks needs them once scheduled (`pods is required`).
 */
function exampleSeed(name = 'local'): KubeObject {
  const s = example('50-seed.yaml');
  s.metadata!.name = name;
  s.spec.networks.shootDefaults = { pods: '100.96.0.0/11', services: '100.64.0.0/13' };
  return s;
}

describe('ShootValidator defaulting', () => {
  it("gives Gardener's example Shoot (no kubernetes.version) the CloudProfile's highest supported version", async () => {
    const result = await admit(shoot());
    expect(result.allowed).toBe(true);
    if (!result.allowed) return;
    expect(result.object?.spec.kubernetes.version).toBe('1.36.0');
  });

  it('resolves a major.minor version to its highest patch', async () => {
    const s = shoot();
    s.spec.kubernetes.version = '1.35';
    const result = await admit(s);
    expect(result.allowed && result.object?.spec.kubernetes.version).toBe('1.35.4');
  });

  it('defaults the machine image to the first image with its highest non-preview version', async () => {
    const result = await admit(shoot());
    expect(result.allowed && result.object?.spec.provider.workers[0].machine.image).toEqual({
      name: 'local',
      version: '1.0.0',
    });
  });

  it('leaves a complete, supported version alone', async () => {
    const s = shoot();
    s.spec.kubernetes.version = '1.34.3';
    const result = await admit(s);
    expect(result.allowed && result.object?.spec.kubernetes.version).toBe('1.34.3');
  });

  it('refuses a Shoot whose CloudProfile does not exist', async () => {
    const result = await admit(shoot(), undefined, []);
    expect(result).toMatchObject({
      allowed: false,
      code: 403,
      message:
        'shoots.core.gardener.cloud "local" is forbidden: could not find referenced cloud profile: cloudprofiles.core.gardener.cloud "local" not found',
    });
  });

  it('reads a NamespacedCloudProfile from its computed status', async () => {
    const s = shoot();
    s.spec.cloudProfile = { kind: 'NamespacedCloudProfile', name: 'custom' };
    const namespaced = {
      apiVersion: 'core.gardener.cloud/v1beta1',
      kind: 'NamespacedCloudProfile',
      metadata: { name: 'custom', namespace: 'garden-local' },
      spec: { parent: { kind: 'CloudProfile', name: 'local' } },
      status: { cloudProfileSpec: { ...profile().spec, kubernetes: { versions: [{ version: '1.33.0' }] } } },
    };
    const result = await admit(s, undefined, [namespaced]);
    expect(result.allowed && result.object?.spec.kubernetes.version).toBe('1.33.0');
  });
});

describe('ShootValidator validation against the CloudProfile', () => {
  it('refuses a Kubernetes version the CloudProfile does not offer', async () => {
    const s = shoot();
    s.spec.kubernetes.version = '1.30.1';
    expect(await admit(s)).toMatchObject({
      allowed: false,
      code: 403,
      message:
        'shoots.core.gardener.cloud "local" is forbidden: spec.kubernetes.version: Unsupported value: "1.30.1": supported values: "1.36.0", "1.35.4", "1.34.3", "1.33.0", "1.32.0"',
    });
  });

  it('refuses an expired Kubernetes version for a new Shoot but keeps it for an unchanged existing one', async () => {
    const p = profile();
    p.spec.kubernetes.versions.find((v: { version: string }) => v.version === '1.32.0').expirationDate =
      '2020-01-01T00:00:00Z';
    const s = shoot();
    s.spec.kubernetes.version = '1.32.0';
    const created = await admit(s, undefined, [p]);
    expect(created.allowed).toBe(false);
    expect(!created.allowed && created.message).toContain('spec.kubernetes.version: Unsupported value: "1.32.0"');
    const old = structuredClone(s);
    s.metadata!.labels = { team: 'a' };
    expect((await admit(s, old, [p])).allowed).toBe(true);
  });

  it('refuses an unknown region, machine type, machine image version, volume type and zone with their field paths', async () => {
    const s = shoot();
    s.spec.region = 'mars';
    s.spec.provider.workers[0].machine.type = 'huge';
    s.spec.provider.workers[0].machine.image = { name: 'local', version: '9.9.9' };
    s.spec.provider.workers[0].volume = { type: 'ssd', size: '10Gi' };
    const result = await admit(s);
    expect(result.allowed).toBe(false);
    if (result.allowed) return;
    expect(result.message).toContain('spec.region: Unsupported value: "mars": supported values: "local"');
    expect(result.message).toContain(
      'spec.provider.workers[0].machine.type: Unsupported value: "huge": supported values: "local"',
    );
    expect(result.message).toContain('spec.provider.workers[0].machine.image.version: Unsupported value: "9.9.9"');
    expect(result.message).toContain('spec.provider.workers[0].volume.type: Unsupported value: "ssd"');

    const zoned = shoot();
    zoned.spec.provider.workers[0].zones = ['z1'];
    const zoneResult = await admit(zoned);
    expect(!zoneResult.allowed && zoneResult.message).toContain(
      'spec.provider.workers[0].zones[0]: Unsupported value: "z1"',
    );
  });

  it('accepts a preview machine image version that is asked for explicitly', async () => {
    const s = shoot();
    s.spec.provider.workers[0].machine.image = { name: 'local', version: '2.0.0' };
    expect((await admit(s)).allowed).toBe(true);
  });
});

describe('ShootValidator checks against the garden', () => {
  const seed = (change: (s: KubeObject) => void = () => undefined) => {
    const s = exampleSeed();
    change(s);
    return s;
  };
  const scheduled = () => {
    const s = shoot();
    s.spec.seedName = 'local';
    return s;
  };

  it("refuses a new Shoot whose name and project name exceed 21 characters, with Gardener's message", async () => {
    const s = shoot();
    s.metadata!.name = 'a-very-long-shoot1';
    expect(await admit(s)).toMatchObject({
      allowed: false,
      code: 422,
      message:
        'Shoot.core.gardener.cloud "a-very-long-shoot1" is invalid: name: Invalid value: "a-very-long-shoot1": the length of the shoot name and the project name must not exceed 21 characters (project: local; shoot: a-very-long-shoot1)',
    });
    const generated = shoot();
    delete generated.metadata!.name;
    generated.metadata!.generateName = 'generated-shoot-';
    const result = await runChain(
      [ShootValidator],
      { ...request('CREATE', generated), name: '' },
      staticListers([project(), profile()]),
    );
    expect(!result.allowed && result.message).toContain(
      'the length of the shoot generateName and the project name must not exceed 16 characters (project: local; shoot with generateName: generated-shoot-)',
    );
  });

  it('refuses a new Shoot in a project in deletion, and answers 500 without a project', async () => {
    const p = project();
    p.metadata!.deletionTimestamp = '2026-01-01T00:00:00Z';
    expect(await runChain([ShootValidator], request('CREATE', shoot()), staticListers([p, profile()]))).toMatchObject({
      allowed: false,
      code: 403,
      message:
        "shoots.core.gardener.cloud \"local\" is forbidden: cannot create shoot 'local' in project 'local' that is already marked for deletion",
    });
    expect(await runChain([ShootValidator], request('CREATE', shoot()), staticListers([profile()]))).toMatchObject({
      allowed: false,
      code: 500,
      message:
        'Internal error occurred: could not find referenced project: Project.core.gardener.cloud "<unknown>" not found',
    });
  });

  it('refuses worker pools beyond the CloudProfile limit maxNodesTotal', async () => {
    const p = profile();
    p.spec.limits = { maxNodesTotal: 3 };
    const s = shoot();
    s.spec.provider.workers[0].minimum = 2;
    s.spec.provider.workers[0].maximum = 4;
    s.spec.provider.workers.push({ ...structuredClone(s.spec.provider.workers[0]), name: 'second', maximum: 3 });
    expect(await admit(s, undefined, [p])).toMatchObject({
      allowed: false,
      code: 403,
      message:
        'shoots.core.gardener.cloud "local" is forbidden: [spec.provider.workers[0].maximum: Forbidden: the maximum node count of a worker pool must not exceed the limit of 3 configured in the CloudProfile, ' +
        'spec.provider.workers: Forbidden: the total minimum node count of all worker pools must not exceed the limit of 3 configured in the CloudProfile]',
    });
    expect((await admit(shoot(), undefined, [p])).allowed).toBe(true);
  });

  it('refuses scheduling to a Seed in deletion, with untolerated taints, full, or outside the seed selector', async () => {
    const cases: [KubeObject, KubeObject, string][] = [
      [
        seed((s) => (s.metadata!.deletionTimestamp = '2026-01-01T00:00:00Z')),
        profile(),
        "cannot schedule shoot 'local' on seed 'local' that is already marked for deletion",
      ],
      [
        seed((s) => (s.spec.taints = [{ key: 'seed.gardener.cloud/protected' }])),
        profile(),
        'forbidden to use a seed whose taints are not tolerated by the shoot',
      ],
      [
        seed((s) => (s.status = { allocatable: { shoots: '0' } })),
        profile(),
        "cannot schedule shoot 'local' on seed 'local' that already has the maximum number of shoots scheduled on it (0)",
      ],
      [
        seed(),
        { ...profile(), spec: { ...profile().spec, seedSelector: { matchLabels: { env: 'prod' } } } },
        "cannot schedule shoot 'local' on seed 'local' because the cloud profile seed selector is not matching the labels of the seed",
      ],
      [
        seed(),
        { ...profile(), spec: { ...profile().spec, seedSelector: { providerTypes: ['aws'] } } },
        "cannot schedule shoot 'local' on seed 'local' because none of the provider types in the cloud profile seed selector is matching the provider type of the seed",
      ],
    ];
    for (const [s, p, reason] of cases) {
      expect(await admit(scheduled(), undefined, [s, p])).toMatchObject({
        allowed: false,
        code: 403,
        message: `shoots.core.gardener.cloud "local" is forbidden: ${reason}`,
      });
    }
    const tolerating = scheduled();
    tolerating.spec.tolerations = [{ key: 'seed.gardener.cloud/protected' }];
    const tainted = seed((s) => (s.spec.taints = [{ key: 'seed.gardener.cloud/protected' }]));
    expect((await admit(tolerating, undefined, [tainted, profile()])).allowed).toBe(true);
    // Already scheduled: the scheduling constraints are not checked again.
    expect(
      (await admit(scheduled(), scheduled(), [seed((s) => (s.spec.taints = [{ key: 'x' }])), profile()])).allowed,
    ).toBe(true);
  });

  it('lets only users who may update shoots/binding create a Shoot with a seed', async () => {
    const asked: unknown[] = [];
    const result = await runChain(
      [ShootValidator],
      request('CREATE', scheduled()),
      staticListers(
        [project(), profile(), seed(), managedIssuerConfigSecret('discovery.local.gardener.cloud')],
        async (user, resource) => {
          asked.push({ user: user.username, ...resource });
          return false;
        },
      ),
    );
    expect(result).toMatchObject({
      allowed: false,
      code: 403,
      message:
        'shoots.core.gardener.cloud "local" is forbidden: user "alice@example.com" is not allowed to set .spec.seedName for "shoots"',
    });
    expect(asked).toEqual([
      {
        user: 'alice@example.com',
        verb: 'update',
        group: 'core.gardener.cloud',
        resource: 'shoots',
        subresource: 'binding',
        namespace: 'garden-local',
        name: 'local',
      },
    ]);
  });

  describe('a change of seed (control plane migration: the shoots/binding subresource)', () => {
    // Stored Shoots carry their defaults and the status of their last reconciliation on their seed; the update
    // changes only the seed.
    const stored = () => {
      const s = scheduled();
      s.spec.kubernetes.version = '1.36.0';
      s.spec.provider.workers[0].machine.image = { name: 'local', version: '1.0.0' };
      s.status = { seedName: 'local', lastOperation: { type: 'Reconcile', state: 'Succeeded', progress: 100 } };
      return s;
    };
    const moved = (change: (s: KubeObject) => void = () => undefined) => {
      const s = stored();
      s.spec.seedName = 'local2';
      change(s);
      return s;
    };
    const seed2 = (change: (s: KubeObject) => void = () => undefined) =>
      seed((s) => {
        s.metadata!.name = 'local2';
        change(s);
      });
    const questions: AccessAttributes[] = [];
    const rebind = (object: KubeObject, seeds: KubeObject[], mayBind = true, profileSpec = profile()) =>
      runChain(
        [ShootValidator],
        request('UPDATE', object, stored()),
        staticListers(
          [project(), profileSpec, managedIssuerConfigSecret('discovery.local.gardener.cloud'), ...seeds],
          async (_user, resource) => {
            questions.push(resource);
            return mayBind;
          },
        ),
      );
    const refusal = (message: string) => ({
      allowed: false,
      code: 403,
      message: `shoots.core.gardener.cloud "local" is forbidden: ${message}`,
    });

    it('moves the Shoot to another seed with backup for a user who may update shoots/binding', async () => {
      questions.length = 0;
      expect((await rebind(moved(), [seed(), seed2()])).allowed).toBe(true);
      expect(questions).toEqual([
        {
          verb: 'update',
          group: 'core.gardener.cloud',
          resource: 'shoots',
          subresource: 'binding',
          namespace: 'garden-local',
          name: 'local',
        },
      ]);
    });

    it("refuses it to a user who may not bind, with Gardener's answer to a patch of the seed", async () => {
      expect(await rebind(moved(), [seed(), seed2()], false)).toMatchObject(
        refusal(
          "spec.seedName 'local' cannot be changed to 'local2' by patching the shoot, please use the shoots/binding subresource",
        ),
      );
    });

    it('refuses other changes along with the seed', async () => {
      const hibernating = moved((s) => (s.spec.hibernation = { enabled: true }));
      expect(await rebind(hibernating, [seed(), seed2()])).toMatchObject(
        refusal(
          'only spec.seedName can be changed using the binding subresource when the shoot is being rescheduled to a new seed',
        ),
      );
    });

    it('refuses a destination without backup, and a source without backup', async () => {
      expect(await rebind(moved(), [seed(), seed2((s) => delete s.spec.backup)])).toMatchObject(
        refusal('cannot change seed name because backup is not configured for seed "local2"'),
      );
      expect(await rebind(moved(), [seed((s) => delete s.spec.backup), seed2()])).toMatchObject(
        refusal('cannot change seed name because backup is not configured for old seed "local"'),
      );
    });

    it('refuses a destination in deletion', async () => {
      const deleting = seed2((s) => (s.metadata!.deletionTimestamp = '2026-01-01T00:00:00Z'));
      expect(await rebind(moved(), [seed(), deleting])).toMatchObject(
        refusal("cannot schedule shoot 'local' on seed 'local2' that is already marked for deletion"),
      );
    });

    it("refuses a destination whose provider type the CloudProfile's seed selector does not allow", async () => {
      const restricted = profile();
      restricted.spec.seedSelector = { providerTypes: ['local'] };
      const other = seed2((s) => (s.spec.provider.type = 'aws'));
      expect(await rebind(moved(), [seed(), other], true, restricted)).toMatchObject(
        refusal(
          "cannot schedule shoot 'local' on seed 'local2' because none of the provider types in the cloud profile seed selector is matching the provider type of the seed",
        ),
      );
      // Without a seed selector Gardener lets a control plane move to a seed of another provider type.
      expect((await rebind(moved(), [seed(), other])).allowed).toBe(true);
    });

    it('refuses a destination with untolerated taints or without room', async () => {
      const tainted = seed2((s) => (s.spec.taints = [{ key: 'seed.gardener.cloud/protected' }]));
      expect(await rebind(moved(), [seed(), tainted])).toMatchObject(
        refusal('forbidden to use a seed whose taints are not tolerated by the shoot'),
      );
      const full = seed2((s) => (s.status = { allocatable: { shoots: '0' } }));
      expect(await rebind(moved(), [seed(), full])).toMatchObject(
        refusal(
          "cannot schedule shoot 'local' on seed 'local2' that already has the maximum number of shoots scheduled on it (0)",
        ),
      );
    });

    it('accepts a destination that is not ready yet: the source gardenlet waits for it before migrating', async () => {
      const unready = seed2(
        (s) => (s.status = { conditions: [{ type: 'GardenletReady', status: 'False', reason: 'Unknown' }] }),
      );
      expect((await rebind(moved(), [seed(), unready])).allowed).toBe(true);
    });

    it("never removes the seed, with Gardener's message", async () => {
      const unset = stored();
      delete unset.spec.seedName;
      expect(await rebind(unset, [seed()])).toMatchObject(
        refusal("spec.seedName is already set to 'local' and cannot be changed to 'nil'"),
      );
    });
  });

  it('needs three Seed zones for a control plane tolerating zone failures', async () => {
    const s = scheduled();
    s.spec.controlPlane = { highAvailability: { failureTolerance: { type: 'zone' } } };
    expect(await admit(s, undefined, [seed(), profile()])).toMatchObject({
      allowed: false,
      message:
        "shoots.core.gardener.cloud \"local\" is forbidden: cannot schedule shoot 'local' with failure tolerance of zone on seed 'local' with only 1 zones, at least 3 zones are required",
    });
    const threeZones = seed((x) => (x.spec.provider.zones = ['europe-1a', 'europe-1b', 'europe-1c']));
    expect((await admit(s, undefined, [threeZones, profile()])).allowed).toBe(true);
  });

  it('lets a Shoot on a Seed in deletion change only its deletion confirmation', async () => {
    const deleting = seed((s) => (s.metadata!.deletionTimestamp = '2026-01-01T00:00:00Z'));
    // Stored Shoots carry their defaults.
    const scheduled = () => {
      const s = shoot();
      s.spec.seedName = 'local';
      s.spec.kubernetes.version = '1.36.0';
      s.spec.provider.workers[0].machine.image = { name: 'local', version: '1.0.0' };
      return s;
    };
    const confirmed = scheduled();
    confirmed.metadata!.annotations!['confirmation.gardener.cloud/deletion'] = 'true';
    expect((await admit(confirmed, scheduled(), [deleting, profile()])).allowed).toBe(true);
    const labelled = scheduled();
    labelled.metadata!.annotations!.team = 'a';
    expect(!(await admit(labelled, scheduled(), [deleting, profile()])).allowed).toBe(true);
    const changed = scheduled();
    changed.spec.provider.workers[0].maximum = 3;
    expect(await admit(changed, scheduled(), [deleting, profile()])).toMatchObject({
      allowed: false,
      message:
        "shoots.core.gardener.cloud \"local\" is forbidden: cannot update spec of shoot 'local' on seed 'local' already marked for deletion",
    });
  });
});

describe("ShootValidator checks of the Shoot's lifecycle", () => {
  // A stored Shoot with its defaults, on seed `local`.
  const stored = (status?: KubeObject) => {
    const s = shoot();
    s.spec.seedName = 'local';
    s.spec.kubernetes.version = '1.36.0';
    s.spec.provider.workers[0].machine.image = { name: 'local', version: '1.0.0' };
    if (status) s.status = status;
    return s;
  };
  const seeds = () => {
    return [exampleSeed(), profile()];
  };

  it('refuses spec changes while the Shoot is migrated or restored, and after it was rescheduled', async () => {
    const cases: [KubeObject, string][] = [
      [
        { seedName: 'local', lastOperation: { type: 'Migrate', state: 'Processing' } },
        'cannot change shoot spec during Migrate operation that is in state Processing',
      ],
      [
        { seedName: 'local', lastOperation: { type: 'Restore', state: 'Error' } },
        'cannot change shoot spec during Restore operation that is in state Error',
      ],
      [
        { seedName: 'old-seed', lastOperation: { type: 'Reconcile', state: 'Succeeded' } },
        'shoot spec cannot be changed because shoot has been rescheduled to a new seed',
      ],
    ];
    for (const [status, reason] of cases) {
      const changed = stored(status);
      changed.spec.provider.workers[0].maximum = 3;
      expect(await admit(changed, stored(status), seeds())).toMatchObject({
        allowed: false,
        code: 403,
        message: `shoots.core.gardener.cloud "local" is forbidden: ${reason}`,
      });
      // Metadata changes stay possible (the gardenlet's finalizers, the deletion confirmation).
      const annotated = stored(status);
      annotated.metadata!.annotations!['confirmation.gardener.cloud/deletion'] = 'true';
      expect((await admit(annotated, stored(status), seeds())).allowed).toBe(true);
    }
    const restored = stored({ seedName: 'local', lastOperation: { type: 'Restore', state: 'Succeeded' } });
    restored.spec.provider.workers[0].maximum = 3;
    expect((await admit(restored, stored(), seeds())).allowed).toBe(true);
  });

  it('refuses deleting a Shoot while it is migrated', async () => {
    const migrating = stored({ lastOperation: { type: 'Migrate', state: 'Processing' } });
    expect(await runChain([ShootValidator], request('DELETE', undefined, migrating), staticListers([]))).toMatchObject({
      allowed: false,
      message:
        'shoots.core.gardener.cloud "local" is forbidden: cannot mark shoot for deletion during Migrate operation that is in state Processing',
    });
    expect((await runChain([ShootValidator], request('DELETE', undefined, stored()), staticListers([]))).allowed).toBe(
      true,
    );
  });

  it('refuses hibernation while the HibernationPossible constraint is not True', async () => {
    const status = {
      constraints: [
        { type: 'HibernationPossible', status: 'False', message: 'webhook kube-system/x would block wake-up' },
      ],
    };
    const hibernating = stored(status);
    hibernating.spec.hibernation = { enabled: true };
    expect(await admit(hibernating, stored(status), seeds())).toMatchObject({
      allowed: false,
      message:
        "shoots.core.gardener.cloud \"local\" is forbidden: 'HibernationPossible' constraint is 'False': webhook kube-system/x would block wake-up",
    });
    const possible = { constraints: [{ type: 'HibernationPossible', status: 'True' }] };
    const allowed = stored(possible);
    allowed.spec.hibernation = { enabled: true };
    expect((await admit(allowed, stored(possible), seeds())).allowed).toBe(true);
  });
});
