import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { example, request } from '../../test/examples.js';
import { staticListers } from '../listers.js';
import { runValidating } from '../chain.js';
import {
  exceededMetrics,
  newShootQuotaValidator,
  quotaVerificationNeeded,
  ShootQuotaValidator,
  shootClaim,
  type Claim,
} from './shoot-quota.js';
import type { KubeObject } from '../attributes.js';

const projectScope = { apiVersion: 'core.gardener.cloud/v1beta1', kind: 'Project' };
const secretScope = { apiVersion: 'v1', kind: 'Secret' };

const quota = (metrics: Record<string, string>, scope = projectScope, clusterLifetimeDays?: number): KubeObject => ({
  apiVersion: 'core.gardener.cloud/v1beta1',
  kind: 'Quota',
  metadata: { name: 'trial', namespace: 'garden-local' },
  spec: { scope, metrics, ...(clusterLifetimeDays !== undefined ? { clusterLifetimeDays } : {}) },
});

/** Gardener's local CredentialsBinding listing the `trial` Quota (the namespace defaulted, as Gardener does). */
const binding = (namespace = 'garden-local'): KubeObject => {
  const b = example('local/credentialsbinding.yaml');
  b.metadata!.namespace = namespace;
  b.quotas = [{ name: 'trial', namespace: 'garden-local' }];
  return b;
};

/** Gardener's local Shoot, named `name` in `namespace`. */
const shoot = (name = 'local', namespace = 'garden-local', change: (s: KubeObject) => void = () => undefined) => {
  const s = example('local/shoot.yaml');
  s.metadata = { ...s.metadata, name, namespace };
  change(s);
  return s;
};

const profile = () => example('local/cloudprofile.yaml');
const text = (claim: Claim) => Object.fromEntries(Object.entries(claim).map(([m, q]) => [m, q.toString()]));
const validate = (a: ReturnType<typeof request>, objects: KubeObject[], plugin = ShootQuotaValidator) =>
  runValidating([plugin], a, staticListers(objects));

describe('shootClaim', () => {
  it("claims the workers' maximum of the machine type's cpu, gpu and memory, and one load balancer", () => {
    expect(text(shootClaim(shoot(), profile().spec))).toEqual({
      cpu: '2',
      gpu: '0',
      memory: '16Gi',
      'storage.standard': '0',
      'storage.premium': '0',
      loadbalancer: '1',
    });
  });

  it('counts a second load balancer for the nginx-ingress addon', () => {
    const s = shoot('local', 'garden-local', (s) => (s.spec.addons = { nginxIngress: { enabled: true } }));
    expect(shootClaim(s, profile().spec).loadbalancer.toString()).toBe('2');
  });

  it("claims volumes under the volume type's class, or the machine type's storage class and size", () => {
    const p = profile().spec;
    p.volumeTypes = [{ name: 'fast', class: 'premium' }];
    p.machineTypes.push({
      name: 'big',
      cpu: '4',
      gpu: '1',
      memory: '16Gi',
      storage: { class: 'standard', size: '50Gi', type: 'ssd' },
    });
    const s = shoot('local', 'garden-local', (s) => {
      s.spec.provider.workers[0].volume = { type: 'fast', size: '10Gi' };
      s.spec.provider.workers.push({ name: 'big', machine: { type: 'big' }, minimum: 1, maximum: 3 });
    });
    expect(text(shootClaim(s, p))).toMatchObject({
      cpu: '14',
      gpu: '3',
      'storage.premium': '20Gi',
      'storage.standard': '150Gi',
    });
  });

  it("fails with Gardener's text for a machine type, volume type or volume class the profile lacks", () => {
    const p = profile().spec;
    const unknownType = shoot('local', 'garden-local', (s) => (s.spec.provider.workers[0].machine.type = 'huge'));
    expect(() => shootClaim(unknownType, p)).toThrow('machineType huge not found in CloudProfile');
    const unknownVolume = shoot('local', 'garden-local', (s) => {
      s.spec.provider.workers[0].volume = { type: 'nvme', size: '10Gi' };
    });
    expect(() => shootClaim(unknownVolume, p)).toThrow('VolumeType local not found in CloudProfile');
    p.volumeTypes = [{ name: 'nvme', class: 'gold' }];
    expect(() => shootClaim(unknownVolume, p)).toThrow('unknown volumeType class gold');
  });

  it('scales with the maximum of the pool', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1000 }), (maximum) => {
        const s = shoot('local', 'garden-local', (s) => (s.spec.provider.workers[0].maximum = maximum));
        const claim = shootClaim(s, profile().spec);
        expect(claim.cpu.value()).toBe(BigInt(maximum));
        expect(claim.memory.value()).toBe(BigInt(maximum) * 8n * 1024n ** 3n);
      }),
    );
  });
});

