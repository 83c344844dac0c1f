import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Pod, Taint, Toleration } from '../shared/kinds.js';
import { addPod, emptyUsage, type NodeUsage } from './resources.js';
import { schedulePod } from './schedule.js';
import { node, pod } from './testing.js';

const placed = (d: ReturnType<typeof schedulePod>) => ('node' in d ? d.node.metadata?.name : d.unschedulable);

describe('scheduling a pod', () => {
  it('explains an unschedulable pod in kube’s words', () => {
    expect(placed(schedulePod(pod({ nodeSelector: { disk: 'ssd' } }), [node('n1')], new Map()))).toBe(
      "0/1 nodes are available: 1 node(s) didn't match Pod's node affinity/selector.",
    );
    const nodes = [
      node('a', { unschedulable: true }),
      node('b', { cpu: '500m' }),
      node('c', { taints: [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }] }),
      node('d', { ready: 'False' }),
    ];
    expect(placed(schedulePod(pod({}, '1'), nodes, new Map()))).toBe(
      '0/4 nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated taint {dedicated: db}, 1 node(s) had untolerated taint {node.kubernetes.io/not-ready: }, 1 node(s) were unschedulable.',
    );
    expect(placed(schedulePod(pod(), [], new Map()))).toBe('no nodes available to schedule pods');
  });

  it('counts what bound pods request against allocatable, and the pod limit', () => {
    const used = emptyUsage();
    addPod(used, pod({}, '3500m'));
    expect(placed(schedulePod(pod({}, '600m'), [node('n1')], new Map([['n1', used]])))).toBe(
      '0/1 nodes are available: 1 Insufficient cpu.',
    );
    expect(placed(schedulePod(pod({}, '500m'), [node('n1')], new Map([['n1', used]])))).toBe('n1');
    expect(placed(schedulePod(pod(), [node('n1', { pods: '1' })], new Map([['n1', used]])))).toBe(
      '0/1 nodes are available: 1 Too many pods.',
    );
  });

  it('matches required node affinity: In, NotIn, Exists, DoesNotExist, Gt, Lt and metadata.name', () => {
    const nodes = [
      node('a', { labels: { zone: 'x', gen: '3' } }),
      node('b', { labels: { zone: 'y', gen: '7' } }),
      node('c', { labels: {} }),
    ];
    const affinity = (terms: object[]) =>
      pod({
        affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } } },
      } as never);
    const only = (terms: object[]) => placed(schedulePod(affinity(terms), nodes, new Map()));
    expect(only([{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['y'] }] }])).toBe('b');
    expect(only([{ matchExpressions: [{ key: 'zone', operator: 'NotIn', values: ['x', 'y'] }] }])).toBe('c');
    expect(only([{ matchExpressions: [{ key: 'zone', operator: 'DoesNotExist' }] }])).toBe('c');
    expect(only([{ matchExpressions: [{ key: 'gen', operator: 'Gt', values: ['5'] }] }])).toBe('b');
    expect(only([{ matchExpressions: [{ key: 'gen', operator: 'Lt', values: ['5'] }] }])).toBe('a');
    expect(only([{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['c'] }] }])).toBe('c');
    // Terms are ORed; an empty term matches nothing.
    expect(
      only([
        {},
        {
          matchExpressions: [
            { key: 'zone', operator: 'Exists' },
            { key: 'gen', operator: 'Gt', values: ['4'] },
          ],
        },
      ]),
    ).toBe('b');
  });

  it('spreads pods over nodes by least requested', () => {
    const usage = new Map<string, NodeUsage>();
    const nodes = [node('a'), node('b'), node('c')];
    const placements: string[] = [];
    for (let i = 0; i < 6; i++) {
      const p = pod({}, '500m');
      const d = schedulePod(p, nodes, usage);
      const name = placed(d)!;
      placements.push(name);
      if (!usage.has(name)) usage.set(name, emptyUsage());
      addPod(usage.get(name)!, p);
    }
    expect(placements.filter((n) => n === 'a')).toHaveLength(2);
    expect(placements.filter((n) => n === 'b')).toHaveLength(2);
    expect(placements.filter((n) => n === 'c')).toHaveLength(2);
  });

  it('keeps hard topology spread constraints: maxSkew per zone over the matching pods of the namespace', () => {
    // Zone a is the emptiest by resources, yet already holds a matching pod; the pod must go to zone b.
    const nodes = [
      node('a1', { labels: { zone: 'a' }, cpu: '64' }),
      node('b1', { labels: { zone: 'b' } }),
      node('x', {}),
    ];
    const spread = {
      topologySpreadConstraints: [
        {
          maxSkew: 1,
          topologyKey: 'zone',
          whenUnsatisfiable: 'DoNotSchedule',
          labelSelector: { matchLabels: { app: 'web' } },
        },
      ],
    };
    const web = (nodeName?: string, namespace = 'default'): Pod => ({
      ...pod({ ...spread, nodeName }),
      metadata: { name: `w-${nodeName}`, namespace, labels: { app: 'web' } },
    });
    expect(placed(schedulePod(web(), nodes, new Map(), [web('a1')]))).toBe('b1');
    // Without the constraint least-requested scoring picks the big node.
    expect(placed(schedulePod({ ...web(), spec: pod().spec }, nodes, new Map(), [web('a1')]))).toBe('a1');
    // Pods of other namespaces and other labels do not count; a balanced state allows either zone.
    expect(placed(schedulePod(web(), nodes, new Map(), [web('b1', 'other'), web('a1', 'other')]))).toBe('a1');
    expect(placed(schedulePod(web(), nodes, new Map(), [web('a1'), web('b1')]))).toBe('a1');
    // Node x has no zone label: never a candidate under the constraint.
    expect(placed(schedulePod(web(), [nodes[2]], new Map(), []))).toBe(
      "0/1 nodes are available: 1 node(s) didn't match pod topology spread constraints (missing required label).",
    );
    // A cordoned node's zone still counts as a domain (with no pods): zone a may not take a second pod.
    const cordoned = [nodes[0], node('b1', { labels: { zone: 'b' }, unschedulable: true })];
    expect(placed(schedulePod(web(), cordoned, new Map(), [web('a1')]))).toBe(
      "0/2 nodes are available: 1 node(s) didn't match pod topology spread constraints, 1 node(s) were unschedulable.",
    );
    // minDomains larger than the domains there are: the global minimum is 0.
    const minDomains = { topologySpreadConstraints: [{ ...spread.topologySpreadConstraints[0], minDomains: 3 }] };
    const wide = { ...web(), spec: pod(minDomains).spec };
    expect(placed(schedulePod(wide, nodes.slice(0, 2), new Map(), [web('a1'), web('b1')]))).toBe(
      "0/2 nodes are available: 2 node(s) didn't match pod topology spread constraints.",
    );
  });
});

