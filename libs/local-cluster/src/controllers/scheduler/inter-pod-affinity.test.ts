import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Pod } from '../shared/kinds.js';
import { podAffinityTerms, termMatches, topologyPair } from './affinity-terms.js';
import {
  AFFINITY_RULES_NOT_MATCH,
  ANTI_AFFINITY_RULES_NOT_MATCH,
  EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH,
  interPodAffinityFilter,
} from './inter-pod-affinity.js';
import { schedulePod } from './schedule.js';
import { appTerm, boundTo, HOSTNAME, labelled, node, outcome, podAffinity, usageOf, ZONE } from './testing.js';

const nodes = [
  node('a1', { labels: { [ZONE]: 'a' } }),
  node('a2', { labels: { [ZONE]: 'a' } }),
  node('b1', { labels: { [ZONE]: 'b' } }),
  node('x'),
];
const on = boundTo;
const filter = (p: Pod, placed: Pod[], namespaces = new Map<string, Record<string, string>>()) =>
  Object.fromEntries(interPodAffinityFilter(p, nodes, placed, namespaces));

describe('inter-pod affinity filter', () => {
  it('required affinity: only nodes in a domain holding a matching pod', () => {
    const web = labelled('web', { app: 'web' }, podAffinity({ required: [appTerm('cache', ZONE)] }));
    expect(filter(web, [on('a1', labelled('cache', { app: 'cache' }))])).toEqual({
      b1: AFFINITY_RULES_NOT_MATCH,
      x: AFFINITY_RULES_NOT_MATCH,
    });
    // Several terms: a pod must match all of them to count.
    const both = labelled(
      'web',
      { app: 'web' },
      podAffinity({
        required: [appTerm('cache', ZONE), { topologyKey: HOSTNAME, labelSelector: { matchLabels: { tier: 'db' } } }],
      }),
    );
    expect(
      filter(both, [on('a1', labelled('cache', { app: 'cache' })), on('a2', labelled('db', { tier: 'db' }))]),
    ).toEqual({
      a1: AFFINITY_RULES_NOT_MATCH,
      a2: AFFINITY_RULES_NOT_MATCH,
      b1: AFFINITY_RULES_NOT_MATCH,
      x: AFFINITY_RULES_NOT_MATCH,
    });
    expect(filter(both, [on('a2', labelled('cache-db', { app: 'cache', tier: 'db' }))])).toEqual({
      a1: AFFINITY_RULES_NOT_MATCH,
      b1: AFFINITY_RULES_NOT_MATCH,
      x: AFFINITY_RULES_NOT_MATCH,
    });
  });

  it('required affinity: the first of a set of pods with affinity to each other goes anywhere with the key, unless one matches elsewhere', () => {
    const member = labelled('m', { app: 'cache' }, podAffinity({ required: [appTerm('cache', ZONE)] }));
    expect(filter(member, [])).toEqual({ x: AFFINITY_RULES_NOT_MATCH });
    // Not for a pod that does not match its own term.
    const stranger = labelled('s', { app: 'web' }, podAffinity({ required: [appTerm('cache', ZONE)] }));
    expect(filter(stranger, [])).toEqual({
      a1: AFFINITY_RULES_NOT_MATCH,
      a2: AFFINITY_RULES_NOT_MATCH,
      b1: AFFINITY_RULES_NOT_MATCH,
      x: AFFINITY_RULES_NOT_MATCH,
    });
    // A matching pod on a node without the key counts nowhere, so the exception still applies.
    expect(filter(member, [on('x', labelled('c', { app: 'cache' }))])).toEqual({ x: AFFINITY_RULES_NOT_MATCH });
    expect(filter(member, [on('b1', labelled('c', { app: 'cache' }))])).toEqual({
      a1: AFFINITY_RULES_NOT_MATCH,
      a2: AFFINITY_RULES_NOT_MATCH,
      x: AFFINITY_RULES_NOT_MATCH,
    });
  });

  it('required anti-affinity: no node in a domain holding a matching pod; nodes without the key are fine', () => {
    const etcd = labelled('etcd-1', { app: 'etcd' }, podAffinity({ antiRequired: [appTerm('etcd', ZONE)] }));
    expect(filter(etcd, [on('a1', labelled('etcd-0', { app: 'etcd' }))])).toEqual({
      a1: ANTI_AFFINITY_RULES_NOT_MATCH,
      a2: ANTI_AFFINITY_RULES_NOT_MATCH,
    });
    expect(
      filter(etcd, [
        on('a1', labelled('web', { app: 'web' })),
        on('b1', labelled('etcd-0', { app: 'etcd' }, {}, 'other')),
      ]),
    ).toEqual({});
  });

  it('symmetry: a bound pod’s required anti-affinity keeps matching pods out of its domain', () => {
    const guard = on('b1', labelled('guard', { app: 'guard' }, podAffinity({ antiRequired: [appTerm('web', ZONE)] })));
    expect(filter(labelled('web', { app: 'web' }), [guard])).toEqual({ b1: EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH });
    expect(filter(labelled('db', { app: 'db' }), [guard])).toEqual({});
    // In kube's order the pod's own affinity is reported first.
    const web = labelled('web', { app: 'web' }, podAffinity({ required: [appTerm('guard', HOSTNAME)] }));
    expect(filter(web, [guard])).toEqual({
      a1: AFFINITY_RULES_NOT_MATCH,
      a2: AFFINITY_RULES_NOT_MATCH,
      b1: EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH,
      x: AFFINITY_RULES_NOT_MATCH,
    });
  });

  it('namespaceSelector: terms reach pods of the namespaces selected by label, both ways', () => {
    const namespaces = new Map([
      ['shoot--a', { role: 'shoot' }],
      ['garden', { role: 'garden' }],
    ]);
    const anti = podAffinity({
      antiRequired: [appTerm('etcd', HOSTNAME, { namespaceSelector: { matchLabels: { role: 'shoot' } } })],
    });
    const incoming = labelled('etcd', { app: 'etcd' }, anti, 'garden');
    expect(
      filter(
        incoming,
        [
          on('a1', labelled('e', { app: 'etcd' }, {}, 'shoot--a')),
          on('a2', labelled('e', { app: 'etcd' }, {}, 'garden')),
        ],
        namespaces,
      ),
    ).toEqual({
      a1: ANTI_AFFINITY_RULES_NOT_MATCH,
    });
    // The bound pod's selector is judged on the incoming pod's namespace labels.
    const bound = on('b1', labelled('e', { app: 'etcd' }, anti, 'garden'));
    expect(filter(labelled('etcd', { app: 'etcd' }, {}, 'shoot--a'), [bound], namespaces)).toEqual({
      b1: EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH,
    });
    expect(filter(labelled('etcd', { app: 'etcd' }, {}, 'garden'), [bound], namespaces)).toEqual({});
  });

  it('is reported in kube’s words', () => {
    const three = [
      node('n1', { labels: { [ZONE]: 'a' } }),
      node('n2', { labels: { [ZONE]: 'b' } }),
      node('n3', { labels: { [ZONE]: 'c' } }),
    ];
    const replica = (i: number) =>
      labelled(`etcd-${i}`, { app: 'etcd' }, podAffinity({ antiRequired: [appTerm('etcd', HOSTNAME)] }));
    const placed = three.map((n, i) => on(n.metadata!.name!, replica(i)));
    expect(outcome(schedulePod(replica(3), three, usageOf(placed), placed))).toBe(
      "0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules.",
    );
  });
});

