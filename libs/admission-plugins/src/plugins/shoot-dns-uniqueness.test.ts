import { describe, expect, it } from 'vitest';
import { example, request } from '../../test/examples.js';
import { staticListers } from '../listers.js';
import { managedIssuerConfigSecret } from './shoot-managed-issuer.js';
import { runChain } from '../chain.js';
import { ShootValidator } from './shoot-validator.js';
import { hasDomainIntersection } from './shoot-dns-uniqueness.js';
import type { KubeObject } from '../attributes.js';

const shoot = (name: string, domain?: string, namespace = 'garden-local') => {
  const s = example('local/shoot.yaml');
  s.metadata = { ...s.metadata, name, namespace };
  if (domain) s.spec.dns = { domain };
  return s;
};

const validate = (object: KubeObject, old: KubeObject | undefined, others: KubeObject[]) =>
  runChain(
    [ShootValidator],
    request(old ? 'UPDATE' : 'CREATE', object, old),
    staticListers(
      [
        example('local/project.yaml'),
        example('local/cloudprofile.yaml'),
        managedIssuerConfigSecret('discovery.local.gardener.cloud'),
        ...others,
      ],
      async () => true,
    ),
  );

describe('hasDomainIntersection', () => {
  it.each([
    ['example.com', 'example.com', true],
    ['a.example.com', 'example.com', true],
    ['example.com', 'b.a.example.com', true],
    ['myexample.com', 'example.com', false],
    ['a.example.com', 'b.example.com', false],
  ])('%s and %s → %s', (a, b, expected) => {
    expect(hasDomainIntersection(a, b)).toBe(expected);
    expect(hasDomainIntersection(b, a)).toBe(expected);
  });
});

describe('ShootValidator: DNS domain uniqueness', () => {
  const other = shoot('other', 'other.example.com', 'garden-other');

  it('refuses the domain of another Shoot as a duplicate, in any project', async () => {
    expect(await validate(shoot('local', 'other.example.com'), undefined, [other])).toMatchObject({
      allowed: false,
      code: 403,
      message: 'shoots.core.gardener.cloud "local" is forbidden: spec.dns.domain: Duplicate value: "other.example.com"',
    });
  });

  it('refuses a subdomain and a superdomain of another Shoot’s domain', async () => {
    const message =
      'shoots.core.gardener.cloud "local" is forbidden: spec.dns.domain: Forbidden: the domain is already used by another shoot or it is a subdomain of an already used domain';
    expect(await validate(shoot('local', 'api.other.example.com'), undefined, [other])).toMatchObject({
      allowed: false,
      message,
    });
    expect(await validate(shoot('local', 'example.com'), undefined, [other])).toMatchObject({
      allowed: false,
      message,
    });
  });

  it('accepts a sibling domain, a Shoot without domain, and the Shoot’s own stored domain', async () => {
    expect((await validate(shoot('local', 'local.example.com'), undefined, [other])).allowed).toBe(true);
    expect((await validate(shoot('local'), undefined, [other])).allowed).toBe(true);
    const stored = shoot('local', 'local.example.com');
    const changed = structuredClone(stored);
    changed.spec.provider.workers[0].maximum = 3;
    expect((await validate(changed, stored, [stored, other])).allowed).toBe(true);
  });

  it('checks a Shoot of the same name in another project', async () => {
    const namesake = shoot('local', 'local.example.com', 'garden-other');
    const result = await validate(shoot('local', 'local.example.com'), undefined, [namesake]);
    expect(!result.allowed && result.message).toContain('spec.dns.domain: Duplicate value: "local.example.com"');
  });

  it('does not check again when the spec did not change', async () => {
    const stored = shoot('local', 'other.example.com'); // as stored: with the defaults of the first admission
    stored.spec.kubernetes.version = '1.36.0';
    stored.spec.provider.workers[0].machine.image = { name: 'local', version: '1.0.0' };
    const relabelled = structuredClone(stored);
    relabelled.metadata!.labels = { team: 'a' };
    expect((await validate(relabelled, stored, [stored, other])).allowed).toBe(true);
  });
});
