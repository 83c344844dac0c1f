import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Pod } from '../shared/kinds.js';
import { filterNode } from './filters.js';
import { interPodAffinityFilter } from './inter-pod-affinity.js';
import { emptyUsage } from './resources.js';
import { schedulePod } from './schedule.js';
import { scoreNodes } from './score.js';
import { appTerm, boundTo, HOSTNAME, labelled, node, outcome, podAffinity, usageOf, ZONE } from './testing.js';
import { topologySpreadFilter } from './topology-spread.js';

const zones = [
  node('a1', { labels: { [ZONE]: 'a' } }),
  node('b1', { labels: { [ZONE]: 'b' } }),
  node('c1', { labels: { [ZONE]: 'c' } }),
];

describe('scoring in a scheduling decision', () => {
  it('lets preferred term weights decide between attraction and repulsion', () => {
    const placed = [
      boundTo('a1', labelled('cache', { app: 'cache' })),
      boundTo('a1', labelled('web-0', { app: 'web' })),
    ];
    const weighing = (toCache: number, fromWeb: number) =>
      labelled(
        'web-1',
        { app: 'web' },
        podAffinity({
          preferred: [[toCache, appTerm('cache', ZONE)]],
          antiPreferred: [[fromWeb, appTerm('web', ZONE)]],
        }),
      );
    expect(outcome(schedulePod(weighing(80, 20), zones, usageOf(placed), placed))).toBe('a1');
    expect(outcome(schedulePod(weighing(20, 80), zones, usageOf(placed), placed))).not.toBe('a1');
  });

  it('prefers spreading replicas over zones over the roomiest node', () => {
    const nodes = [
      node('a1', { labels: { [ZONE]: 'a' }, cpu: '64', memory: '256Gi' }),
      node('a2', { labels: { [ZONE]: 'a' }, cpu: '64', memory: '256Gi' }),
      node('b1', { labels: { [ZONE]: 'b' } }),
    ];
    const replica = (spec = {}) => ({
      ...labelled('r', { app: 'etcd' }, spec),
      spec: {
        ...labelled('r', {}, spec).spec!,
        containers: [{ name: 'c', image: 'i', resources: { requests: { cpu: '1', memory: '1Gi' } } }],
      },
    });
    const placed = [boundTo('a1', replica())];
    expect(outcome(schedulePod(replica(), nodes, usageOf(placed), placed))).toBe('a2');
    expect(
      outcome(
        schedulePod(
          replica(podAffinity({ antiPreferred: [[100, appTerm('etcd', ZONE)]] })),
          nodes,
          usageOf(placed),
          placed,
        ),
      ),
    ).toBe('b1');
    const anyway = {
      topologySpreadConstraints: [
        {
          maxSkew: 1,
          topologyKey: ZONE,
          whenUnsatisfiable: 'ScheduleAnyway',
          labelSelector: { matchLabels: { app: 'etcd' } },
        },
      ],
    };
    expect(outcome(schedulePod(replica(anyway), nodes, usageOf(placed), placed))).toBe('b1');
  });

  it('prefers nodes without untolerated PreferNoSchedule taints (weight 3) and matching preferred node affinity (weight 2)', () => {
    const nodes = [
      node('soft', { taints: [{ key: 'k', effect: 'PreferNoSchedule' }], cpu: '64', memory: '256Gi' }),
      node('plain'),
    ];
    expect(outcome(schedulePod(labelled('p', {}), nodes, new Map()))).toBe('plain');
    const preferSoft = {
      affinity: {
        nodeAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            { weight: 100, preference: { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['soft'] }] } },
          ],
        },
      },
    };
    expect(outcome(schedulePod(labelled('p', {}, preferSoft), nodes, new Map()))).toBe('plain');
    const tolerating = { ...preferSoft, tolerations: [{ key: 'k', operator: 'Exists' }] };
    expect(outcome(schedulePod(labelled('p', {}, tolerating), nodes, new Map()))).toBe('soft');
    const preferPlain = {
      affinity: {
        nodeAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            { weight: 1, preference: { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['plain'] }] } },
          ],
        },
      },
    };
    expect(
      outcome(
        schedulePod(labelled('p', {}, { ...preferPlain, tolerations: tolerating.tolerations }), nodes, new Map()),
      ),
    ).toBe('plain');
  });
});