// Property: whatever is bound where, a pod the scheduler places never breaks a required anti-affinity term, its own
// or one of a pod already on the cluster, and never lacks a pod its required affinity asks for (unless it is first).
const APPS = ['a', 'b', 'c'];
const KEYS = [HOSTNAME, ZONE];
const termArb = fc.record({ app: fc.constantFrom(...APPS), key: fc.constantFrom(...KEYS) });
const podSpecArb = fc.record({
  app: fc.constantFrom(...APPS),
  anti: fc.array(termArb, { maxLength: 2 }),
  affinity: fc.array(termArb, { maxLength: 1 }),
});
const clusterNodes = [
  node('n0', { labels: { [ZONE]: 'a' } }),
  node('n1', { labels: { [ZONE]: 'a' } }),
  node('n2', { labels: { [ZONE]: 'b' } }),
  node('n3'),
];
type GenPod = typeof podSpecArb extends fc.Arbitrary<infer P> ? P : never;
const build = (name: string, g: GenPod): Pod =>
  labelled(
    name,
    { app: g.app },
    podAffinity({
      antiRequired: g.anti.map((t) => appTerm(t.app, t.key)),
      required: g.affinity.map((t) => appTerm(t.app, t.key)),
    }),
  );

describe('inter-pod affinity (property)', () => {
  it('never places a pod where a required anti-affinity term, its own or a bound pod’s, would be broken', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(podSpecArb, fc.integer({ min: 0, max: 3 })), { maxLength: 6 }),
        podSpecArb,
        (bound, incoming) => {
          const placed = bound.map(([g, n], i) => on(`n${n}`, build(`p${i}`, g)));
          const p = build('incoming', incoming);
          const d = schedulePod(p, clusterNodes, usageOf(placed), placed);
          if (!('node' in d)) return;
          const target = d.node;
          const sameDomain = (other: Pod, key: string) => {
            const pair = topologyPair(target, key);
            return (
              pair !== undefined &&
              pair ===
                topologyPair(
                  clusterNodes.find((n) => n.metadata!.name === other.spec!.nodeName)!,
                  key,
                )
            );
          };
          const none = new Map();
          for (const other of placed) {
            for (const t of podAffinityTerms(p).requiredAntiAffinity)
              expect(termMatches(t, other, none) && sameDomain(other, t.topologyKey)).toBe(false);
            for (const t of podAffinityTerms(other).requiredAntiAffinity)
              expect(termMatches(t, p, none) && sameDomain(other, t.topologyKey)).toBe(false);
          }
          for (const t of podAffinityTerms(p).requiredAffinity) {
            expect(topologyPair(target, t.topologyKey)).toBeDefined();
            const partner = placed.some((o) => termMatches(t, o, none) && sameDomain(o, t.topologyKey));
            const first =
              termMatches(t, p, none) &&
              !placed.some(
                (o) =>
                  termMatches(t, o, none) &&
                  topologyPair(
                    clusterNodes.find((n) => n.metadata!.name === o.spec!.nodeName)!,
                    t.topologyKey,
                  ),
              );
            expect(partner || first).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
