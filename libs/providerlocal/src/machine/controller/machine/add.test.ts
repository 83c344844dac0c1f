import { describe, expect, it } from 'vitest';
import type { Client } from '@gardener-ts/controller-runtime';
import { machinesOfNode } from './add.js';

describe('machinesOfNode (the mapper of the shoot Node watch)', () => {
  it('enqueues the Machines of the namespace whose node label names the Node', async () => {
    const asked: unknown[] = [];
    const seed = {
      list: async (_kind: unknown, opts: unknown) => {
        asked.push(opts);
        return { items: [{ metadata: { name: 'm1' } }] };
      },
    } as unknown as Pick<Client, 'list'>;
    expect(await machinesOfNode(seed)('shoot--a', 'machine-m1')).toEqual([{ namespace: 'shoot--a', name: 'm1' }]);
    expect(asked).toEqual([{ namespace: 'shoot--a', labelSelector: { node: 'machine-m1' } }]);
    expect(await machinesOfNode(seed)('shoot--a', '')).toEqual([]);
  });
});
