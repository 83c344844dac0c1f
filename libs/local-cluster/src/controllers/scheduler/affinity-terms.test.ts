import { describe, expect, it } from 'vitest';
import { compileTerm, termMatches } from './affinity-terms.js';
import { labelled } from './testing.js';

const owner = labelled('owner', { app: 'etcd', rev: 'r2', tenant: 't1' }, {}, 'shoot--a');
const nsLabels = new Map([
  ['shoot--a', { 'gardener.cloud/role': 'shoot' }],
  ['shoot--b', { 'gardener.cloud/role': 'shoot' }],
  ['garden', { 'gardener.cloud/role': 'garden' }],
]);
const matches = (term: Parameters<typeof compileTerm>[1], other: ReturnType<typeof labelled>) =>
  termMatches(compileTerm(owner, term), other, nsLabels);

describe('pod affinity terms', () => {
  it('select pods of the declaring pod’s namespace by default, and of the listed namespaces otherwise', () => {
    const term = { topologyKey: 'k', labelSelector: { matchLabels: { app: 'etcd' } } };
    expect(matches(term, labelled('x', { app: 'etcd' }, {}, 'shoot--a'))).toBe(true);
    expect(matches(term, labelled('x', { app: 'etcd' }, {}, 'shoot--b'))).toBe(false);
    expect(matches(term, labelled('x', { app: 'other' }, {}, 'shoot--a'))).toBe(false);
    expect(matches({ ...term, namespaces: ['shoot--b'] }, labelled('x', { app: 'etcd' }, {}, 'shoot--b'))).toBe(true);
    expect(matches({ ...term, namespaces: ['shoot--b'] }, labelled('x', { app: 'etcd' }, {}, 'shoot--a'))).toBe(false);
  });

  it('select namespaces by namespaceSelector, ORed with namespaces; an empty selector takes every namespace', () => {
    const term = {
      topologyKey: 'k',
      labelSelector: { matchLabels: { app: 'etcd' } },
      namespaceSelector: { matchLabels: { 'gardener.cloud/role': 'shoot' } },
    };
    expect(matches(term, labelled('x', { app: 'etcd' }, {}, 'shoot--b'))).toBe(true);
    expect(matches(term, labelled('x', { app: 'etcd' }, {}, 'garden'))).toBe(false);
    expect(matches({ ...term, namespaces: ['garden'] }, labelled('x', { app: 'etcd' }, {}, 'garden'))).toBe(true);
    expect(matches({ ...term, namespaceSelector: {} }, labelled('x', { app: 'etcd' }, {}, 'garden'))).toBe(true);
  });

  it('match no pod without a labelSelector, and every pod with an empty one', () => {
    expect(matches({ topologyKey: 'k' }, labelled('x', { app: 'etcd' }, {}, 'shoot--a'))).toBe(false);
    expect(matches({ topologyKey: 'k', labelSelector: {} }, labelled('x', {}, {}, 'shoot--a'))).toBe(true);
  });

  it('narrow the selector by the declaring pod’s values of matchLabelKeys (In) and mismatchLabelKeys (NotIn)', () => {
    const term = {
      topologyKey: 'k',
      labelSelector: { matchLabels: { app: 'etcd' } },
      matchLabelKeys: ['rev', 'absent'],
      mismatchLabelKeys: ['tenant'],
    };
    expect(matches(term, labelled('x', { app: 'etcd', rev: 'r2', tenant: 't2' }, {}, 'shoot--a'))).toBe(true);
    expect(matches(term, labelled('x', { app: 'etcd', rev: 'r1', tenant: 't2' }, {}, 'shoot--a'))).toBe(false);
    expect(matches(term, labelled('x', { app: 'etcd', rev: 'r2', tenant: 't1' }, {}, 'shoot--a'))).toBe(false);
    // A key missing on the other pod: In fails, NotIn holds.
    expect(matches(term, labelled('x', { app: 'etcd', rev: 'r2' }, {}, 'shoot--a'))).toBe(true);
  });
});
