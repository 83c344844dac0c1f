// Tests of the NamespacedCloudProfileValidator: its pure rules (machine type overlap, expiration dates of Kubernetes
// and machine image version overrides, own machine images, the merged result, custom verbs) and the plugin over
// Gardener's example manifests (the parent defaulted, as the API server stores it).
import { describe, expect, it } from 'vitest';
import {
  defaultCloudProfile,
  defaultNamespacedCloudProfile,
  type CloudProfile,
  type NamespacedCloudProfile,
} from '@gardener-ts/api';
import { example, request } from '../../test/examples.js';
import { staticListers } from '../listers.js';
import { runChain } from '../chain.js';
import type { AccessAttributes, KubeObject } from '../attributes.js';
import { NamespacedCloudProfileValidator } from './namespaced-cloudprofile.js';
import {
  aggregateErrors,
  goTime,
  kubernetesOverrideError,
  machineImageOverrideErrors,
  mergedProfileErrors,
  mergedProfileMessage,
  neededVerbs,
  overwrittenMachineType,
  semanticEqual,
  type ProfileSpec,
} from './namespaced-cloudprofile-rules.js';

const now = new Date('2026-06-01T00:00:00Z');
const future = '2099-01-01T00:00:00Z';
const past = '2025-02-28T23:59:59Z';
/** The local CloudProfile as the API server stores it (defaulted: update strategies, CRIs, architectures). */
const parentProfile = () => defaultCloudProfile(example('local/cloudprofile.yaml') as CloudProfile);
const parent = (): ProfileSpec => parentProfile().spec as unknown as ProfileSpec;

/**
 * Gardener's example/35-namespacedcloudprofile.yaml, its Kubernetes version one the local CloudProfile offers,
 * defaulted as the API server stores it (its machine type gets the architecture amd64, as Gardener's defaulter gives it).
 */
const gardenerExample = (): KubeObject =>
  defaultNamespacedCloudProfile(rawGardenerExample() as NamespacedCloudProfile) as unknown as KubeObject;
const rawGardenerExample = (): KubeObject => ({
  apiVersion: 'core.gardener.cloud/v1beta1',
  kind: 'NamespacedCloudProfile',
  metadata: { name: 'custom-cloudprofile-1', namespace: 'garden-local' },
  spec: {
    parent: { kind: 'CloudProfile', name: 'local' },
    kubernetes: { versions: [{ version: '1.32.0', expirationDate: past }] },
    machineTypes: [{ name: 'local-large', cpu: '4', gpu: '0', memory: '16Gi', usable: true }],
    machineImages: [
      {
        name: 'local',
        versions: [
          { version: '1.0.1-dev', architectures: ['amd64'], cri: [{ name: 'containerd' }] },
          { version: '1.0.0', expirationDate: '2024-12-31T23:59:59Z' },
        ],
      },
      {
        name: 'ubuntu-custom',
        updateStrategy: 'major',
        versions: [{ version: '18.4.201906170', architectures: ['amd64'], cri: [{ name: 'containerd' }] }],
      },
    ],
  },
});

describe('overwrittenMachineType', () => {
  it('refuses a machine type of the parent unless the profile had it before', () => {
    const spec = gardenerExample().spec;
    expect(overwrittenMachineType(spec, parent())).toBeUndefined();
    const own = { name: 'local', cpu: '2', gpu: '0', memory: '4Gi' };
    spec.machineTypes.push(own);
    expect(overwrittenMachineType(spec, parent())).toEqual(own);
    expect(overwrittenMachineType(spec, parent(), { machineTypes: [] })).toEqual(own);
    expect(overwrittenMachineType(spec, parent(), { machineTypes: [{ name: 'local' }] })).toBeUndefined();
  });
});

