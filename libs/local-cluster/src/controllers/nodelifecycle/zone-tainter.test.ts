import { describe, expect, it } from 'vitest';
import type { Node } from '../shared/kinds.js';
import { DEFAULT_ZONE_RATES, type ZoneRateOptions } from './zone-state.js';
import { ZoneTainter } from './zone-tainter.js';

const node = (
  name: string,
  zone: string | undefined,
  ready: string | undefined,
  labels: Record<string, string> = {},
): Node => ({
  metadata: {
    name,
    uid: `uid-${name}`,
    labels: { ...labels, ...(zone ? { 'topology.kubernetes.io/zone': zone } : {}) },
  },
  status: { conditions: ready ? [{ type: 'Ready', status: ready }] : [] },
});
const key = (zone: string) => `:\x00:${zone}`;

function setup(options: Partial<ZoneRateOptions> = {}) {
  let t = 1_000_000;
  const zones = new ZoneTainter({ ...DEFAULT_ZONE_RATES, ...options }, () => t);
  /** One taint pass; the names tainted (every request succeeds). */
  const pass = async () => {
    const tainted: string[] = [];
    await zones.taintPass(async (v) => {
      tainted.push(v.value);
      return true;
    });
    return tainted;
  };
  return { zones, pass, advance: (ms: number) => (t += ms) };
}

