import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FieldPath } from '@gardener-ts/api';
import { example, request } from '../../test/examples.js';
import { staticListers } from '../listers.js';
import { runChain } from '../chain.js';
import type { KubeObject } from '../attributes.js';
import {
  addTasks,
  cidrMatchesIPFamily,
  currentClassification,
  defaultKubernetesVersion,
  FailedShootNeedsRetryOperation,
  generateULAServicesCIDR,
  ShootMutator,
} from './shoot-mutator.js';

const profile = () => example('local/cloudprofile.yaml');
const shoot = () => example('local/shoot.yaml');
const seed = (shootDefaults?: { pods?: string; services?: string }) => {
  const s = example('50-seed.yaml');
  s.metadata!.name = 'local';
  if (shootDefaults) s.spec.networks.shootDefaults = shootDefaults;
  return s;
};
const TASKS = 'shoot.gardener.cloud/tasks';
const ALL_TASKS = 'deployInfrastructure,deployDNSRecordInternal,deployDNSRecordExternal,deployDNSRecordIngress';

async function admit(object: KubeObject, old?: KubeObject, objects: KubeObject[] = [profile()]) {
  return runChain([ShootMutator], request(old ? 'UPDATE' : 'CREATE', object, old), staticListers(objects));
}

describe('ShootMutator', () => {
  it("gives Gardener's example Shoot the creator and the deploy tasks of a new Shoot", async () => {
    const result = await admit(shoot());
    expect(result.allowed).toBe(true);
    if (!result.allowed) return;
    expect(result.object?.metadata?.annotations).toMatchObject({
      'gardener.cloud/created-by': 'alice@example.com',
      [TASKS]: ALL_TASKS,
    });
  });

  it('adds no tasks to an unchanged Shoot on UPDATE and no creator', async () => {
    const s = shoot();
    const result = await admit(s, structuredClone(s));
    expect(result).toMatchObject({ allowed: true });
    expect(result.allowed && result.object).toBeUndefined();
  });

  it('deploys infrastructure and DNS records again when the Shoot wakes up', async () => {
    const old = shoot();
    old.spec.hibernation = { enabled: true };
    const s = shoot();
    s.spec.hibernation = { enabled: false };
    const result = await admit(s, old);
    expect(result.allowed && result.object?.metadata?.annotations?.[TASKS]).toBe(ALL_TASKS);
  });

  it('deploys the infrastructure when its config, the SSH access or an IP family is added, and on key rotation', async () => {
    const changes: ((s: KubeObject, old: KubeObject) => void)[] = [
      (s) =>
        (s.spec.provider.infrastructureConfig = { apiVersion: 'local.provider.extensions.gardener.cloud/v1alpha1' }),
      (s, old) => {
        old.spec.provider.workersSettings = { sshAccess: { enabled: true } };
        s.spec.provider.workersSettings = { sshAccess: { enabled: false } };
      },
      (s, old) => {
        old.spec.networking.ipFamilies = ['IPv4'];
        s.spec.networking.ipFamilies = ['IPv4', 'IPv6'];
      },
      (s) => (s.metadata!.annotations!['gardener.cloud/operation'] = 'rotate-ssh-keypair'),
      (s) =>
        (s.metadata!.annotations!['gardener.cloud/operation'] = 'rotate-credentials-start-without-workers-rollout'),
    ];
    for (const change of changes) {
      const old = shoot();
      const s = shoot();
      change(s, old);
      const result = await admit(s, old);
      expect(result.allowed && result.object?.metadata?.annotations?.[TASKS]).toBe('deployInfrastructure');
    }
  });

  it('deploys the DNS records when spec.dns changes, keeping tasks already there', async () => {
    const old = shoot();
    const s = shoot();
    s.metadata!.annotations![TASKS] = 'restartControlPlanePods';
    s.spec.dns = { domain: 'local.local.example.com' };
    const result = await admit(s, old);
    expect(result.allowed && result.object?.metadata?.annotations?.[TASKS]).toBe(
      'restartControlPlanePods,deployDNSRecordInternal,deployDNSRecordExternal,deployDNSRecordIngress',
    );
  });

  it('marks a failed Shoot for retry when its spec changes under confineSpecUpdateRollout', async () => {
    const variants = [
      { change: true, confine: true, state: 'Failed', retry: true },
      { change: false, confine: true, state: 'Failed', retry: false },
      { change: true, confine: false, state: 'Failed', retry: false },
      { change: true, confine: true, state: 'Succeeded', retry: false },
      { change: true, confine: true, state: undefined, retry: false },
    ];
    for (const v of variants) {
      const old = shoot();
      old.spec.maintenance = { confineSpecUpdateRollout: v.confine };
      const s = structuredClone(old);
      s.spec.maintenance.confineSpecUpdateRollout = v.confine;
      if (v.state) s.status = { lastOperation: { state: v.state } };
      if (v.change) s.spec.kubernetes.kubeControllerManager = { nodeMonitorGracePeriod: '100s' };
      const result = await admit(s, old);
      const annotations = (result.allowed && result.object?.metadata?.annotations) || s.metadata!.annotations;
      expect(annotations?.[FailedShootNeedsRetryOperation], JSON.stringify(v)).toBe(v.retry ? 'true' : undefined);
    }
  });

  it("defaults the pod and service networks from the Seed's shootDefaults of the Shoot's IP family", async () => {
    const s = shoot();
    s.spec.seedName = 'local';
    const result = await admit(s, undefined, [profile(), seed({ pods: '100.96.0.0/11', services: '100.64.0.0/13' })]);
    expect(result.allowed && result.object?.spec.networking).toMatchObject({
      pods: '100.96.0.0/11',
      services: '100.64.0.0/13',
    });

    const ipv6 = shoot();
    ipv6.spec.seedName = 'local';
    ipv6.spec.networking.ipFamilies = ['IPv6'];
    const other = await admit(ipv6, undefined, [profile(), seed({ pods: '100.96.0.0/11', services: '100.64.0.0/13' })]);
    expect(other.allowed && other.object?.spec.networking.pods).toBeUndefined();
    expect(other.allowed && other.object?.spec.networking.services).toBeUndefined();
  });

  it("leaves the networks alone when the Seed has no shootDefaults (Gardener's example Seed)", async () => {
    const s = shoot();
    s.spec.seedName = 'local';
    const result = await admit(s, undefined, [profile(), seed()]);
    expect(result.allowed && result.object?.spec.networking.pods).toBeUndefined();
  });

  it('gives a workerless IPv6 Shoot a ULA services range', async () => {
    const s = shoot();
    s.spec.seedName = 'local';
    s.spec.provider.workers = [];
    s.spec.networking = { ipFamilies: ['IPv6'] };
    const result = await admit(s, undefined, [profile(), seed()]);
    expect(result.allowed && result.object?.spec.networking.services).toMatch(
      /^fd[0-9a-f]{2}:[0-9a-f]{4}:[0-9a-f]{4}::\/112$/,
    );
  });

  it('answers 500 for a Seed or CloudProfile that does not exist', async () => {
    const s = shoot();
    s.spec.seedName = 'gone';
    expect(await admit(s)).toMatchObject({
      allowed: false,
      code: 500,
      message:
        'Internal error occurred: could not find referenced seed "gone": seed.core.gardener.cloud "gone" not found',
    });
    expect(await admit(shoot(), undefined, [])).toMatchObject({
      allowed: false,
      code: 500,
      message:
        'Internal error occurred: could not find referenced cloud profile: cloudprofiles.core.gardener.cloud "local" not found',
    });
  });

  it('keeps the stored machine image of a worker pool that an update leaves out or names without a version', async () => {
    const old = shoot();
    old.spec.provider.workers[0].machine.image = { name: 'local', version: '1.0.0' };
    for (const image of [undefined, { name: 'local' }, { name: 'local', version: '1.0.0' }]) {
      const s = shoot();
      if (image) s.spec.provider.workers[0].machine.image = image;
      const result = await admit(s, old);
      const worker = (result.allowed && result.object?.spec.provider.workers[0]) || s.spec.provider.workers[0];
      expect(worker.machine.image).toEqual({ name: 'local', version: '1.0.0' });
    }
    // An explicit other version is the user's choice.
    const upgraded = shoot();
    upgraded.spec.provider.workers[0].machine.image = { name: 'local', version: '2.0.0' };
    const result = await admit(upgraded, old);
    expect(result).toMatchObject({ allowed: true });
    expect(result.allowed && result.object).toBeUndefined();
  });

  it("defaults a worker pool's major.minor Kubernetes version to its highest supported patch", async () => {
    const s = shoot();
    s.spec.provider.workers[0].kubernetes = { version: '1.35' };
    const result = await admit(s);
    expect(result.allowed && result.object?.spec.provider.workers[0].kubernetes.version).toBe('1.35.4');
  });

  it("refuses a worker pool's version no supported version matches, with Gardener's message", async () => {
    const s = shoot();
    s.spec.provider.workers[0].kubernetes = { version: '1.19' };
    expect(await admit(s)).toMatchObject({
      allowed: false,
      code: 403,
      message:
        'shoots.core.gardener.cloud "local" is forbidden: spec.provider.workers[0].kubernetes.version: Invalid value: "1.19": ' +
        "couldn't find a suitable version for 1.19. Suitable versions have a non-expired expiration date and are no 'preview' versions. 'Preview'-classified versions have to be selected explicitly",
    });
    s.spec.provider.workers[0].kubernetes = { version: '1.x' };
    expect(await admit(s)).toMatchObject({
      allowed: false,
      message:
        'shoots.core.gardener.cloud "local" is forbidden: spec.provider.workers[0].kubernetes.version: Invalid value: "x": must be a semantic version',
    });
  });
});

