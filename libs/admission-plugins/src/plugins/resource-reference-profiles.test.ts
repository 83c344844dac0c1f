import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { example, request } from '../../test/examples.js';
import { staticListers } from '../listers.js';
import { runChain } from '../chain.js';
import type { KubeObject } from '../attributes.js';
import { newResourceReferenceManager, ResourceReferenceManager } from './resource-reference-manager.js';
import {
  cloudProfileUpdateErrors,
  hasDecreasedNodeLimits,
  namespacedCloudProfileUpdateErrors,
  shootWorkerLimitErrors,
} from './resource-reference-profiles.js';

const now = new Date('2026-06-01T00:00:00Z');
const past = '2026-01-01T00:00:00Z';
const future = '2027-01-01T00:00:00Z';

/** Gardener's local CloudProfile. */
const profile = (change: (p: KubeObject) => void = () => undefined) => {
  const p = example('local/cloudprofile.yaml');
  change(p);
  return p;
};

/** A NamespacedCloudProfile of garden-local with the local CloudProfile as parent. */
const namespacedProfile = (spec: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'core.gardener.cloud/v1beta1',
  kind: 'NamespacedCloudProfile',
  metadata: { name: 'custom', namespace: 'garden-local' },
  spec: { parent: { kind: 'CloudProfile', name: 'local' }, ...spec },
});

/** Gardener's local Shoot (1 to 2 nodes), optionally on the NamespacedCloudProfile. */
const shoot = (change: (s: KubeObject) => void = () => undefined) => {
  const s = example('local/shoot.yaml');
  s.spec.kubernetes.version = '1.34.3';
  s.spec.provider.workers[0].machine.image = { name: 'local', version: '1.0.0' };
  change(s);
  return s;
};
const onNamespacedProfile = (s: KubeObject) =>
  (s.spec.cloudProfile = { kind: 'NamespacedCloudProfile', name: 'custom' });

describe('limits', () => {
  it('finds a decrease only when limits are set and lower (or newly set)', () => {
    expect(hasDecreasedNodeLimits({ maxNodesTotal: 5 }, { maxNodesTotal: 10 })).toBe(true);
    expect(hasDecreasedNodeLimits({ maxNodesTotal: 5 }, undefined)).toBe(true);
    expect(hasDecreasedNodeLimits({ maxNodesTotal: 10 }, { maxNodesTotal: 5 })).toBe(false);
    expect(hasDecreasedNodeLimits(undefined, { maxNodesTotal: 5 })).toBe(false);
    expect(hasDecreasedNodeLimits({ maxNodesTotal: 5 }, { maxNodesTotal: 5 })).toBe(false);
  });

  it("names pools above the limit and a total minimum above it, in Gardener's words", () => {
    const s = shoot((s) => {
      s.spec.provider.workers[0].minimum = 2;
      s.spec.provider.workers[0].maximum = 4;
      s.spec.provider.workers.push({ name: 'second', machine: { type: 'local' }, minimum: 2, maximum: 2 });
    });
    expect(shootWorkerLimitErrors(s, { maxNodesTotal: 3 })).toEqual([
      'the maximum node count of worker pool "local" in shoot "garden-local/local" exceeds the limit of 3 total nodes configured in the cloud profile',
      'the total minimum node count of all worker pools of shoot "garden-local/local" must not exceed the limit of 3 configured in the cloud profile',
    ]);
    expect(shootWorkerLimitErrors(s, { maxNodesTotal: 4 })).toEqual([]);
    expect(shootWorkerLimitErrors(s, {})).toEqual([]);
  });

  it('refuses exactly the limits below a pool maximum or the sum of minimums', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10 }),
        fc.integer({ min: 0, max: 10 }),
        fc.integer({ min: 0, max: 20 }),
        (min, extra, max) => {
          const s = shoot((s) => Object.assign(s.spec.provider.workers[0], { minimum: min, maximum: min + extra }));
          expect(shootWorkerLimitErrors(s, { maxNodesTotal: max }).length).toBe(
            (min + extra > max ? 1 : 0) + (min > max ? 1 : 0),
          );
        },
      ),
    );
  });
});

