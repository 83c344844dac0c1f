import { describe, expect, it } from 'vitest';
import { apiVersionOf, gvkOf, kind, kindFrom, metadataOnly, parseApiVersion } from './gvk.js';

describe('kinds', () => {
  it('splits apiVersions into group and version', () => {
    expect(parseApiVersion('v1')).toEqual({ group: '', version: 'v1' });
    expect(parseApiVersion('apps/v1')).toEqual({ group: 'apps', version: 'v1' });
    expect(() => parseApiVersion('')).toThrow(/invalid apiVersion/);
    expect(() => parseApiVersion('/v1')).toThrow(/invalid apiVersion/);
    expect(apiVersionOf(kind('core.gardener.cloud/v1beta1', 'Shoot'))).toBe('core.gardener.cloud/v1beta1');
  });

  it('reads the kind of an object and refuses objects without one', () => {
    expect(gvkOf({ apiVersion: 'apps/v1', kind: 'Deployment' })).toEqual({
      group: 'apps',
      version: 'v1',
      kind: 'Deployment',
    });
    expect(() => gvkOf({ metadata: { name: 'x' } })).toThrow(/object x has no apiVersion\/kind/);
    expect(() => kind('v1', '')).toThrow(/kind name missing/);
  });

  it('derives kinds from definitions and metadata-only variants', () => {
    const definition = {
      info: { group: 'core.gardener.cloud', version: 'v1beta1', kind: 'Shoot', plural: 'shoots', namespaced: true },
    };
    expect(kindFrom(definition)).toEqual({
      group: 'core.gardener.cloud',
      version: 'v1beta1',
      kind: 'Shoot',
    });
    expect(metadataOnly(kind('v1', 'Secret'))).toEqual({
      group: '',
      version: 'v1',
      kind: 'Secret',
      metadataOnly: true,
    });
  });
});
