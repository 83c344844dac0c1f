import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatReference, ociRepositoryURL, parseReference, registryBaseURL, usesPlainHttp } from './reference.js';

const DIGEST = `sha256:${'a'.repeat(64)}`;

describe('OCI references', () => {
  it('builds the reference from ref, repository@digest (winning over the tag) or repository:tag, without oci://', () => {
    expect(ociRepositoryURL({ ref: 'oci://r.example.com/a:1', repository: 'x', tag: 'y' })).toBe('r.example.com/a:1');
    expect(ociRepositoryURL({ repository: 'r.example.com/a', tag: '1', digest: DIGEST })).toBe(
      `r.example.com/a@${DIGEST}`,
    );
    expect(ociRepositoryURL({ repository: 'oci://r.example.com/a', tag: '1' })).toBe('r.example.com/a:1');
  });

  it('parses registry, repository, tag and digest', () => {
    expect(
      parseReference('europe-docker.pkg.dev/gardener-project/releases/charts/gardener/gardenlet:v1.151.2'),
    ).toEqual({
      registry: 'europe-docker.pkg.dev',
      repository: 'gardener-project/releases/charts/gardener/gardenlet',
      tag: 'v1.151.2',
    });
    expect(parseReference(`localhost:5001/charts/ext:1.0.0@${DIGEST}`)).toEqual({
      registry: 'localhost:5001',
      repository: 'charts/ext',
      tag: '1.0.0',
      digest: DIGEST,
    });
    expect(parseReference('docker.io/bitnamicharts/redis:1')).toMatchObject({ registry: 'index.docker.io' });
  });

  it.each([
    ['', /empty/],
    ['charts/ext:1', /registry must be given/],
    ['ext:1', /registry must be given/],
    ['r.example.com/ext', /tag or a digest/],
    ['r.example.com/Ext:1', /invalid repository/],
    ['r.example.com/ext:-bad', /invalid tag/],
    ['r.example.com/ext@sha256:abc', /digest/],
    ['r.example.com/ext@md5:' + 'a'.repeat(32), /digest/],
  ])('refuses %j', (ref, error) => {
    expect(() => parseReference(ref)).toThrow(error);
  });

  it('round-trips every well-formed reference', () => {
    const component = fc.stringMatching(/^[a-z0-9]+(?:[._-][a-z0-9]+)*$/);
    const host = fc.oneof(
      fc.constant('localhost:5000'),
      fc.constant('127.0.0.1:5001'),
      fc.stringMatching(/^[a-z][a-z0-9-]{0,10}[a-z0-9]\.(?:example\.com|io)$/),
    );
    fc.assert(
      fc.property(
        host,
        fc.array(component, { minLength: 1, maxLength: 4 }),
        fc.option(fc.stringMatching(/^[\w][\w.-]{0,20}$/), { nil: undefined }),
        fc.option(fc.stringMatching(/^[a-f0-9]{64}$/), { nil: undefined }),
        (registry, path, tag, hex) => {
          fc.pre(tag !== undefined || hex !== undefined);
          fc.pre(path.join('/').length <= 255);
          const ref = {
            registry,
            repository: path.join('/'),
            ...(tag ? { tag } : {}),
            ...(hex ? { digest: `sha256:${hex}` } : {}),
          };
          expect(parseReference(formatReference(ref))).toEqual(ref);
        },
      ),
    );
  });

  it('speaks plain HTTP only to loopback hosts and the local Gardener registry', () => {
    expect(registryBaseURL('localhost:5001')).toBe('http://localhost:5001');
    expect(usesPlainHttp('127.0.0.1:40000')).toBe(true);
    expect(usesPlainHttp('[::1]:5000')).toBe(true);
    expect(usesPlainHttp('registry.local.gardener.cloud:5001')).toBe(true);
    expect(registryBaseURL('europe-docker.pkg.dev')).toBe('https://europe-docker.pkg.dev');
    expect(usesPlainHttp('localhost.example.com')).toBe(false);
    expect(usesPlainHttp('10.0.0.1:5000')).toBe(false);
    expect(usesPlainHttp('registry.local.gardener.cloud')).toBe(false);
  });
});
