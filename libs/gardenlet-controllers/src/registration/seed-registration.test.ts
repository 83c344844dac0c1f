import { ApiError, type ApiClient } from '@gardener-ts/controller-runtime';
import { describe, expect, it } from 'vitest';
import { registerSeed, seedFromConfig } from './seed-registration.js';

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

describe('registerSeed', () => {
  const seedConfig = { metadata: { name: 'local' }, spec: { provider: { type: 'local', region: 'local' } } };
  /** A garden whose applies fail with `errors` in turn, then succeed; the calls it took. */
  const garden = (errors: Error[]) => {
    const calls: unknown[] = [];
    const apply = (async (obj: unknown) => {
      calls.push(obj);
      const err = errors.shift();
      if (err) throw err;
      return obj;
    }) as ApiClient['apply'];
    return { garden: { apply }, calls };
  };
  const noEndpoints = new ApiError(
    500,
    'InternalError',
    'Internal error occurred: failed calling webhook "mutate.admission.gardener.cloud": no endpoints available for service "gardener-admission"',
  );

  it('tries again while the garden answers 5xx (its admission webhook not served yet), 429 or not at all', async () => {
    const { garden: g, calls } = garden([
      noEndpoints,
      new ApiError(429, 'TooManyRequests', 'slow down'),
      new ApiError(0, '', 'ECONNREFUSED'),
    ]);
    await expect(registerSeed(g, seedConfig)).resolves.toMatchObject({ kind: 'Seed', metadata: { name: 'local' } });
    expect(calls).toHaveLength(4);
  });

  it('fails at once when the garden refuses the Seed, and after its time when the garden keeps failing', async () => {
    const invalid = new ApiError(
      422,
      'Invalid',
      'Seed.core.gardener.cloud "local" is invalid: spec.provider.type: Required value',
    );
    const refused = garden([invalid]);
    await expect(registerSeed(refused.garden, seedConfig)).rejects.toMatchObject({
      message: 'registering Seed local from seedConfig',
      cause: invalid,
    });
    expect(refused.calls).toHaveLength(1);
    const down = garden(Array.from({ length: 100 }, () => noEndpoints));
    await expect(registerSeed(down.garden, seedConfig, { timeoutMs: 300 })).rejects.toMatchObject({
      cause: noEndpoints,
    });
    expect(down.calls.length).toBeGreaterThan(1);
  });
});
