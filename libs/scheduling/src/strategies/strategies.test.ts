import { describe, expect, it } from 'vitest';
import type { Seed } from '@gardener-ts/api';
import { seed, shoot } from '../../test/fixtures.js';
import { SchedulingInputError } from '../errors.js';
import type { RegionConfig } from '../types.js';
import { applyStrategy } from './apply.js';
import { minimalDistance } from './minimal-distance.js';
import { findRegionConfig, regionDistances } from './region-config.js';
import { sameProvider } from './same-provider.js';
import { sameRegion } from './same-region.js';

const at = (name: string, region: string, type = 'aws'): Seed =>
  seed(name, (s) => {
    s.spec.provider.region = region;
    s.spec.provider.type = type;
  });
const names = (outcome: { candidates: { seed: Seed }[] }) => outcome.candidates.map((c) => c.seed.metadata!.name);

describe('SameRegion', () => {
  it.each([
    ['a seed in the region of the same provider fits', [at('a', 'eu-west-1')], ['a']],
    ['a seed in another region is rejected', [at('a', 'eu-central-1')], []],
    ['a seed of another provider in the region is rejected', [at('a', 'eu-west-1', 'gcp')], []],
    [
      'only the matching seeds are candidates',
      [at('a', 'eu-west-1'), at('b', 'us-east-1'), at('c', 'eu-west-1')],
      ['a', 'c'],
    ],
  ])('%s', (_name, seeds, expected) => {
    const outcome = sameRegion(seeds, shoot('s'));
    expect(names(outcome)).toEqual(expected);
    expect(outcome.rejected).toHaveLength(seeds.length - expected.length);
  });
});

describe('testing purpose (same provider, any region)', () => {
  const testing = shoot('s', (s) => (s.spec.purpose = 'testing'));
  it.each([
    ['a seed of the provider in another region fits', [at('far', 'ap-south-1')], ['far']],
    ['a seed of another provider is rejected', [at('gcp', 'eu-west-1', 'gcp')], []],
  ])('%s', (_name, seeds, expected) => {
    expect(names(sameProvider(seeds, testing))).toEqual(expected);
  });

  it('overrides the configured strategy', () => {
    expect(applyStrategy([at('far', 'ap-south-1')], testing, 'SameRegion', undefined)).toMatchObject({
      strategy: 'SameProvider',
    });
    expect(applyStrategy([at('far', 'ap-south-1')], testing, 'MinimalDistance', undefined)).toMatchObject({
      strategy: 'SameProvider',
    });
    expect(names(applyStrategy([at('far', 'ap-south-1')], shoot('s'), 'SameRegion', undefined))).toEqual([]);
  });
});

describe('MinimalDistance, Levenshtein fallback', () => {
  it.each([
    ['the same region wins', 'eu-west-1', [at('a', 'eu-west-1'), at('b', 'eu-west-2')], ['a']],
    ['the nearest region name wins', 'eu-west-1', [at('a', 'eu-west-2'), at('b', 'us-east-1')], ['a']],
    ['equal distances are all candidates', 'eu-west-1', [at('a', 'eu-west-2'), at('b', 'eu-west-3')], ['a', 'b']],
    [
      'the orientation counts: same base, other orientation beats another base',
      'europe-west',
      [at('a', 'europe-east'), at('b', 'asia-west')],
      ['a'],
    ],
    ['another provider costs 2', 'eu-west-1', [at('gcp', 'eu-west-1', 'gcp'), at('aws', 'eu-west-2')], ['gcp', 'aws']],
    [
      'another provider loses against the same provider at equal region distance',
      'eu-west-1',
      [at('gcp', 'eu-west-2', 'gcp'), at('aws', 'eu-west-2')],
      ['aws'],
    ],
  ])('%s', (_name, region, seeds, expected) => {
    const outcome = minimalDistance(
      seeds,
      shoot('s', (s) => (s.spec.region = region)),
      undefined,
    );
    expect(names(outcome)).toEqual(expected);
  });

  it('gives the distance of each candidate and why the others lost', () => {
    const outcome = minimalDistance([at('a', 'eu-west-2'), at('b', 'us-east-1')], shoot('s'), undefined);
    expect(outcome.candidates[0].distance).toBe(2);
    expect(outcome.rejected[0].reason).toMatch(/^region distance \d+ is larger than the minimal 2$/);
  });
});