describe('cloudProfileUpdateErrors', () => {
  it('refuses adding a machine image a NamespacedCloudProfile with this parent defines', () => {
    const updated = profile((p) => p.spec.machineImages.push({ name: 'custom-os', versions: [{ version: '1.0.0' }] }));
    const child = namespacedProfile({ machineImages: [{ name: 'custom-os', versions: [{ version: '1.0.0' }] }] });
    const other = {
      ...namespacedProfile({ machineImages: [{ name: 'custom-os' }] }),
      spec: { parent: { kind: 'CloudProfile', name: 'other' }, machineImages: [{ name: 'custom-os' }] },
    };
    expect(cloudProfileUpdateErrors(updated, profile(), [], [child, other])).toEqual([
      'unable to add MachineImage "custom-os" to CloudProfile "local" - MachineImage is already defined by NamespacedCloudProfile "garden-local/custom"',
    ]);
    expect(cloudProfileUpdateErrors(updated, profile(), [], [other])).toEqual([]);
  });

  it('refuses a decreased limit below Shoots using the profile directly or through a child', () => {
    const limited = profile((p) => (p.spec.limits = { maxNodesTotal: 1 }));
    const direct = shoot();
    const throughChild = shoot((s) => {
      s.metadata!.name = 'child';
      onNamespacedProfile(s);
    });
    const unrelated = shoot((s) => {
      s.metadata!.name = 'unrelated';
      s.spec.cloudProfile = { kind: 'CloudProfile', name: 'other' };
    });
    expect(
      cloudProfileUpdateErrors(limited, profile(), [direct, throughChild, unrelated], [namespacedProfile()]),
    ).toEqual([
      'the maximum node count of worker pool "local" in shoot "garden-local/local" exceeds the limit of 1 total nodes configured in the cloud profile',
      'the maximum node count of worker pool "local" in shoot "garden-local/child" exceeds the limit of 1 total nodes configured in the cloud profile',
    ]);
    // A raised limit is not checked.
    expect(
      cloudProfileUpdateErrors(
        profile((p) => (p.spec.limits = { maxNodesTotal: 2 })),
        limited,
        [direct],
        [],
      ),
    ).toEqual([]);
  });
});

describe('namespacedCloudProfileUpdateErrors', () => {
  const parent = (kubernetesExpiration?: string, imageExpiration?: string) =>
    profile((p) => {
      p.spec.kubernetes.versions.find((v: { version: string }) => v.version === '1.34.3').expirationDate =
        kubernetesExpiration;
      p.spec.machineImages[0].versions.find((v: { version: string }) => v.version === '1.0.0').expirationDate =
        imageExpiration;
    });
  const old = namespacedProfile({
    kubernetes: { versions: [{ version: '1.34.3', expirationDate: future }] },
    machineImages: [{ name: 'local', versions: [{ version: '1.0.0', expirationDate: future }] }],
  });
  const updated = namespacedProfile({});
  const user = shoot(onNamespacedProfile);

  it('refuses dropping overrides a Shoot needs because the parent expired the versions', () => {
    expect(namespacedCloudProfileUpdateErrors(updated, old, [user], parent(past, past), now)).toEqual([
      `unable to delete Kubernetes version "1.34.3" from NamespacedCloudProfile 'garden-local/custom' - version with extended expiration date is still in use by shoot 'garden-local/local'`,
      `unable to delete Machine image version 'local/1.0.0' from NamespacedCloudProfile 'garden-local/custom' - version is still in use by shoot 'garden-local/local' by worker "local"`,
    ]);
  });

  it('accepts dropping overrides the parent still offers unexpired, and Shoots of other profiles', () => {
    expect(namespacedCloudProfileUpdateErrors(updated, old, [user], parent(future, undefined), now)).toEqual([]);
    expect(namespacedCloudProfileUpdateErrors(updated, old, [shoot()], parent(past, past), now)).toEqual([]);
  });

  it('refuses dropping a machine image version the parent does not have at all', () => {
    const own = namespacedProfile({ machineImages: [{ name: 'local', versions: [{ version: '9.9.9' }] }] });
    const s = shoot((s) => {
      onNamespacedProfile(s);
      s.spec.provider.workers[0].machine.image.version = '9.9.9';
    });
    expect(namespacedCloudProfileUpdateErrors(updated, own, [s], parent(), now)).toEqual([
      `unable to delete Machine image version 'local/9.9.9' from NamespacedCloudProfile 'garden-local/custom' - version is still in use by shoot 'garden-local/local' by worker "local"`,
    ]);
  });
});