describe('ShootMutator helpers', () => {
  it('adds every task once, whatever was there (property)', () => {
    const task = fc.constantFrom('a', 'b', 'c', 'deployInfrastructure');
    fc.assert(
      fc.property(fc.array(task), fc.array(task), (before, added) => {
        const annotations: Record<string, string> = before.length ? { [TASKS]: [...new Set(before)].join(',') } : {};
        addTasks(annotations, ...added);
        addTasks(annotations, ...added);
        const tasks = annotations[TASKS]!.split(',').filter(Boolean);
        expect(new Set(tasks).size).toBe(tasks.length);
        expect(new Set(tasks)).toEqual(new Set([...before, ...added]));
      }),
    );
  });

  it('a defaulted version has the requested major and minor and is one of the supported ones (property)', () => {
    const versions: { version: string; classification?: 'preview' }[] = [
      { version: '1.34.3' },
      { version: '1.35.1' },
      { version: '1.35.4' },
      { version: '1.36.0' },
      { version: '1.37.0', classification: 'preview' },
    ];
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 30, max: 38 }), (major, minor) => {
        const requested = `${major}.${minor}`;
        const { version, error } = defaultKubernetesVersion(requested, versions, FieldPath.root('v'));
        if (version) {
          expect(version.startsWith(`${requested}.`)).toBe(true);
          expect(versions.some((v) => v.version === version && !v.classification)).toBe(true);
        } else expect(error?.message).toContain("couldn't find a suitable version");
      }),
    );
  });

  it('classifies versions by their lifecycle and expiration date', () => {
    const now = new Date('2026-06-01T00:00:00Z');
    expect(currentClassification({ version: '1.0.0' }, now)).toBe('supported');
    expect(currentClassification({ version: '1.0.0', expirationDate: '2026-01-01T00:00:00Z' }, now)).toBe('expired');
    expect(
      currentClassification(
        {
          version: '1.0.0',
          lifecycle: [
            { classification: 'preview' },
            { classification: 'supported', startTime: '2026-05-01T00:00:00Z' },
            { classification: 'deprecated', startTime: '2026-07-01T00:00:00Z' },
          ],
        },
        now,
      ),
    ).toBe('supported');
    expect(
      currentClassification(
        { version: '1.0.0', lifecycle: [{ classification: 'supported', startTime: '2027-01-01T00:00:00Z' }] },
        now,
      ),
    ).toBe('unavailable');
  });

  it('reads the IP family of a CIDR as Gardener does', () => {
    expect(cidrMatchesIPFamily('100.64.0.0/13', ['IPv4'])).toBe(true);
    expect(cidrMatchesIPFamily('100.64.0.0/13', ['IPv6'])).toBe(false);
    expect(cidrMatchesIPFamily('fd00:10:2::/112', ['IPv4', 'IPv6'])).toBe(true);
    expect(cidrMatchesIPFamily('not-a-cidr', ['IPv4'])).toBe(false);
    expect(generateULAServicesCIDR(() => Uint8Array.from([1, 2, 3, 0xab, 0xcd]))).toBe('fd01:0203:abcd::/112');
  });
});
