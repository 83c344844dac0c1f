import { describe, expect, it } from 'vitest';
import type { ReconcileContext } from '@gardener-ts/controller-runtime';
import { AnnotationNodeAgentReconciliationDelay, reconciliationDelays } from './delay.js';
import { NodeAgentReconciliationDelay } from './reconcile.js';

describe('reconciliationDelays', () => {
  it('spreads the nodes, sorted by name, evenly over [min, max)', () => {
    const delays = reconciliationDelays(['node-c', 'node-a', 'node-d', 'node-b'], 0, 300_000);
    expect([...delays.entries()]).toEqual([
      ['node-a', '0s'],
      ['node-b', '1m15s'],
      ['node-c', '2m30s'],
      ['node-d', '3m45s'],
    ]);
  });

  it('starts at minDelay', () => {
    const delays = reconciliationDelays(['b', 'a', 'c'], 60_000, 120_000);
    expect(Object.fromEntries(delays)).toEqual({ a: '1m0s', b: '1m20s', c: '1m40s' });
  });

  it('keeps fractions of seconds like Go (float seconds truncated to nanoseconds)', () => {
    // (300 s - 0 s) / 7 = 42.857142857... s
    const delays = reconciliationDelays(['n0', 'n1', 'n2', 'n3', 'n4', 'n5', 'n6'], 0, 300_000);
    expect(delays.get('n0')).toBe('0s');
    expect(delays.get('n1')).toBe('42.857142857s');
    expect(delays.get('n6')).toBe('4m17.142857142s');
  });

  it('gives a single node minDelay, and everyone minDelay when min = max', () => {
    expect(Object.fromEntries(reconciliationDelays(['only'], 10_000, 300_000))).toEqual({ only: '10s' });
    expect(Object.fromEntries(reconciliationDelays(['a', 'b'], 30_000, 30_000))).toEqual({ a: '30s', b: '30s' });
  });
});

describe('NodeAgentReconciliationDelay', () => {
  const ctx = { log: { debug: () => undefined, info: () => undefined } } as unknown as ReconcileContext;
  function fakeTarget(names: string[]) {
    const nodes = new Map(names.map((n) => [n, { metadata: { name: n, annotations: {} as Record<string, string> } }]));
    const patches: Array<{ name: string; delay: string }> = [];
    return {
      nodes,
      patches,
      client: {
        list: async () => ({ items: [...nodes.values()].map((n) => structuredClone(n)) }),
        patch: async (_k: unknown, key: { name: string }, p: { patch: any }) => {
          const delay = p.patch.metadata.annotations[AnnotationNodeAgentReconciliationDelay];
          patches.push({ name: key.name, delay });
          nodes.get(key.name)!.metadata.annotations[AnnotationNodeAgentReconciliationDelay] = delay;
          return {};
        },
      },
    };
  }

  it('annotates every node, does nothing while the set of nodes is unchanged, and re-spreads on a change', async () => {
    const t = fakeTarget(['b', 'a']);
    const r = new NodeAgentReconciliationDelay({ target: t.client as any, minDelayMs: 0, maxDelayMs: 300_000 });
    await r.reconcile({ namespace: '', name: 'a' }, ctx);
    expect(t.patches.sort((x, y) => x.name.localeCompare(y.name))).toEqual([
      { name: 'a', delay: '0s' },
      { name: 'b', delay: '2m30s' },
    ]);
    t.patches.length = 0;
    await r.reconcile({ namespace: '', name: 'b' }, ctx);
    expect(t.patches).toEqual([]);

    t.nodes.set('c', { metadata: { name: 'c', annotations: {} } });
    await r.reconcile({ namespace: '', name: 'c' }, ctx);
    expect(
      Object.fromEntries(
        [...t.nodes].map(([n, o]) => [n, o.metadata.annotations[AnnotationNodeAgentReconciliationDelay]]),
      ),
    ).toEqual({
      a: '0s',
      b: '1m40s',
      c: '3m20s',
    });
    // Every node is written again (a stale cache must not hide an outdated value).
    expect(t.patches.map((p) => p.name).sort()).toEqual(['a', 'b', 'c']);
  });
});