// Property: the chosen node passes every filter and no feasible node scores higher; a pod stays unscheduled only
// when no node passes.
const APPS = ['a', 'b'];
const KEYS = [HOSTNAME, ZONE];
const termArb = fc.record({ app: fc.constantFrom(...APPS), key: fc.constantFrom(...KEYS) });
const weightedArb = fc.tuple(fc.integer({ min: 1, max: 100 }), termArb);
const podArb = fc.record({
  app: fc.constantFrom(...APPS),
  anti: fc.array(termArb, { maxLength: 1 }),
  affinity: fc.array(termArb, { maxLength: 1 }),
  preferred: fc.array(weightedArb, { maxLength: 2 }),
  antiPreferred: fc.array(weightedArb, { maxLength: 2 }),
  spread: fc.option(
    fc.record({ key: fc.constantFrom(...KEYS), maxSkew: fc.integer({ min: 1, max: 2 }), hard: fc.boolean() }),
  ),
  preferZone: fc.option(fc.tuple(fc.integer({ min: 1, max: 100 }), fc.constantFrom('a', 'b'))),
  cpu: fc.integer({ min: 0, max: 2000 }),
  tolerateSoft: fc.boolean(),
});
const nodeArb = fc.record({
  zone: fc.option(fc.constantFrom('a', 'b', 'c')),
  cpu: fc.integer({ min: 1, max: 8 }),
  soft: fc.boolean(),
});
type GenPod = typeof podArb extends fc.Arbitrary<infer P> ? P : never;

function build(name: string, g: GenPod): Pod {
  const spec = podAffinity({
    antiRequired: g.anti.map((t) => appTerm(t.app, t.key)),
    required: g.affinity.map((t) => appTerm(t.app, t.key)),
    preferred: g.preferred.map(([w, t]) => [w, appTerm(t.app, t.key)]),
    antiPreferred: g.antiPreferred.map(([w, t]) => [w, appTerm(t.app, t.key)]),
  });
  if (g.preferZone) {
    const [weight, zone] = g.preferZone;
    spec.affinity!.nodeAffinity = {
      preferredDuringSchedulingIgnoredDuringExecution: [
        { weight, preference: { matchExpressions: [{ key: ZONE, operator: 'In', values: [zone] }] } },
      ],
    };
  }
  if (g.spread) {
    const { key, maxSkew, hard } = g.spread;
    spec.topologySpreadConstraints = [
      {
        maxSkew,
        topologyKey: key,
        whenUnsatisfiable: hard ? 'DoNotSchedule' : 'ScheduleAnyway',
        labelSelector: { matchLabels: { app: g.app } },
      },
    ];
  }
  if (g.tolerateSoft) spec.tolerations = [{ key: 'soft', operator: 'Exists' }];
  const p = labelled(name, { app: g.app }, spec);
  p.spec!.containers = [{ name: 'c', image: 'i', resources: g.cpu ? { requests: { cpu: `${g.cpu}m` } } : {} }];
  return p;
}

describe('scheduling decision (property)', () => {
  it('picks a node that passes every filter and has the highest total score', () => {
    fc.assert(
      fc.property(
        fc.array(nodeArb, { minLength: 1, maxLength: 4 }),
        fc.array(fc.tuple(podArb, fc.nat()), { maxLength: 6 }),
        podArb,
        (genNodes, bound, incoming) => {
          const nodes = genNodes.map((n, i) =>
            node(`n${i}`, {
              labels: n.zone ? { [ZONE]: n.zone } : {},
              cpu: `${n.cpu}`,
              taints: n.soft ? [{ key: 'soft', effect: 'PreferNoSchedule' }] : [],
            }),
          );
          const placed = bound.map(([g, i], k) => boundTo(`n${i % nodes.length}`, build(`p${k}`, g)));
          const usage = usageOf(placed);
          const p = build('incoming', incoming);
          const decision = schedulePod(p, nodes, usage, placed);

          const spread = topologySpreadFilter(p, nodes, placed);
          const affinity = interPodAffinityFilter(p, nodes, placed, new Map());
          const feasible = nodes
            .filter(
              (n) =>
                filterNode(p, n, usage.get(n.metadata!.name!) ?? emptyUsage()).length === 0 &&
                !spread.has(n.metadata!.name!) &&
                !affinity.has(n.metadata!.name!),
            )
            .map((n) => ({ node: n, usage: usage.get(n.metadata!.name!) ?? emptyUsage() }));
          if (!('node' in decision)) {
            expect(feasible).toEqual([]);
            return;
          }
          const chosen = feasible.findIndex((c) => c.node === decision.node);
          expect(chosen).toBeGreaterThanOrEqual(0);
          const totals = scoreNodes({ pod: p, feasible, nodes, placed, namespaces: new Map() });
          expect(totals[chosen]).toBe(Math.max(...totals));
        },
      ),
      { numRuns: 300 },
    );
  });
});
