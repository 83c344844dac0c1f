// The scheduler against the local API server: binding through pods/binding, Unschedulable conditions and Events,
// and retries when nodes or pods change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@gardener-ts/test-support';
import { EventKind, NodeKind, type Pod, PodKind } from '../../src/controllers/shared/kinds.js';
import { pod } from './support/fixtures.js';
import { type Harness, startHarness } from './support/harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness(['scheduler']);
});
afterAll(() => h?.stop());

const key = (name: string) => ({ namespace: 'default', name });
const scheduledCondition = (p: Pod) => p.status?.conditions?.find((c) => c.type === 'PodScheduled');
const eventsFor = async (name: string) =>
  (await h.api.list(EventKind, { namespace: 'default' })).items.filter((e) => e.involvedObject.name === name);

describe('scheduler', () => {
  it('binds a pod to a ready node and records a Scheduled event', async () => {
    await h.kubelet.addNode('plain');
    await h.api.create(pod('first', {}, { nodeSelector: { 'kubernetes.io/hostname': 'plain' } }));
    const bound = await h.eventually('first to be bound', PodKind, key('first'), (p) => p.spec?.nodeName === 'plain');
    expect(scheduledCondition(bound)?.status).toBe('True');
    const events = await waitFor('a Scheduled event', async () =>
      (await eventsFor('first')).find((e) => e.reason === 'Scheduled'),
    );
    expect(events.message).toBe('Successfully assigned default/first to plain');
    expect(events.source?.component).toBe('default-scheduler');
  });

  it('marks a pod no node fits Unschedulable, and schedules it once a node matches', async () => {
    await h.api.create(pod('picky', {}, { nodeSelector: { disk: 'ssd' } }));
    const waiting = await h.eventually(
      'PodScheduled=False',
      PodKind,
      key('picky'),
      (p) => scheduledCondition(p)?.status === 'False',
    );
    expect(scheduledCondition(waiting)).toMatchObject({
      reason: 'Unschedulable',
      message: "0/1 nodes are available: 1 node(s) didn't match Pod's node affinity/selector.",
    });
    const event = await waitFor('a FailedScheduling event', async () =>
      (await eventsFor('picky')).find((e) => e.reason === 'FailedScheduling'),
    );
    expect(event.type).toBe('Warning');
    await h.kubelet.addNode('fast', { labels: { disk: 'ssd' } });
    const bound = await h.eventually('picky to be bound', PodKind, key('picky'), (p) => !!p.spec?.nodeName);
    expect(bound.spec?.nodeName).toBe('fast');
  });

  it('keeps requests within allocatable and retries when a pod frees resources', async () => {
    await h.kubelet.addNode('small', {
      labels: { size: 'small' },
      allocatable: { cpu: '1', memory: '1Gi', pods: '10' },
    });
    const onSmall = { nodeSelector: { size: 'small' } };
    const big = (name: string) =>
      pod(
        name,
        {},
        { ...onSmall, containers: [{ name: 'app', image: 'app:v1', resources: { requests: { cpu: '800m' } } }] },
      );
    await h.api.create(big('big-1'));
    await h.eventually('big-1 to be bound', PodKind, key('big-1'), (p) => p.spec?.nodeName === 'small');
    await h.api.create(big('big-2'));
    const waiting = await h.eventually(
      'big-2 Unschedulable',
      PodKind,
      key('big-2'),
      (p) => scheduledCondition(p)?.status === 'False',
    );
    expect(scheduledCondition(waiting)?.message).toBe(
      "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't match Pod's node affinity/selector.",
    );
    await h.api.delete(PodKind, key('big-1'));
    await h.eventually(
      'big-2 to be bound after big-1 left',
      PodKind,
      key('big-2'),
      (p) => p.spec?.nodeName === 'small',
    );
  });

  it('keeps pods off tainted, cordoned and not-ready nodes unless they tolerate it', async () => {
    await h.kubelet.addNode('tainted', {
      labels: { pool: 'special' },
      taints: [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }],
    });
    await h.api.create(pod('intolerant', {}, { nodeSelector: { pool: 'special' } }));
    await h.api.create(
      pod(
        'tolerant',
        {},
        {
          nodeSelector: { pool: 'special' },
          tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'db', effect: 'NoSchedule' }],
        },
      ),
    );
    await h.eventually('tolerant to be bound', PodKind, key('tolerant'), (p) => p.spec?.nodeName === 'tainted');
    const intolerant = await h.eventually(
      'intolerant Unschedulable',
      PodKind,
      key('intolerant'),
      (p) => scheduledCondition(p)?.status === 'False',
    );
    expect(scheduledCondition(intolerant)?.message).toContain('1 node(s) had untolerated taint {dedicated: db}');

    await h.kubelet.addNode('cordoned', { labels: { pool: 'cordoned' }, unschedulable: true });
    await h.kubelet.addNode('sick', { labels: { pool: 'sick' }, ready: false });
    await h.api.create(pod('to-cordoned', {}, { nodeSelector: { pool: 'cordoned' } }));
    await h.api.create(pod('to-sick', {}, { nodeSelector: { pool: 'sick' } }));
    const cordoned = await h.eventually(
      'to-cordoned Unschedulable',
      PodKind,
      key('to-cordoned'),
      (p) => scheduledCondition(p)?.status === 'False',
    );
    expect(scheduledCondition(cordoned)?.message).toContain('1 node(s) were unschedulable');
    const sick = await h.eventually(
      'to-sick Unschedulable',
      PodKind,
      key('to-sick'),
      (p) => scheduledCondition(p)?.status === 'False',
    );
    expect(scheduledCondition(sick)?.message).toContain(
      '1 node(s) had untolerated taint {node.kubernetes.io/not-ready: }',
    );

    // Uncordoning is a node change: the waiting pod is retried.
    await h.api.patch(NodeKind, { name: 'cordoned' }, { type: 'merge', patch: { spec: { unschedulable: false } } });
    await h.eventually('to-cordoned to be bound', PodKind, key('to-cordoned'), (p) => p.spec?.nodeName === 'cordoned');
  });

  it('schedules a pod recreated under the name of one it bound before', async () => {
    const spec = { nodeSelector: { 'kubernetes.io/hostname': 'plain' } };
    await h.api.create(pod('again', {}, spec));
    await h.eventually('again to be bound', PodKind, key('again'), (p) => !!p.spec?.nodeName);
    await h.api.delete(PodKind, key('again'));
    await waitFor('again to be gone', async () => !(await h.api.get(PodKind, key('again')).catch(() => undefined)));
    await h.api.create(pod('again', {}, spec));
    await h.eventually('the new again to be bound', PodKind, key('again'), (p) => !!p.spec?.nodeName);
  });

  it('leaves pods of other schedulers alone', async () => {
    await h.api.create(pod('other', {}, { schedulerName: 'my-scheduler' }));
    await h.api.create(pod('marker', {}, { nodeSelector: { 'kubernetes.io/hostname': 'plain' } }));
    await h.eventually('marker to be bound', PodKind, key('marker'), (p) => !!p.spec?.nodeName);
    const other = await h.api.get(PodKind, key('other'));
    expect(other.spec?.nodeName).toBeUndefined();
    expect(scheduledCondition(other)).toBeUndefined();
  });
});
