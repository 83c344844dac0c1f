// End to end: the node-agent reconciliation delay controller annotates the Nodes of the target cluster, spread over
// [minDelay, maxDelay) by node name, and spreads again when Nodes come and go.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kind } from '@gardener-ts/controller-runtime';
import { startLandscape, waitFor, type Landscape } from './harness.js';

const NodeK = kind<{ metadata?: any }>('v1', 'Node');
const DELAY = 'node-agent.gardener.cloud/reconciliation-delay';
let land: Landscape;

async function delays(): Promise<Record<string, string | undefined>> {
  const list = await land.tgt.list(NodeK);
  return Object.fromEntries(list.items.map((n) => [n.metadata.name, n.metadata.annotations?.[DELAY]]));
}
const createNode = (name: string) => land.tgt.create({ apiVersion: 'v1', kind: 'Node', metadata: { name } });

beforeAll(async () => {
  land = await startLandscape((config) => {
    config.controllers.nodeAgentReconciliationDelay = { enabled: true, minDelay: '10s', maxDelay: '1m10s' };
  });
  // Two nodes exist before the start: the first reconciliation annotates both.
  await createNode('node-b');
  await createNode('node-a');
  await land.start();
}, 60_000);

afterAll(async () => {
  await land?.stop();
});

describe('node-agent reconciliation delay', () => {
  it('annotates existing nodes, sorted by name, from minDelay in steps of (max-min)/n', async () => {
    const got = await waitFor(
      'both nodes annotated',
      async () => {
        const d = await delays();
        return d['node-a'] && d['node-b'] ? d : undefined;
      },
      { timeoutMs: 15_000 },
    );
    expect(got).toEqual({ 'node-a': '10s', 'node-b': '40s' });
  });

  it('spreads again when a node is added and when one is deleted', async () => {
    await createNode('node-c');
    await createNode('node-0');
    const expected = { 'node-0': '10s', 'node-a': '25s', 'node-b': '40s', 'node-c': '55s' };
    await waitFor(
      'four nodes spread',
      async () => JSON.stringify(await delays()) === JSON.stringify(expected) || undefined,
      { timeoutMs: 15_000 },
    ).catch(async (err) => {
      throw new Error(`${(err as Error).message}: ${JSON.stringify(await delays())}`);
    });

    await land.tgt.delete(NodeK, { name: 'node-0' });
    const three = { 'node-a': '10s', 'node-b': '30s', 'node-c': '50s' };
    await waitFor(
      'three nodes spread',
      async () => JSON.stringify(await delays()) === JSON.stringify(three) || undefined,
      { timeoutMs: 15_000 },
    ).catch(async (err) => {
      throw new Error(`${(err as Error).message}: ${JSON.stringify(await delays())}`);
    });
  });

  it('leaves the annotation alone on other node changes (only creations and deletions count)', async () => {
    await land.tgt.patch(
      NodeK,
      { name: 'node-a' },
      { type: 'merge', patch: { metadata: { annotations: { [DELAY]: '99s' }, labels: { touched: 'yes' } } } },
    );
    await new Promise((r) => setTimeout(r, 2_000));
    expect((await delays())['node-a']).toBe('99s');
  });
});