describe('ResourceReferenceManager: profiles, projects, controller deployments, backups', () => {
  const validate = (a: ReturnType<typeof request>, objects: KubeObject[], plugin = ResourceReferenceManager) =>
    runChain([plugin], a, staticListers(objects));

  it('refuses a NamespacedCloudProfile update that drops overrides in use, and needs its parent', async () => {
    const plugin = newResourceReferenceManager(() => now);
    const old = namespacedProfile({ kubernetes: { versions: [{ version: '1.34.3', expirationDate: future }] } });
    const updated = namespacedProfile({});
    const parent = profile(
      (p) =>
        (p.spec.kubernetes.versions.find((v: { version: string }) => v.version === '1.34.3').expirationDate = past),
    );
    const result = await validate(request('UPDATE', updated, old), [parent, shoot(onNamespacedProfile)], plugin);
    expect(result).toMatchObject({
      allowed: false,
      code: 403,
      message: `namespacedcloudprofiles.core.gardener.cloud "custom" is forbidden: 1 error occurred:\n\t* unable to delete Kubernetes version "1.34.3" from NamespacedCloudProfile 'garden-local/custom' - version with extended expiration date is still in use by shoot 'garden-local/local'\n\n`,
    });
    expect(await validate(request('UPDATE', updated, old), [], plugin)).toMatchObject({
      allowed: false,
      code: 500,
      message:
        'Internal error occurred: could not get parent CloudProfile: cloudprofile.core.gardener.cloud "local" not found',
    });
  });

  it('refuses a CloudProfile update that lowers limits below a Shoot', async () => {
    const limited = profile((p) => (p.spec.limits = { maxNodesTotal: 1 }));
    const result = await validate(request('UPDATE', limited, profile()), [shoot()]);
    expect(!result.allowed && result.message).toContain(
      'cloudprofiles.core.gardener.cloud "local" is forbidden: 1 error occurred:\n\t* the maximum node count of worker pool "local" in shoot "garden-local/local" exceeds the limit of 1 total nodes configured in the cloud profile',
    );
  });

  it("refuses a Project taking another Project's namespace", async () => {
    const other = { ...example('local/project.yaml'), metadata: { name: 'other' } };
    const result = await validate(request('CREATE', example('local/project.yaml')), [other]);
    expect(result).toMatchObject({
      allowed: false,
      code: 403,
      message:
        'projects.core.gardener.cloud "local" is forbidden: namespace "garden-local" is already used by another project',
    });
    expect(
      (await validate(request('CREATE', example('local/project.yaml')), [example('local/project.yaml')])).allowed,
    ).toBe(true);
  });

  it('refuses a ControllerRegistration whose ControllerDeployment does not exist', async () => {
    const registration = example('local/controllerregistration.yaml');
    expect(await validate(request('CREATE', registration), [])).toMatchObject({
      allowed: false,
      code: 403,
      message:
        'controllerregistrations.core.gardener.cloud "provider-local" is forbidden: 1 error occurred:\n\t* controllerdeployments.core.gardener.cloud "provider-local" not found\n\n',
    });
    const deployment = {
      apiVersion: 'core.gardener.cloud/v1',
      kind: 'ControllerDeployment',
      metadata: { name: 'provider-local' },
    };
    expect((await validate(request('CREATE', registration), [deployment])).allowed).toBe(true);
  });

  it('refuses a BackupEntry whose Seed does not exist', async () => {
    const entry: KubeObject = {
      apiVersion: 'core.gardener.cloud/v1beta1',
      kind: 'BackupEntry',
      metadata: { name: 'shoot--local--local', namespace: 'garden-local' },
      spec: { bucketName: 'bucket', seedName: 'local' },
    };
    const s = example('50-seed.yaml');
    s.metadata!.name = 'local';
    // The test helper's plural table does not know BackupEntries.
    const create = () => {
      const a = request('CREATE', entry);
      return { ...a, resource: { ...a.resource, resource: 'backupentries' } };
    };
    expect(await validate(create(), [])).toMatchObject({
      allowed: false,
      message:
        'backupentries.core.gardener.cloud "shoot--local--local" is forbidden: seed.core.gardener.cloud "local" not found',
    });
    expect((await validate(create(), [s])).allowed).toBe(true);
    // An update that keeps the seed does not look it up again.
    const moved = { ...entry, spec: { ...entry.spec, bucketName: 'other' } };
    const update = { ...request('UPDATE', moved, entry), resource: { ...create().resource } };
    expect((await validate(update, [])).allowed).toBe(true);
  });
});