describe('exceededMetrics and quotaVerificationNeeded', () => {
  it('names every metric the quota limits below the requirement, in Gardener’s order', () => {
    const required = shootClaim(shoot(), profile().spec);
    expect(exceededMetrics({ loadbalancer: '0', memory: '1Gi', cpu: '2', gpu: '5' }, required)).toEqual([
      'memory',
      'loadbalancer',
    ]);
    expect(exceededMetrics(undefined, required)).toEqual([]);
  });

  it('needs a quota check only for new or resized pools, new machine types or volumes, and enabling nginx-ingress', () => {
    const old = shoot();
    expect(quotaVerificationNeeded(shoot(), old)).toBe(false);
    expect(
      quotaVerificationNeeded(
        shoot('local', 'garden-local', (s) => (s.metadata!.labels = { a: 'b' })),
        old,
      ),
    ).toBe(false);
    const changes: ((s: KubeObject) => void)[] = [
      (s) => (s.spec.provider.workers[0].maximum = 3),
      (s) => (s.spec.provider.workers[0].machine.type = 'other'),
      (s) => (s.spec.provider.workers[0].volume = { size: '10Gi' }),
      (s) => s.spec.provider.workers.push({ name: 'second', machine: { type: 'local' }, maximum: 1 }),
      (s) => (s.spec.addons = { nginxIngress: { enabled: true } }),
    ];
    for (const change of changes)
      expect(quotaVerificationNeeded(shoot('local', 'garden-local', change), old)).toBe(true);
  });
});

