import { describe, expect, it } from 'vitest';
import { seedFromConfig } from './seed-registration.js';

describe('seedFromConfig', () => {
  it('is the seedConfig template as a Seed with the role, provider and region labels', () => {
    const seed = seedFromConfig({
      metadata: { name: 'local', labels: { team: 'a' } },
      spec: {
        provider: { type: 'local', region: 'local' },
        ingress: { domain: 'ingress.local.seed.local.gardener.cloud' },
      },
    });
    expect(seed).toEqual({
      apiVersion: 'core.gardener.cloud/v1beta1',
      kind: 'Seed',
      metadata: {
        name: 'local',
        labels: {
          'gardener.cloud/role': 'seed',
          'seed.gardener.cloud/provider': 'local',
          'seed.gardener.cloud/region': 'local',
          team: 'a',
        },
      },
      spec: {
        provider: { type: 'local', region: 'local' },
        ingress: { domain: 'ingress.local.seed.local.gardener.cloud' },
      },
    });
  });
});
