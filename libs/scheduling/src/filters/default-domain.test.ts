import { describe, expect, it } from 'vitest';
import type { Seed, Shoot } from '@gardener-ts/api';
import { seed, shoot } from '../../test/fixtures.js';
import { defaultDomainMismatch, projectNameOf } from './default-domain.js';

const withDefaults = (...domains: string[]) =>
  seed('s', (s: Seed) => {
    s.spec.dns = {
      defaults: domains.map((domain) => ({
        type: 'aws-route53',
        domain,
        credentialsRef: { apiVersion: 'v1', kind: 'Secret', name: 'default-domain', namespace: 'garden' },
      })),
    };
  });
const withDomain = (domain?: string) => (s: Shoot) => (s.spec.dns = domain === undefined ? undefined : { domain });

describe('default domains of the seed', () => {
  it.each([
    ['a shoot without domain fits', shoot('web', withDomain()), withDefaults('example.com'), true],
    [
      'a shoot with its own domain fits',
      shoot('web', withDomain('api.my-company.io')),
      withDefaults('example.com'),
      true,
    ],
    [
      '<shoot>.<project>.<default-domain> fits',
      shoot('web', withDomain('web.dev.example.com')),
      withDefaults('example.com'),
      true,
    ],
    [
      'the scheme is checked against the matching default',
      shoot('web', withDomain('web.dev.b.org')),
      withDefaults('a.org', 'b.org'),
      true,
    ],
    [
      'another project in the default domain is refused',
      shoot('web', withDomain('web.prod.example.com')),
      withDefaults('example.com'),
      false,
    ],
    [
      'another shoot name in the default domain is refused',
      shoot('web', withDomain('db.dev.example.com')),
      withDefaults('example.com'),
      false,
    ],
    [
      'the default domain itself is refused',
      shoot('web', withDomain('example.com')),
      withDefaults('example.com'),
      false,
    ],
    ['a seed without defaults takes any domain', shoot('web', withDomain('web.prod.example.com')), seed('s'), true],
  ])('%s', (_name, s, candidate, fits) => {
    expect(defaultDomainMismatch(candidate, s) === undefined).toBe(fits);
  });

  it('names the expected domain', () => {
    expect(defaultDomainMismatch(withDefaults('example.com'), shoot('web', withDomain('x.example.com')))).toBe(
      'shoot domain "x.example.com" uses the seed\'s default domain "example.com" but does not match the scheme <shoot-name>.<project-name>.<default-domain> ("web.dev.example.com")',
    );
  });

  it('derives the project from the namespace', () => {
    expect(projectNameOf('garden-dev')).toBe('dev');
    expect(projectNameOf('garden')).toBe('garden');
    expect(projectNameOf('kube-system')).toBeUndefined();
  });
});