describe('kubernetesOverrideError', () => {
  const spec = (versions: { version: string; expirationDate?: string }[]): ProfileSpec => ({
    kubernetes: { versions },
  });
  const oldWith = (expirationDate?: string) => ({
    status: { cloudProfileSpec: { kubernetes: { versions: [{ version: '1.32.0', expirationDate }] } } },
  });

  it('accepts expiration dates of parent versions, past ones on CREATE', () => {
    expect(kubernetesOverrideError(spec([{ version: '1.32.0', expirationDate: past }]), parent(), undefined, now)).toBe(
      undefined,
    );
    expect(kubernetesOverrideError({}, parent(), oldWith(), now)).toBeUndefined();
    expect(
      kubernetesOverrideError(spec([{ version: '1.32.0', expirationDate: future }]), parent(), oldWith(), now),
    ).toBe(undefined);
  });

  it('refuses unknown versions and versions without an expiration date', () => {
    expect(
      kubernetesOverrideError(spec([{ version: '1.99.0', expirationDate: future }]), parent(), undefined, now),
    ).toBe(
      "invalid kubernetes version specified: '1.99.0' does not exist in parent CloudProfile and thus cannot be overridden",
    );
    expect(kubernetesOverrideError(spec([{ version: '1.32.0' }]), parent(), undefined, now)).toBe(
      "specified version '1.32.0' does not set expiration date",
    );
  });

  it('refuses a date in the past on UPDATE unless the merged profile has that date already', () => {
    const inPast = spec([{ version: '1.32.0', expirationDate: past }]);
    const message = 'expiration date for version "1.32.0" is in the past';
    expect(kubernetesOverrideError(inPast, parent(), {}, now)).toBe(message);
    expect(kubernetesOverrideError(inPast, parent(), oldWith('2025-01-01T00:00:00Z'), now)).toBe(message);
    expect(kubernetesOverrideError(inPast, parent(), oldWith(), now)).toBe(message);
    expect(kubernetesOverrideError(inPast, parent(), oldWith('2025-03-01T00:59:59+01:00'), now)).toBeUndefined();
  });
});

describe('machineImageOverrideErrors', () => {
  const messages = (spec: ProfileSpec, old?: Parameters<typeof machineImageOverrideErrors>[2]) =>
    machineImageOverrideErrors(spec, parent(), old, now).map((e) => e.message);
  const withVersion = (v: { version: string; [key: string]: unknown }, updateStrategy?: string): ProfileSpec => ({
    machineImages: [{ name: 'local', ...(updateStrategy ? { updateStrategy } : {}), versions: [{ ...v }] }],
  });

  it("accepts Gardener's example: new versions, new images and an expiration date", () => {
    expect(messages(gardenerExample().spec)).toEqual([]);
    const ex = gardenerExample().spec;
    expect(messages(ex, { spec: ex, status: { cloudProfileSpec: ex } })).toEqual([]);
  });

  it('refuses every field but the expiration date on a parent version, and a missing date', () => {
    const v = {
      version: '1.0.0',
      classification: 'supported',
      cri: [{ name: 'containerd' }],
      architectures: ['amd64'],
      capabilitySets: [{ architecture: ['amd64'] }],
      kubeletVersionConstraint: '>= 1.30',
    };
    const p = 'spec.machineImages[0].versions[0]';
    expect(messages(withVersion(v))).toEqual([
      `${p}.classification: Forbidden: must not provide a classification to an extended machine image in NamespacedCloudProfile`,
      `${p}.cri: Forbidden: must not provide a cri to an extended machine image in NamespacedCloudProfile`,
      `${p}.architectures: Forbidden: must not provide an architecture to an extended machine image in NamespacedCloudProfile`,
      `${p}.capabilitySets: Forbidden: must not provide capabilities to an extended machine image in NamespacedCloudProfile`,
      `${p}.kubeletVersionConstraint: Forbidden: must not provide a kubelet version constraint to an extended machine image in NamespacedCloudProfile`,
      `${p}.expirationDate: Invalid value: "null": expiration date for version "1.0.0" must be set`,
    ]);
  });

  it('refuses a past expiration date on UPDATE unless the merged profile has it', () => {
    const spec = withVersion({ version: '1.0.0', expirationDate: past });
    const message = `spec.machineImages[0].versions[0].expirationDate: Invalid value: 2025-02-28 23:59:59 +0000 UTC: expiration date for version "1.0.0" is in the past`;
    expect(messages(spec)).toEqual([]);
    expect(messages(spec, {})).toEqual([message]);
    expect(messages(spec, { status: { cloudProfileSpec: withVersion({ version: '1.0.0' }) } })).toEqual([message]);
    expect(messages(spec, { status: { cloudProfileSpec: spec } })).toEqual([]);
    expect(messages(withVersion({ version: '1.0.0', expirationDate: future }), {})).toEqual([]);
  });

  it('keeps versions the parent added since but refuses changing them or the update strategy', () => {
    const before = withVersion({ version: '1.0.0', cri: [{ name: 'containerd' }], expirationDate: future }, 'minor');
    expect(messages(before, { spec: before })).toEqual([]);
    const changed = withVersion({ version: '1.0.0', cri: [{ name: 'gvisor' }], expirationDate: future }, 'major');
    expect(messages(changed, { spec: before })).toEqual([
      'spec.machineImages[0].updateStrategy: Forbidden: cannot update the machine image update strategy of "local", as this version has been added to the parent CloudProfile by now',
      'spec.machineImages[0].versions[0]: Forbidden: cannot update the machine image version spec of "local@1.0.0", as this version has been added to the parent CloudProfile by now',
    ]);
  });
});

