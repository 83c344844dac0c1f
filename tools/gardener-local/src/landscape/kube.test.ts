import { describe, expect, it } from 'vitest';
import { notEstablished } from './kube.js';

describe('notEstablished', () => {
  it('names the CRDs whose Established condition is not True, as kubectl get crd -o json lists them', () => {
    const crd = (name: string, conditions?: { type: string; status: string }[]) => ({
      metadata: { name },
      ...(conditions ? { status: { conditions } } : {}),
    });
    expect(
      notEstablished({
        items: [
          crd('shoots.core.gardener.cloud', [
            { type: 'NamesAccepted', status: 'True' },
            { type: 'Established', status: 'True' },
          ]),
          crd('seeds.core.gardener.cloud', [{ type: 'Established', status: 'False' }]),
          crd('workers.extensions.gardener.cloud', [{ type: 'NamesAccepted', status: 'True' }]),
          crd('dnsrecords.extensions.gardener.cloud'),
        ],
      }),
    ).toEqual([
      'seeds.core.gardener.cloud',
      'workers.extensions.gardener.cloud',
      'dnsrecords.extensions.gardener.cloud',
    ]);
    expect(notEstablished({ items: [] })).toEqual([]);
  });
});