describe('ShootQuotaValidator', () => {
  const existing = () => shoot('first');

  it('refuses a Shoot that would exceed its project quota together with the others, naming every exceeded metric', async () => {
    const objects = [profile(), binding(), quota({ cpu: '3', memory: '20Gi', loadbalancer: '5' }), existing()];
    const result = await validate(request('CREATE', shoot()), objects);
    expect(result).toMatchObject({
      allowed: false,
      code: 403,
      message:
        'shoots.core.gardener.cloud "local" is forbidden: quota limits exceeded. Unable to allocate further cpu memory ',
    });
    const roomy = [profile(), binding(), quota({ cpu: '4', memory: '32Gi', loadbalancer: '2' }), existing()];
    expect((await validate(request('CREATE', shoot()), roomy)).allowed).toBe(true);
  });

  it('counts load balancers: one per Shoot, one more for nginx-ingress', async () => {
    const objects = [profile(), binding(), quota({ loadbalancer: '2' }), existing()];
    expect((await validate(request('CREATE', shoot()), objects)).allowed).toBe(true);
    const withIngress = shoot('local', 'garden-local', (s) => (s.spec.addons = { nginxIngress: { enabled: true } }));
    expect(await validate(request('UPDATE', withIngress, shoot()), [...objects, shoot()])).toMatchObject({
      allowed: false,
      message:
        'shoots.core.gardener.cloud "local" is forbidden: quota limits exceeded. Unable to allocate further loadbalancer ',
    });
  });

  it('counts only Shoots whose binding lists the quota; a Secret-scoped quota across namespaces', async () => {
    // A Shoot in the namespace whose binding does not list the quota does not count.
    const unbound = shoot('unbound', 'garden-local', (s) => (s.spec.credentialsBindingName = 'other'));
    const objects = [profile(), binding(), quota({ cpu: '2' }), unbound];
    expect((await validate(request('CREATE', shoot()), objects)).allowed).toBe(true);
    // A Shoot in another project counts against a Secret-scoped quota its binding lists, not a Project-scoped one.
    const elsewhere = shoot('elsewhere', 'garden-other');
    const projectScoped = [profile(), binding(), binding('garden-other'), quota({ cpu: '2' }), elsewhere];
    expect((await validate(request('CREATE', shoot()), projectScoped)).allowed).toBe(true);
    const secretScoped = [profile(), binding(), binding('garden-other'), quota({ cpu: '2' }, secretScope), elsewhere];
    expect(await validate(request('CREATE', shoot()), secretScoped)).toMatchObject({
      allowed: false,
      message:
        'shoots.core.gardener.cloud "local" is forbidden: quota limits exceeded. Unable to allocate further cpu ',
    });
  });

  it('does not check an UPDATE that leaves the workers alone, even when the quota is already exceeded', async () => {
    const objects = [profile(), binding(), quota({ cpu: '1' })];
    const labelled = shoot('local', 'garden-local', (s) => (s.metadata!.labels = { team: 'a' }));
    expect((await validate(request('UPDATE', labelled, shoot()), objects)).allowed).toBe(true);
    const grown = shoot('local', 'garden-local', (s) => (s.spec.provider.workers[0].maximum = 3));
    expect((await validate(request('UPDATE', grown, shoot()), objects)).allowed).toBe(false);
  });

  it('answers 500 for a missing binding or quota, as Gardener does, and ignores Shoots without quotas', async () => {
    expect(await validate(request('CREATE', shoot()), [profile()])).toMatchObject({
      allowed: false,
      code: 500,
      message: 'Internal error occurred: credentialsbinding.security.gardener.cloud "local" not found',
    });
    expect(await validate(request('CREATE', shoot()), [profile(), binding()])).toMatchObject({
      allowed: false,
      code: 500,
      message: 'Internal error occurred: quota.core.gardener.cloud "trial" not found',
    });
    const free = [profile(), example('local/credentialsbinding.yaml')];
    expect((await validate(request('CREATE', shoot()), free)).allowed).toBe(true);
  });

  describe('clusterLifetimeDays', () => {
    const now = new Date('2026-01-10T00:00:00Z');
    const plugin = newShootQuotaValidator(() => now);
    const expiring = (timestamp: string) =>
      shoot(
        'local',
        'garden-local',
        (s) => (s.metadata!.annotations!['shoot.gardener.cloud/expiration-timestamp'] = timestamp),
      );
    const objects = () => [profile(), binding(), quota({ cpu: '100' }, projectScope, 7)];

    it('accepts an expiration within the smallest lifetime of the quotas from now', async () => {
      const result = await validate(request('UPDATE', expiring('2026-01-17T00:00:00Z'), shoot()), objects(), plugin);
      expect(result.allowed).toBe(true);
    });

    it("refuses an expiration further away, with Gardener's message", async () => {
      const result = await validate(request('UPDATE', expiring('2026-01-17T00:00:01Z'), shoot()), objects(), plugin);
      expect(result).toMatchObject({
        allowed: false,
        code: 403,
        message:
          'shoots.core.gardener.cloud "local" is forbidden: requested shoot expiration time is too long. Can only be extended by 7 day(s)',
      });
    });

    it('checks only a changed annotation on UPDATE, never on CREATE, and answers 500 for a non-RFC 3339 time', async () => {
      const far = expiring('2027-01-01T00:00:00Z');
      expect((await validate(request('UPDATE', far, far), objects(), plugin)).allowed).toBe(true);
      expect((await validate(request('CREATE', far), objects(), plugin)).allowed).toBe(true);
      expect(await validate(request('UPDATE', expiring('next week'), shoot()), objects(), plugin)).toMatchObject({
        allowed: false,
        code: 500,
      });
    });
  });
});
