import { describe, expect, it } from 'vitest';
import { cloudProfile, seed, shoot, view } from '../../test/fixtures.js';
import { providerMatches, providerMismatch } from './provider.js';

describe('provider types', () => {
  it.each([
    ['same provider fits by default', 'aws', 'aws', undefined, true],
    ['another provider is rejected by default', 'gcp', 'aws', undefined, false],
    ['an empty list means the default', 'gcp', 'aws', [], false],
    ['a listed provider fits', 'gcp', 'aws', ['gcp', 'azure'], true],
    ["an unlisted provider is rejected, even the shoot's own", 'aws', 'aws', ['gcp'], false],
    ['* fits every provider', 'openstack', 'aws', ['*'], true],
  ])('%s', (_name, seedType, shootType, enabled, fits) => {
    expect(providerMatches(seedType, shootType, enabled)).toBe(fits);
  });

  it("reads the cloud profile's seedSelector.providerTypes", () => {
    const gcp = seed('gcp', (s) => (s.spec.provider.type = 'gcp'));
    const crossProvider = view(cloudProfile('aws', (c) => (c.spec.seedSelector = { providerTypes: ['*'] })));
    expect(providerMismatch(gcp, shoot('s'), crossProvider)).toBeUndefined();
    expect(providerMismatch(gcp, shoot('s'), view())).toBe('provider type "gcp" differs from the shoot\'s "aws"');
  });

  it("ignores the shoot's own seedSelector.providerTypes, as Gardener's scheduler does", () => {
    const gcp = seed('gcp', (s) => (s.spec.provider.type = 'gcp'));
    const wide = shoot('s', (s) => (s.spec.seedSelector = { providerTypes: ['*'] }));
    expect(providerMismatch(gcp, wide, view())).toBeDefined();
  });
});