describe('own machine images', () => {
  const messages = (spec: ProfileSpec) => machineImageOverrideErrors(spec, parent(), undefined, now);

  it("accepts Gardener's own example image and refuses invalid ones at Gardener's (doubly indexed) paths", () => {
    expect(messages(gardenerExample().spec)).toEqual([]);
    const spec = gardenerExample().spec;
    delete spec.machineImages[1].updateStrategy;
    spec.machineImages[1].versions[0].architectures = ['s390x'];
    delete spec.machineImages[1].versions[0].cri;
    const errors = messages(spec);
    // ValidateMachineImages runs twice (alone and in ValidateCloudProfileMachineImages): the aggregate drops repeats.
    expect(errors.map((e) => e.message).filter((m) => m.includes('s390x'))).toHaveLength(2);
    expect(aggregateErrors(errors)).toBe(
      '[spec.machineImages[1][0].versions[0].architectures[0]: Unsupported value: "s390x": supported values: "amd64", "arm64", ' +
        'spec.machineImages[1][0].updateStrategy: Required value: must provide an update strategy, ' +
        'spec.machineImages[1][0].versions[0].cri: Required value: must provide at least one supported container runtime]',
    );
    expect(aggregateErrors(errors.slice(0, 1))).toBe(errors[0]!.message);
  });
});

describe('mergedProfileErrors', () => {
  it("accepts Gardener's example merged with the local CloudProfile", () => {
    expect(mergedProfileErrors(parent(), gardenerExample().spec)).toEqual([]);
  });

  it('refuses an expiration date on the latest Kubernetes version of the merge result', () => {
    const errors = mergedProfileErrors(parent(), {
      kubernetes: { versions: [{ version: '1.36.0', expirationDate: future }] },
    });
    expect(mergedProfileMessage(errors)).toBe(
      "error while validating merged NamespacedCloudProfile: [status.cloudProfileSpec.kubernetes.versions[].expirationDate: Invalid value: 2099-01-01 00:00:00 +0000 UTC: expiration date of latest kubernetes version ('1.36.0') must not be set]",
    );
  });

  it('validates new versions of parent images and own machine types as a CloudProfile does', () => {
    const spec = gardenerExample().spec;
    spec.machineImages[0].versions[0] = { version: '1.0.1-dev', classification: 'supported' };
    spec.machineImages[0].versions.push({
      version: '1.0.2',
      classification: 'supported',
      cri: [{ name: 'containerd' }],
      architectures: ['amd64'],
    });
    delete spec.machineTypes[0].architecture;
    expect(mergedProfileErrors(parent(), spec).map((e) => e.message)).toEqual([
      'status.cloudProfileSpec.machineImages[0].versions[2].cri: Required value: must provide at least one supported container runtime',
      'status.cloudProfileSpec.machineImages[0].versions[2]: Forbidden: unable to add version "1.0.1-dev" with classification "supported". Only one "supported" version is allowed per minor version',
      'status.cloudProfileSpec.machineImages[0].versions[2].architectures: Required value: must provide at least one architecture',
      'status.cloudProfileSpec.machineImages[0].versions[3]: Forbidden: unable to add version "1.0.2" with classification "supported". Only one "supported" version is allowed per minor version',
      'status.cloudProfileSpec.machineTypes[1].architecture: Required value: must provide an architecture',
    ]);
  });

  it('copes with a parent image listed without versions', () => {
    expect(mergedProfileErrors(parent(), { machineImages: [{ name: 'local' }] })).toEqual([]);
  });
});

describe('neededVerbs', () => {
  it('asks for a verb per changed field and for raised limits only', () => {
    const ex = gardenerExample().spec;
    expect(neededVerbs(ex, ex, parent())).toEqual([]);
    expect(neededVerbs(ex, undefined, parent()).map((v) => v.verb)).toEqual([
      'modify-spec-kubernetes',
      'modify-spec-machineimages',
    ]);
    expect(neededVerbs({ ...ex, providerConfig: { a: 1 } }, ex, parent()).map((v) => v.operation)).toEqual([
      'modify .spec.providerConfig',
    ]);
    const limited = { ...parent(), limits: { maxNodesTotal: 10 } };
    expect(neededVerbs({ ...ex, limits: { maxNodesTotal: 10 } }, ex, limited)).toEqual([]);
    expect(neededVerbs({ ...ex, limits: { maxNodesTotal: 11 } }, ex, limited)).toEqual([
      { verb: 'raise-spec-limits', operation: 'increase .spec.limits above parent CloudProfile limits' },
    ]);
    expect(neededVerbs({ ...ex, limits: { maxNodesTotal: 11 } }, ex, parent())).toEqual([]);
  });

  it('compares semantically', () => {
    expect(semanticEqual({ a: [], b: { c: 1, d: 2 } }, { b: { d: 2, c: 1 } })).toBe(true);
    expect(semanticEqual({ a: [1] }, { a: [2] })).toBe(false);
    expect(goTime('2024-12-31T23:59:59Z')).toBe('2024-12-31 23:59:59 +0000 UTC');
  });
});

