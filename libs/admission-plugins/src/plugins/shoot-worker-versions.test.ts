import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import semver from 'semver';
import { example, request } from '../../test/examples.js';
import { staticListers } from '../listers.js';
import { managedIssuerConfigSecret } from './shoot-managed-issuer.js';
import { runChain } from '../chain.js';
import { ShootValidator } from './shoot-validator.js';
import { StrategyValidation } from './strategy.js';
import { kubeletVersionRange, satisfiesKubeletVersionConstraint } from './shoot-worker-versions.js';
import type { KubeObject } from '../attributes.js';

const profile = () => example('local/cloudprofile.yaml');
const shoot = () => example('local/shoot.yaml');
const project = () => example('local/project.yaml');

/** The local CloudProfile whose image `local@1.0.0` accepts only kubelets matching `constraint`. */
function profileWithConstraint(constraint: string) {
  const p = profile();
  p.spec.machineImages[0].versions.find((v: { version: string }) => v.version === '1.0.0').kubeletVersionConstraint =
    constraint;
  return p;
}

const validate = (object: KubeObject, old: KubeObject | undefined, objects: KubeObject[]) =>
  runChain(
    [ShootValidator],
    request(old ? 'UPDATE' : 'CREATE', object, old),
    staticListers(
      [project(), managedIssuerConfigSecret('discovery.local.gardener.cloud'), ...objects],
      async () => true,
    ),
  );

describe('kubelet version constraints (Masterminds syntax)', () => {
  it.each([
    ['< 1.26', '1.25.9', true],
    ['< 1.26', '1.26.0', false],
    ['>= 1.30, < 1.35', '1.34.3', true],
    ['>= 1.30, < 1.35', '1.35.4', false],
    ['=> 1.33', '1.33.0', true],
    ['~> 1.34', '1.34.3', true],
    ['~> 1.34', '1.35.0', false],
    ['< 1.30 || >= 1.36', '1.36.0', true],
    ['1.34.x', '1.34.3', true],
  ])('%s with kubelet %s → %s', (constraint, version, expected) => {
    expect(satisfiesKubeletVersionConstraint(version, constraint)).toBe(expected);
  });

  it('does not judge what it cannot parse', () => {
    expect(kubeletVersionRange('not a constraint')).toBeUndefined();
    expect(satisfiesKubeletVersionConstraint('1.34.3', 'not a constraint')).toBeUndefined();
    expect(satisfiesKubeletVersionConstraint('latest', '< 1.30')).toBeUndefined();
  });

  it('reads `a, b` as both bounds at once', () => {
    fc.assert(
      fc.property(fc.nat(40), fc.nat(40), fc.nat(40), (low, high, minor) => {
        const version = `1.${minor}.0`;
        expect(satisfiesKubeletVersionConstraint(version, `>= 1.${low}, < 1.${high}`)).toBe(
          semver.gte(version, `1.${low}.0`) && semver.lt(version, `1.${high}.0`),
        );
      }),
    );
  });
});

describe('ShootValidator: kubelet version constraint of machine image versions', () => {
  it("refuses Gardener's example Shoot when its image version does not support the kubelet version", async () => {
    const s = shoot();
    s.spec.kubernetes.version = '1.34.3';
    s.spec.provider.workers[0].machine.image = { name: 'local', version: '1.0.0' };
    expect(await validate(s, undefined, [profileWithConstraint('< 1.34')])).toMatchObject({
      allowed: false,
      code: 403,
      message:
        'shoots.core.gardener.cloud "local" is forbidden: spec.provider.workers[0].machine.image: Invalid value: {"name":"local","version":"1.0.0"}: ' +
        "machine image 'local@1.0.0' does not support kubelet version '1.34.3', supported kubelet versions by this machine image version: '< 1.34'",
    });
    expect((await validate(s, undefined, [profileWithConstraint('>= 1.33, < 1.35')])).allowed).toBe(true);
  });

  it("checks the image that ShootValidator defaulted, against the pool's own kubernetes.version", async () => {
    const s = shoot(); // no image: defaulted to local@1.0.0; control plane defaulted to 1.36.0
    s.spec.kubernetes.version = '1.35.4';
    s.spec.provider.workers[0].kubernetes = { version: '1.33.0' };
    expect((await validate(s, undefined, [profileWithConstraint('< 1.34')])).allowed).toBe(true);
    delete s.spec.provider.workers[0].kubernetes;
    const result = await validate(s, undefined, [profileWithConstraint('< 1.34')]);
    expect(!result.allowed && result.message).toContain("does not support kubelet version '1.35.4'");
  });

  it('refuses a control plane upgrade the pool image does not support', async () => {
    const old = shoot();
    old.spec.kubernetes.version = '1.33.0';
    old.spec.provider.workers[0].machine.image = { name: 'local', version: '1.0.0' };
    const upgraded = structuredClone(old);
    upgraded.spec.kubernetes.version = '1.34.3';
    const p = profileWithConstraint('< 1.34');
    const result = await validate(upgraded, old, [p]);
    expect(!result.allowed && result.message).toContain(
      'spec.provider.workers[0].machine.image: Invalid value: {"name":"local","version":"1.0.0"}: machine image \'local@1.0.0\' does not support kubelet version \'1.34.3\'',
    );
  });
});