// The property: a pod is bound only to a node that satisfies all its constraints, and is unschedulable only when
// no node does. The oracle below states each constraint directly.
const TAINTS: Taint[] = [
  { key: 'dedicated', value: 'x', effect: 'NoSchedule' },
  { key: 'gpu', effect: 'NoExecute' },
  { key: 'soft', effect: 'PreferNoSchedule' },
];
const TOLERATIONS: Toleration[] = [
  { key: 'dedicated', operator: 'Equal', value: 'x', effect: 'NoSchedule' },
  { key: 'dedicated', operator: 'Equal', value: 'y' },
  { key: 'gpu', operator: 'Exists' },
  { operator: 'Exists' },
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
];
const LABEL_KEYS = ['zone', 'disk', 'gen'];
const LABEL_VALUES = ['a', 'b', '1', '5', '9'];

const labelsArb = fc.dictionary(fc.constantFrom(...LABEL_KEYS), fc.constantFrom(...LABEL_VALUES), { maxKeys: 3 });
const nodeArb = (name: string) =>
  fc
    .record({
      labels: labelsArb,
      taints: fc.subarray(TAINTS),
      unschedulable: fc.boolean(),
      ready: fc.constantFrom('True', 'True', 'False'),
      cpuMilli: fc.integer({ min: 500, max: 4000 }),
      usedMilli: fc.integer({ min: 0, max: 4000 }),
    })
    .map((n) => ({ name, ...n }));
const requirementArb = fc.record({
  key: fc.constantFrom(...LABEL_KEYS),
  operator: fc.constantFrom('In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt'),
  values: fc.array(fc.constantFrom(...LABEL_VALUES), { minLength: 0, maxLength: 2 }),
});
const podArb = fc.record({
  nodeSelector: fc.dictionary(fc.constantFrom(...LABEL_KEYS), fc.constantFrom(...LABEL_VALUES), { maxKeys: 1 }),
  terms: fc.option(
    fc.array(
      fc.record({
        exprs: fc.array(requirementArb, { maxLength: 2 }),
        names: fc.option(fc.subarray(['n0', 'n1', 'n2'])),
      }),
      { minLength: 1, maxLength: 2 },
    ),
  ),
  tolerations: fc.subarray(TOLERATIONS),
  cpuMilli: fc.integer({ min: 0, max: 3000 }),
});

type GenNode = ReturnType<typeof nodeArb> extends fc.Arbitrary<infer N> ? N : never;
type GenPod = typeof podArb extends fc.Arbitrary<infer P> ? P : never;