describe('ZoneTainter', () => {
  it('taints one node per 10 s per zone at the default rate, zones independently', async () => {
    const { zones, pass, advance } = setup();
    const nodes = [
      ...['a1', 'a2', 'a3', 'a4'].map((n, i) => node(n, 'a', i < 2 ? 'Unknown' : 'True')),
      ...['b1', 'b2', 'b3'].map((n, i) => node(n, 'b', i < 1 ? 'False' : 'True')),
    ];
    expect(zones.handleDisruption(nodes).changes).toEqual([
      { zone: key('a'), state: 'Normal' },
      { zone: key('b'), state: 'Normal' },
    ]);
    for (const n of nodes.filter((n) => n.status!.conditions![0].status !== 'True'))
      expect(zones.enqueue(n)).toBe(true);
    expect(zones.enqueue(nodes[0])).toBe(false);
    expect(await pass()).toEqual(['a1', 'b1']);
    advance(9_000);
    expect(await pass()).toEqual([]);
    advance(1_000);
    expect(await pass()).toEqual(['a2']);
    expect(zones.queued('a2')).toBe(false);
    // Nothing changed: no state changes reported again.
    expect(zones.handleDisruption(nodes).changes).toEqual([]);
  });

  it("reports zone health as kube's metrics count it, leaving out nodes without Ready condition and excluded ones", () => {
    const { zones } = setup();
    const result = zones.handleDisruption([
      node('a1', 'a', 'True'),
      node('a2', 'a', 'Unknown'),
      node('a3', 'a', undefined),
      node('a4', 'a', 'False', { 'node.kubernetes.io/exclude-disruption': '' }),
      node('d1', undefined, 'True'),
    ]);
    expect(result.health).toEqual(
      new Map([
        [key('a'), { size: 2, unhealthy: 1, health: 50 }],
        ['', { size: 1, unhealthy: 0, health: 100 }],
      ]),
    );
  });

  it('stops tainting in a partially disrupted zone of a small cluster and resumes when it is Normal again', async () => {
    const { zones, pass, advance } = setup();
    const nodes = ['a1', 'a2', 'a3', 'a4'].map((n, i) => node(n, 'a', i < 3 ? 'Unknown' : 'True'));
    expect(zones.handleDisruption(nodes).changes).toEqual([{ zone: key('a'), state: 'PartialDisruption' }]);
    expect(zones.rate(key('a'))).toBe(0);
    for (const n of nodes.slice(0, 3)) zones.enqueue(n);
    advance(600_000);
    expect(await pass()).toEqual([]);
    // a1 and a2 come back: one of four not ready is Normal, and the queue runs at the normal rate (a3 is still queued).
    zones.dequeue('a1');
    zones.dequeue('a2');
    nodes[0].status!.conditions![0].status = 'True';
    nodes[1].status!.conditions![0].status = 'True';
    expect(zones.handleDisruption(nodes).changes).toEqual([{ zone: key('a'), state: 'Normal' }]);
    expect(zones.rate(key('a'))).toBe(0.1);
    // The stopped limiter had no token, so the new one starts drained: the first taint comes after 10 s.
    expect(await pass()).toEqual([]);
    advance(10_000);
    expect(await pass()).toEqual(['a3']);
  });

  it('taints a partially disrupted zone larger than the large-cluster threshold at the secondary rate', async () => {
    const { zones, pass, advance } = setup({ largeClusterSizeThreshold: 3 });
    const nodes = ['a1', 'a2', 'a3', 'a4'].map((n, i) => node(n, 'a', i < 3 ? 'Unknown' : 'True'));
    expect(zones.handleDisruption(nodes).changes).toEqual([{ zone: key('a'), state: 'PartialDisruption' }]);
    expect(zones.rate(key('a'))).toBe(0.01);
    for (const n of nodes.slice(0, 3)) zones.enqueue(n);
    expect(await pass()).toEqual(['a1']);
    advance(99_999);
    expect(await pass()).toEqual([]);
    advance(1);
    expect(await pass()).toEqual(['a2']);
  });

  it('keeps the normal rate in a fully disrupted zone while another zone is not', () => {
    const { zones } = setup();
    const result = zones.handleDisruption([
      node('a1', 'a', 'Unknown'),
      node('a2', 'a', 'Unknown'),
      node('b1', 'b', 'True'),
    ]);
    expect(result.masterDisruption).toBeUndefined();
    expect(result.changes).toContainEqual({ zone: key('a'), state: 'FullDisruption' });
    expect(zones.rate(key('a'))).toBe(0.1);
  });

  it('enters master disruption when every zone is fully disrupted, stops all tainting, and exits when a node is Ready again', async () => {
    const { zones, pass, advance } = setup();
    const nodes = [node('a1', 'a', 'True'), node('a2', 'a', 'True'), node('b1', 'b', 'True')];
    zones.handleDisruption(nodes);
    for (const n of nodes) n.status!.conditions![0].status = 'Unknown';
    const entered = zones.handleDisruption(nodes);
    expect(entered.masterDisruption).toBe('enter');
    expect(entered.changes).toEqual([]);
    expect([zones.state(key('a')), zones.state(key('b'))]).toEqual(['FullDisruption', 'FullDisruption']);
    expect([zones.rate(key('a')), zones.rate(key('b'))]).toEqual([0, 0]);
    for (const n of nodes) zones.enqueue(n);
    advance(600_000);
    expect(await pass()).toEqual([]);
    // Still all down: nothing new.
    const again = zones.handleDisruption(nodes);
    expect([again.masterDisruption, again.changes]).toEqual([undefined, []]);

    nodes[2].status!.conditions![0].status = 'True';
    zones.dequeue('b1');
    const exited = zones.handleDisruption(nodes);
    expect(exited.masterDisruption).toBe('exit');
    expect([zones.state(key('a')), zones.state(key('b'))]).toEqual(['FullDisruption', 'Normal']);
    // Zone a is fully disrupted while b is not: it is tainted at the normal rate again.
    expect([zones.rate(key('a')), zones.rate(key('b'))]).toEqual([0.1, 0.1]);
    advance(10_000);
    expect(await pass()).toEqual(['a1']);
  });

  it('enters master disruption on the first pass when every node is down from the start', () => {
    const { zones } = setup();
    expect(zones.handleDisruption([node('a1', 'a', 'Unknown')]).masterDisruption).toBe('enter');
    expect(zones.handleDisruption([]).masterDisruption).toBeUndefined();
    expect(zones.state(key('a'))).toBeUndefined();
  });
});
