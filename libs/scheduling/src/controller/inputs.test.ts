import { describe, expect, it } from 'vitest';
import type { NamespacedCloudProfile } from '@gardener-ts/api';
import { cloudProfile, shoot } from '../../test/fixtures.js';
import { SchedulingInputError } from '../errors.js';
import { AssumedBindings } from './assumed.js';
import { cloudProfileOf, schedulingInput } from './inputs.js';
import { staticSchedulingCache } from './scheduling-cache.js';

const namespaced = (withStatus: boolean) =>
  ({
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'NamespacedCloudProfile',
    metadata: { name: 'custom', namespace: 'garden-dev' },
    spec: { parent: { kind: 'CloudProfile', name: 'aws' } },
    ...(withStatus
      ? {
          status: { cloudProfileSpec: cloudProfile('x', (c) => (c.spec.seedSelector = { providerTypes: ['*'] })).spec },
        }
      : {}),
  }) as unknown as NamespacedCloudProfile;

describe('the cloud profile of a shoot', () => {
  const cache = staticSchedulingCache({
    cloudProfiles: [cloudProfile('aws')],
    namespacedCloudProfiles: [namespaced(true)],
  });

  it.each([
    ['spec.cloudProfile of kind CloudProfile', shoot('s'), 'CloudProfile'],
    ['spec.cloudProfile without kind', shoot('s', (x) => (x.spec.cloudProfile = { name: 'aws' })), 'CloudProfile'],
    [
      'the older spec.cloudProfileName',
      shoot('s', (x) => ((x.spec.cloudProfileName = 'aws'), delete x.spec.cloudProfile)),
      'CloudProfile',
    ],
    [
      'a NamespacedCloudProfile in the shoot namespace',
      shoot('s', (x) => (x.spec.cloudProfile = { kind: 'NamespacedCloudProfile', name: 'custom' })),
      'NamespacedCloudProfile',
    ],
  ])('is read from %s', (_name, s, kind) => {
    expect(cloudProfileOf(s, cache).kind).toBe(kind);
  });

  it("uses a NamespacedCloudProfile's merged status spec", () => {
    const view = cloudProfileOf(
      shoot('s', (x) => (x.spec.cloudProfile = { kind: 'NamespacedCloudProfile', name: 'custom' })),
      cache,
    );
    expect(view.spec.seedSelector?.providerTypes).toEqual(['*']);
  });

  it.each([
    [
      'a missing CloudProfile',
      shoot('s', (x) => (x.spec.cloudProfile = { name: 'nope' })),
      'cloudprofiles.core.gardener.cloud "nope" not found',
    ],
    ['no reference', shoot('s', (x) => delete x.spec.cloudProfile), 'could not determine cloudprofile from shoot'],
    [
      'a NamespacedCloudProfile elsewhere',
      shoot(
        's',
        (x) => (
          (x.metadata!.namespace = 'other'),
          (x.spec.cloudProfile = { kind: 'NamespacedCloudProfile', name: 'custom' })
        ),
      ),
      'not found in namespace "other"',
    ],
  ])('fails for %s', (_name, s, message) => {
    expect(() => cloudProfileOf(s, cache)).toThrow(SchedulingInputError);
    expect(() => cloudProfileOf(s, cache)).toThrow(message);
  });

  it('fails for a NamespacedCloudProfile without status yet', () => {
    const pending = staticSchedulingCache({ namespacedCloudProfiles: [namespaced(false)] });
    expect(() =>
      cloudProfileOf(
        shoot('s', (x) => (x.spec.cloudProfile = { kind: 'NamespacedCloudProfile', name: 'custom' })),
        pending,
      ),
    ).toThrow(/no status.cloudProfileSpec/);
  });
});

describe('schedulingInput', () => {
  it('counts assumed bindings in the usage', () => {
    const shoots = [shoot('a'), shoot('b', (x) => (x.spec.seedName = 'seed-1'))];
    const assumed = new AssumedBindings();
    assumed.assume(shoots[0], 'seed-1');
    const input = schedulingInput(shoots[0], staticSchedulingCache({ shoots, cloudProfiles: [cloudProfile()] }), {
      strategy: 'SameRegion',
      assumed,
    });
    expect(input.usage.get('seed-1')).toBe(2);
  });

  it('expires assumed bindings, and ends them once the cache shows the seed', () => {
    let now = 0;
    const assumed = new AssumedBindings(1000, () => now);
    const s = shoot('a');
    assumed.assume(s, 'x');
    expect(assumed.seedOf(s)).toBe('x');
    now = 2000;
    expect(assumed.seedOf(s)).toBeUndefined();
    assumed.assume(s, 'x');
    expect(assumed.seedOf(shoot('a', (x) => (x.spec.seedName = 'x')))).toBeUndefined();
    expect(assumed.size).toBe(0);
  });
});