const regionConfig = (data: Record<string, string>): RegionConfig => ({ source: 'garden/regions', data });

describe('MinimalDistance with a region config', () => {
  const config = regionConfig({ 'eu-west-1': 'eu-central-1: 1\nus-east-1: 5\n' });

  it.each([
    ['the configured distance decides', [at('central', 'eu-central-1'), at('us', 'us-east-1')], ['central']],
    [
      'the own region is at distance 0 unless configured',
      [at('own', 'eu-west-1'), at('central', 'eu-central-1')],
      ['own'],
    ],
    ['seeds in unlisted regions are not candidates', [at('ap', 'ap-south-1'), at('us', 'us-east-1')], ['us']],
    ['no listed seed falls back to the region names', [at('ap', 'ap-south-1'), at('eu', 'eu-west-2')], ['eu']],
  ])('%s', (_name, seeds, expected) => {
    expect(names(minimalDistance(seeds, shoot('s'), config))).toEqual(expected);
  });

  it('can put the own region further away', () => {
    const own = regionConfig({ 'eu-west-1': 'eu-west-1: 9\neu-central-1: 1\n' });
    expect(names(minimalDistance([at('own', 'eu-west-1'), at('central', 'eu-central-1')], shoot('s'), own))).toEqual([
      'central',
    ]);
  });

  it('falls back when the config has no entry for the shoot region', () => {
    expect(
      names(
        minimalDistance(
          [at('a', 'eu-west-2')],
          shoot('s', (s) => (s.spec.region = 'eu-west-3')),
          config,
        ),
      ),
    ).toEqual(['a']);
  });

  it('reads an entry of null as an empty map (the own region only)', () => {
    expect(regionDistances(regionConfig({ 'eu-west-1': 'null' }), 'eu-west-1')).toEqual(new Map([['eu-west-1', 0]]));
  });

  it('refuses a malformed entry', () => {
    expect(() => regionDistances(regionConfig({ 'eu-west-1': 'eu-central-1: far' }), 'eu-west-1')).toThrow(
      SchedulingInputError,
    );
    expect(() => regionDistances(regionConfig({ 'eu-west-1': '- a\n- b' }), 'eu-west-1')).toThrow(
      /Wrong format in region ConfigMap garden\/regions/,
    );
  });
});

describe('finding the region config', () => {
  const cm = (name: string, profiles: string, purpose = 'region-config') => ({
    metadata: {
      name,
      namespace: 'garden',
      labels: { 'scheduling.gardener.cloud/purpose': purpose },
      annotations: { 'scheduling.gardener.cloud/cloudprofiles': profiles },
    },
    data: { 'eu-west-1': 'eu-central-1: 1' },
  });

  it.each([
    ['a config naming the profile is found', [cm('a', 'aws,gcp')], 'garden/a'],
    ['a config naming other profiles is not', [cm('a', 'gcp')], undefined],
    ['a ConfigMap without the purpose label is not', [cm('a', 'aws', 'other')], undefined],
    ['names must match exactly', [cm('a', 'aws-1,aw')], undefined],
  ])('%s', (_name, configMaps, source) => {
    expect(findRegionConfig(configMaps, 'aws').config?.source).toBe(source);
  });

  it('uses the first by name and reports the others', () => {
    expect(findRegionConfig([cm('b', 'aws'), cm('a', 'aws')], 'aws')).toEqual({
      config: { source: 'garden/a', data: { 'eu-west-1': 'eu-central-1: 1' } },
      ignored: ['garden/b'],
    });
  });
});