function oracle(p: GenPod, n: GenNode): boolean {
  const tolerated = (key: string, value: string | undefined, effect: string) =>
    p.tolerations.some(
      (t) =>
        (t.effect === undefined || t.effect === effect) &&
        (t.operator === 'Exists' ? !t.key || t.key === key : t.key === key && (t.value ?? '') === (value ?? '')),
    );
  if (n.unschedulable && !tolerated('node.kubernetes.io/unschedulable', undefined, 'NoSchedule')) return false;
  if (n.ready !== 'True' && !tolerated('node.kubernetes.io/not-ready', undefined, 'NoSchedule')) return false;
  for (const t of n.taints) if (t.effect !== 'PreferNoSchedule' && !tolerated(t.key, t.value, t.effect)) return false;
  for (const [k, v] of Object.entries(p.nodeSelector)) if (n.labels[k] !== v) return false;
  if (p.terms) {
    const holds = (
      r: GenPod['terms'] extends (infer T)[] | null ? (T extends { exprs: (infer R)[] } ? R : never) : never,
    ) => {
      const v = n.labels[r.key];
      // kube's NewRequirement: In/NotIn need values, Exists/DoesNotExist none; a requirement that does not
      // convert fails its whole term.
      if (r.operator === 'In') return r.values.length > 0 && v !== undefined && r.values.includes(v);
      if (r.operator === 'NotIn') return r.values.length > 0 && (v === undefined || !r.values.includes(v));
      if (r.operator === 'Exists') return r.values.length === 0 && v !== undefined;
      if (r.operator === 'DoesNotExist') return r.values.length === 0 && v === undefined;
      if (v === undefined || r.values.length !== 1 || !/^\d+$/.test(v) || !/^\d+$/.test(r.values[0])) return false;
      return r.operator === 'Gt' ? Number(v) > Number(r.values[0]) : Number(v) < Number(r.values[0]);
    };
    // kube's matchFields take In with exactly one value (nodeSelectorRequirementsAsFieldSelector); any other term
    // with matchFields does not convert and matches no node.
    const termHolds = (t: NonNullable<GenPod['terms']>[number]) =>
      (t.exprs.length > 0 || t.names !== null) &&
      t.exprs.every(holds) &&
      (t.names === null || (t.names.length === 1 && t.names[0] === n.name));
    if (!p.terms.some(termHolds)) return false;
  }
  // kube's NodeResourcesFit checks only what the pod requests: a pod asking no cpu fits an overcommitted node.
  return p.cpuMilli === 0 || n.usedMilli + p.cpuMilli <= n.cpuMilli;
}

function toPod(p: GenPod): Pod {
  const nodeSelectorTerms = p.terms?.map((t) => ({
    ...(t.exprs.length ? { matchExpressions: t.exprs } : {}),
    ...(t.names !== null ? { matchFields: [{ key: 'metadata.name', operator: 'In', values: t.names }] } : {}),
  }));
  return pod(
    {
      nodeSelector: p.nodeSelector,
      tolerations: p.tolerations,
      ...(nodeSelectorTerms
        ? { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms } } } }
        : {}),
    },
    p.cpuMilli ? `${p.cpuMilli}m` : undefined,
  );
}

describe('scheduler filter (property)', () => {
  it('binds a pod only to a node that satisfies all its constraints, and only gives up when none does', () => {
    fc.assert(
      fc.property(fc.tuple(nodeArb('n0'), nodeArb('n1'), nodeArb('n2')), podArb, (genNodes, genPod) => {
        const nodes = genNodes.map((n) =>
          node(n.name, {
            labels: n.labels,
            taints: n.taints,
            unschedulable: n.unschedulable,
            ready: n.ready,
            cpu: `${n.cpuMilli}m`,
          }),
        );
        const usage = new Map(
          genNodes.map((n) => {
            const u = emptyUsage();
            u.requested.set('cpu', n.usedMilli);
            return [n.name, u] as const;
          }),
        );
        const decision = schedulePod(toPod(genPod), nodes, usage);
        if ('node' in decision) {
          expect(
            oracle(
              genPod,
              genNodes.find((n) => n.name === decision.node.metadata?.name)!,
            ),
          ).toBe(true);
        } else {
          expect(genNodes.filter((n) => oracle(genPod, n))).toEqual([]);
        }
      }),
      {
        numRuns: 500,
        // A pod requesting no cpu on a node whose bound pods already exceed its allocatable cpu (CI, stop 11).
        examples: [
          [
            [
              { name: 'n0', labels: {}, taints: [], unschedulable: false, ready: 'True', cpuMilli: 500, usedMilli: 0 },
              { name: 'n1', labels: {}, taints: [], unschedulable: false, ready: 'True', cpuMilli: 500, usedMilli: 0 },
              {
                name: 'n2',
                labels: {},
                taints: [],
                unschedulable: false,
                ready: 'True',
                cpuMilli: 501,
                usedMilli: 502,
              },
            ],
            { nodeSelector: {}, terms: null, tolerations: [], cpuMilli: 0 },
          ],
        ],
      },
    );
  });
});