describe('NamespacedCloudProfileValidator', () => {
  const cloudProfile = parentProfile() as unknown as KubeObject;
  const operator = async () => true;
  const run = (
    operation: 'CREATE' | 'UPDATE',
    object: KubeObject,
    old?: KubeObject,
    authorize: (u: unknown, r: AccessAttributes) => Promise<boolean> = operator,
  ) =>
    runChain(
      [NamespacedCloudProfileValidator],
      request(operation, object, old),
      staticListers([cloudProfile], authorize),
    );

  it("admits Gardener's example for an operator with the custom verbs", async () => {
    expect((await run('CREATE', gardenerExample())).allowed).toBe(true);
  });

  it('needs the parent', async () => {
    const orphan = gardenerExample();
    orphan.spec.parent.name = 'missing';
    expect(await run('CREATE', orphan)).toMatchObject({
      allowed: false,
      code: 400,
      message: 'parent CloudProfile could not be found',
    });
  });

  it('asks for the custom verbs of the namespace', async () => {
    const asked: AccessAttributes[] = [];
    const denied = await run('CREATE', gardenerExample(), undefined, async (_u, r) => {
      asked.push(r);
      return r.verb !== 'modify-spec-machineimages';
    });
    expect(asked.map((r) => r.verb)).toEqual(['modify-spec-kubernetes', 'modify-spec-machineimages']);
    expect(asked[0]).toMatchObject({
      group: 'core.gardener.cloud',
      resource: 'namespacedcloudprofiles',
      namespace: 'garden-local',
      name: 'custom-cloudprofile-1',
    });
    expect(denied).toMatchObject({
      allowed: false,
      code: 403,
      message:
        'namespacedcloudprofiles.core.gardener.cloud "custom-cloudprofile-1" is forbidden: user "alice@example.com" is not allowed to modify .spec.machineImages for "namespacedcloudprofiles"',
    });
    const plain = { ...gardenerExample(), spec: { parent: { kind: 'CloudProfile', name: 'local' } } };
    expect(
      (await runChain([NamespacedCloudProfileValidator], request('CREATE', plain), staticListers([cloudProfile])))
        .allowed,
    ).toBe(true);
  });

  it('refuses an overwritten machine type with 400', async () => {
    const ncp = gardenerExample();
    ncp.spec.machineTypes.push({ name: 'local', cpu: '1', gpu: '0', memory: '8Gi' });
    const decision = await run('CREATE', ncp);
    expect(decision).toMatchObject({ allowed: false, code: 400 });
    expect(!decision.allowed && decision.message).toContain(
      'NamespacedCloudProfile attempts to overwrite parent CloudProfile with machineType: {"name":"local"',
    );
  });

  it('refuses an invalid own machine image and an invalid merge result as plain errors', async () => {
    const own = gardenerExample();
    delete own.spec.machineImages[1].updateStrategy;
    expect(await run('CREATE', own)).toMatchObject({
      allowed: false,
      code: 500,
      message: 'spec.machineImages[1][0].updateStrategy: Required value: must provide an update strategy',
    });
    const merged = gardenerExample();
    delete merged.spec.machineTypes[0].architecture;
    expect(await run('CREATE', merged)).toMatchObject({
      allowed: false,
      code: 500,
      message:
        'error while validating merged NamespacedCloudProfile: [status.cloudProfileSpec.machineTypes[1].architecture: Required value: must provide an architecture]',
    });
  });

  it('refuses expired overrides on UPDATE as a plain error, unless unchanged', async () => {
    const stored = gardenerExample();
    const updated = gardenerExample();
    updated.metadata!.labels = { changed: 'true' };
    const refused = await run('UPDATE', updated, stored);
    expect(refused).toMatchObject({
      allowed: false,
      code: 500,
      message: 'expiration date for version "1.32.0" is in the past',
    });
    expect((await run('UPDATE', stored, gardenerExample())).allowed).toBe(true);
    const merged = { ...stored, status: { cloudProfileSpec: gardenerExample().spec } };
    expect((await run('UPDATE', updated, merged)).allowed).toBe(true);
    updated.spec.kubernetes.versions[0].expirationDate = future;
    const imageRefused = await run('UPDATE', updated, {
      ...stored,
      status: { cloudProfileSpec: { machineImages: [] } },
    });
    expect(imageRefused).toMatchObject({
      allowed: false,
      code: 500,
      message:
        'spec.machineImages[0].versions[1].expirationDate: Invalid value: 2024-12-31 23:59:59 +0000 UTC: expiration date for version "1.0.0" is in the past',
    });
  });
});