describe("ShootValidator: worker pools' own Kubernetes versions", () => {
  it('refuses a pool version the CloudProfile does not offer, listing preview versions as such', async () => {
    const p = profile();
    p.spec.kubernetes.versions[0].classification = 'preview';
    const s = shoot();
    s.spec.kubernetes.version = '1.35.4';
    s.spec.provider.workers[0].kubernetes = { version: '1.31.0' };
    expect(await validate(s, undefined, [p])).toMatchObject({
      allowed: false,
      message:
        'shoots.core.gardener.cloud "local" is forbidden: spec.provider.workers[0].kubernetes.version: Unsupported value: "1.31.0": supported values: "1.36.0 (preview)", "1.35.4", "1.34.3", "1.33.0", "1.32.0"',
    });
  });

  it('refuses an expired version for a new pool but lets an existing pool move to it', async () => {
    const p = profile();
    p.spec.kubernetes.versions.find((v: { version: string }) => v.version === '1.33.0').expirationDate =
      '2020-01-01T00:00:00Z';
    const old = shoot();
    old.spec.kubernetes.version = '1.34.3';
    old.spec.provider.workers[0].kubernetes = { version: '1.32.0' };
    old.spec.provider.workers[0].machine.image = { name: 'local', version: '1.0.0' };
    const updated = structuredClone(old);
    updated.spec.provider.workers[0].kubernetes.version = '1.33.0';
    expect((await validate(updated, old, [p])).allowed).toBe(true);

    updated.spec.provider.workers.push({ ...structuredClone(updated.spec.provider.workers[0]), name: 'second' });
    const result = await validate(updated, old, [p]);
    expect(!result.allowed && result.message).toContain(
      'spec.provider.workers[1].kubernetes.version: Unsupported value: "1.33.0"',
    );
  });
});

describe('strategy validation: worker pool versions against the control plane', () => {
  const strategy = (s: KubeObject) => runChain([StrategyValidation], request('CREATE', s), staticListers([]));

  it('refuses a pool newer than the control plane', async () => {
    const s = shoot();
    s.spec.kubernetes.version = '1.34.3';
    s.spec.provider.workers[0].kubernetes = { version: '1.35.4' };
    expect(await strategy(s)).toMatchObject({
      allowed: false,
      code: 422,
      message:
        'Shoot.core.gardener.cloud "local" is invalid: spec.provider.workers[0].kubernetes.version: Forbidden: worker group kubernetes version must not be higher than control plane version',
    });
  });

  it('allows three minor versions of skew from Kubernetes 1.28 on and two before', async () => {
    const s = shoot();
    s.spec.kubernetes.version = '1.36.0';
    s.spec.provider.workers[0].kubernetes = { version: '1.33.0' };
    expect((await strategy(s)).allowed).toBe(true);
    s.spec.provider.workers[0].kubernetes = { version: '1.32.0' };
    expect(await strategy(s)).toMatchObject({
      allowed: false,
      message:
        'Shoot.core.gardener.cloud "local" is invalid: spec.provider.workers[0].kubernetes.version: Forbidden: worker group kubernetes version must be at most three minor versions behind control plane version',
    });
    s.spec.kubernetes.version = '1.27.3';
    s.spec.provider.workers[0].kubernetes = { version: '1.24.9' };
    const result = await strategy(s);
    expect(!result.allowed && result.message).toContain(
      'worker group kubernetes version must be at most two minor versions behind control plane version',
    );
  });
});
