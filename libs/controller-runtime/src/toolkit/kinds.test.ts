import { describe, expect, it } from 'vitest';
import { apiVersionOf } from '../client/gvk.js';
import { Kinds } from './kinds.js';

describe('Kinds', () => {
  it('name group, version, apiVersion, plural and scope consistently', () => {
    for (const [name, k] of Object.entries(Kinds)) {
      expect(k.kind, name).toBe(name);
      expect(apiVersionOf(k), name).toBe(k.apiVersion);
      expect(k.plural, name).toBe(k.plural.toLowerCase());
      expect(k.plural.endsWith('s'), name).toBe(true);
    }
    expect(Kinds.Deployment).toMatchObject({
      group: 'apps',
      version: 'v1',
      apiVersion: 'apps/v1',
      plural: 'deployments',
      namespaced: true,
    });
    expect(Kinds.Node.namespaced).toBe(false);
    expect(Kinds.Secret).toMatchObject({ group: '', version: 'v1' });
  });
});
