// The scheduler's inter-pod affinity and scoring against the local API server and test kubelet nodes: HA control
// plane replicas with required anti-affinity, preferred zone anti-affinity and pod affinity.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@gardener-ts/test-support';
import { EventKind, type Pod, PodKind } from '../../src/controllers/shared/kinds.js';
import { pod } from './support/fixtures.js';
import { type Harness, startHarness } from './support/harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness(['scheduler']);
});
afterAll(() => h?.stop());

const ZONE = 'topology.kubernetes.io/zone';
const HOSTNAME = 'kubernetes.io/hostname';
const key = (name: string) => ({ namespace: 'default', name });
const scheduledCondition = (p: Pod) => p.status?.conditions?.find((c) => c.type === 'PodScheduled');
const term = (app: string, topologyKey: string) => ({ topologyKey, labelSelector: { matchLabels: { app } } });
const big = { cpu: '64', memory: '256Gi', pods: '110' };
/** A replica of `app` on the nodes of `pool`, asking for 1 cpu and 1Gi. */
const replica = (name: string, app: string, pool: string, affinity: NonNullable<Pod['spec']>['affinity'] = {}) =>
  pod(
    name,
    { app },
    {
      nodeSelector: { pool },
      affinity,
      containers: [{ name: 'app', image: 'app:v1', resources: { requests: { cpu: '1', memory: '1Gi' } } }],
    },
  );
const boundNode = async (name: string) =>
  (await h.eventually(`${name} to be bound`, PodKind, key(name), (p) => !!p.spec?.nodeName, 30_000)).spec!.nodeName!;

describe('scheduler: inter-pod affinity', () => {
  it('places three replicas with required hostname anti-affinity one per node, and keeps a fourth Pending', async () => {
    // ha-1 is by far the roomiest: without anti-affinity every replica would go there.
    await h.kubelet.addNode('ha-1', { labels: { pool: 'ha', [ZONE]: 'a' }, allocatable: big });
    await h.kubelet.addNode('ha-2', { labels: { pool: 'ha', [ZONE]: 'b' } });
    await h.kubelet.addNode('ha-3', { labels: { pool: 'ha', [ZONE]: 'c' } });
    const anti = { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term('etcd', HOSTNAME)] } };
    // Created at once, as a ReplicaSet does: the scheduler must count the replicas it has just bound.
    await Promise.all(['etcd-0', 'etcd-1', 'etcd-2'].map((name) => h.api.create(replica(name, 'etcd', 'ha', anti))));
    const placed = await Promise.all(['etcd-0', 'etcd-1', 'etcd-2'].map(boundNode));
    expect(placed.sort()).toEqual(['ha-1', 'ha-2', 'ha-3']);

    await h.api.create(replica('etcd-3', 'etcd', 'ha', anti));
    const waiting = await h.eventually(
      'etcd-3 Unschedulable',
      PodKind,
      key('etcd-3'),
      (p) => scheduledCondition(p)?.status === 'False',
      30_000,
    );
    expect(scheduledCondition(waiting)).toMatchObject({
      reason: 'Unschedulable',
      message: "0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules.",
    });
    const event = await waitFor('a FailedScheduling event for etcd-3', async () =>
      (await h.api.list(EventKind, { namespace: 'default' })).items.find(
        (e) => e.involvedObject.name === 'etcd-3' && e.reason === 'FailedScheduling',
      ),
    );
    expect(event.message).toBe("0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules.");

    // A replica going away frees its node for the waiting one.
    const onHa2 = (await h.api.list(PodKind, { namespace: 'default' })).items.find(
      (p) => p.spec?.nodeName === 'ha-2' && p.metadata?.labels?.app === 'etcd',
    )!;
    await h.api.delete(PodKind, key(onHa2.metadata!.name!));
    expect(await boundNode('etcd-3')).toBe('ha-2');
  });

  it('keeps a pod out of the domain of a bound pod whose required anti-affinity selects it', async () => {
    await h.kubelet.addNode('sym-1', { labels: { pool: 'sym', [ZONE]: 'a' }, allocatable: big });
    await h.kubelet.addNode('sym-2', { labels: { pool: 'sym', [ZONE]: 'b' } });
    await h.api.create(
      replica('loner', 'loner', 'sym', {
        podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term('noisy', ZONE)] },
      }),
    );
    const lonerNode = await boundNode('loner');
    expect(lonerNode).toBe('sym-1');
    await h.api.create(replica('noisy', 'noisy', 'sym'));
    expect(await boundNode('noisy')).toBe('sym-2');
  });

  it('spreads replicas over zones with preferred zone anti-affinity, where resources alone would fill one zone', async () => {
    await h.kubelet.addNode('pref-a1', { labels: { pool: 'pref', [ZONE]: 'a' }, allocatable: big });
    await h.kubelet.addNode('pref-a2', { labels: { pool: 'pref', [ZONE]: 'a' }, allocatable: big });
    await h.kubelet.addNode('pref-b', { labels: { pool: 'pref', [ZONE]: 'b' } });
    await h.kubelet.addNode('pref-c', { labels: { pool: 'pref', [ZONE]: 'c' } });
    const zoneOf = (node: string) => ({ 'pref-a1': 'a', 'pref-a2': 'a', 'pref-b': 'b', 'pref-c': 'c' })[node];
    const preferred = {
      podAntiAffinity: {
        preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 100, podAffinityTerm: term('kapi', ZONE) }],
      },
    };
    const zones: string[] = [];
    for (const name of ['kapi-0', 'kapi-1', 'kapi-2']) {
      await h.api.create(replica(name, 'kapi', 'pref', preferred));
      zones.push(zoneOf(await boundNode(name))!);
    }
    expect(zones.sort()).toEqual(['a', 'b', 'c']);
    // Without the preference the same replicas stay in the roomy zone a.
    for (const name of ['plain-0', 'plain-1', 'plain-2']) await h.api.create(replica(name, 'plain', 'pref'));
    const plainZones = await Promise.all(
      ['plain-0', 'plain-1', 'plain-2'].map(async (n) => zoneOf(await boundNode(n))),
    );
    expect(plainZones).toEqual(['a', 'a', 'a']);
  });

  it('co-locates a pod with required pod affinity, waiting until its partner is bound', async () => {
    await h.kubelet.addNode('co-1', { labels: { pool: 'co' }, allocatable: big });
    await h.kubelet.addNode('co-2', { labels: { pool: 'co' } });
    const follower = replica('follower', 'follower', 'co', {
      podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term('leader', HOSTNAME)] },
    });
    await h.api.create(follower);
    const waiting = await h.eventually(
      'follower Unschedulable',
      PodKind,
      key('follower'),
      (p) => scheduledCondition(p)?.status === 'False',
      30_000,
    );
    expect(scheduledCondition(waiting)?.message).toContain("2 node(s) didn't match pod affinity rules");
    // The leader goes to the small node; the follower joins it there, not on the roomy one.
    await h.api.create(pod('leader', { app: 'leader' }, { nodeSelector: { [HOSTNAME]: 'co-2' } }));
    expect(await boundNode('leader')).toBe('co-2');
    expect(await boundNode('follower')).toBe('co-2');
    // A pod with affinity to its own kind goes first anywhere, and the next one joins it.
    const self = { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term('flock', HOSTNAME)] } };
    await h.api.create(replica('flock-0', 'flock', 'co', self));
    const first = await boundNode('flock-0');
    await h.api.create(replica('flock-1', 'flock', 'co', self));
    expect(await boundNode('flock-1')).toBe(first);
  });
});
