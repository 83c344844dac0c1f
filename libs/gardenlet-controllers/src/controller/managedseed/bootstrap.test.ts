// Issuing a ManagedSeed's bootstrap kubeconfig in a fake garden: a new token, reuse while valid, an expired token
// issued again with its secret kept.
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { FakeCluster } from '../../../test/support/fake-cluster.js';
import { bootstrapTokenID } from '../../charts/gardenlet-chart.js';
import { issueBootstrapKubeconfig } from './bootstrap.js';

const owner = { namespace: 'garden', name: 'infra' };
const cluster = { server: 'https://garden:443' };
const decode = (v: string) => Buffer.from(v, 'base64').toString();

describe('issueBootstrapKubeconfig', () => {
  it('issues a bootstrap token valid 24 h, reuses it while valid, and renews an expired one', async () => {
    const garden = new FakeCluster();
    let now = new Date('2026-11-30T12:00:00Z');
    const deps = { garden: garden as never, requestServiceAccountToken: async () => '', now: () => now };
    const id = bootstrapTokenID(owner);
    const first = parse(await issueBootstrapKubeconfig(deps, owner, 'BootstrapToken', cluster));
    const stored = () => garden.find('Secret', `bootstrap-token-${id}`, 'kube-system')!;
    const secret = decode(stored().data['token-secret']);
    expect(first.users[0].user.token).toBe(`${id}.${secret}`);
    expect(first.clusters[0].cluster).toEqual(cluster);
    expect(decode(stored().data.expiration)).toBe('2026-12-01T12:00:00Z');

    garden.calls.length = 0;
    now = new Date('2026-12-01T11:00:00Z');
    await issueBootstrapKubeconfig(deps, owner, 'BootstrapToken', cluster);
    expect(garden.calls).toEqual([]);

    now = new Date('2026-12-01T13:00:00Z');
    const renewed = parse(await issueBootstrapKubeconfig(deps, owner, 'BootstrapToken', cluster));
    expect(renewed.users[0].user.token).toBe(`${id}.${secret}`);
    expect(decode(stored().data.expiration)).toBe('2026-12-02T13:00:00Z');
  });
});
