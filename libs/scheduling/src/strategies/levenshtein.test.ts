import { describe, expect, it } from 'vitest';
import { levenshtein } from './levenshtein.js';
import { regionDistance, splitOrientation } from './region-distance.js';

describe('levenshtein', () => {
  it.each([
    ['', '', 0],
    ['abc', '', 3],
    ['kitten', 'sitting', 3],
    ['europe', 'asia', 6],
    ['eu-west-1', 'eu-west-1', 0],
    ['eu-west-1', 'eu-west-2', 1],
    ['ü', 'u', 1],
  ])('%j → %j is %d', (a, b, d) => {
    expect(levenshtein(a, b)).toBe(d);
    expect(levenshtein(b, a)).toBe(d);
  });
});

// The examples of Gardener's scheduler tests: orientation splitting and the distance with its corrections.
describe('region orientation', () => {
  it.each([
    ['europe', 'europe', ''],
    ['west_europe', ':_europe', 'west'],
    ['europe-west', 'europe-:', 'west'],
    ['middle-west-europe', 'middle-:-europe', 'west'],
    ['us-central1', 'us-:1', 'central'],
    ['southeastasia', ':eastasia', 'south'],
  ])('%s has base %j and orientation %j', (region, base, orientation) => {
    expect(splitOrientation(region)).toEqual({ base, orientation });
  });
});

describe('region distance', () => {
  it.each([
    ['no orientation: twice the Levenshtein distance', 'europe', 'asia', 6, 12],
    ['the same orientation adds nothing', 'europe-west', 'asia-west', 6, 12],
    ['different orientations add 2', 'europe-west', 'asia-east', 6, 14],
    ['an orientation on one side only adds 1', 'europe-west', 'asia-:', 6, 13],
    ['the same base, different orientations', 'europe-west', 'europe-east', 0, 2],
    ['the same base, one orientation', 'europe-west', 'europe-:', 0, 1],
    ['the same region', 'europe-west', 'europe-west', 0, 0],
    ['numbered regions', 'eu-west-1', 'eu-west-2', 1, 2],
  ])('%s (%s, %s)', (_name, seedRegion, shootRegion, lev, distance) => {
    expect(regionDistance(seedRegion, shootRegion)).toEqual({ levenshtein: lev, distance });
  });
});
