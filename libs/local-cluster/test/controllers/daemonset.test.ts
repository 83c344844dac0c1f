// The DaemonSet controller (with the scheduler) against the local API server, over several test nodes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@gardener-ts/test-support';
import { type DaemonSet, DaemonSetKind, NodeKind, type Pod, PodKind } from '../../src/controllers/shared/kinds.js';
import { isPodReady } from '../../src/controllers/shared/pods.js';
import { template } from './support/fixtures.js';
import { type Harness, startHarness } from './support/harness.js';
import { PodWatch } from './support/pod-watch.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness(['daemonset', 'scheduler']);
  await h.kubelet.addNode('worker-1', { labels: { role: 'edge' } });
  await h.kubelet.addNode('worker-2');
  await h.kubelet.addNode('cordoned', { unschedulable: true });
  await h.kubelet.addNode('dedicated', { taints: [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }] });
});
afterAll(() => h?.stop());

const key = (name: string) => ({ namespace: 'default', name });
const daemonSet = (
  name: string,
  spec: Partial<NonNullable<NonNullable<DaemonSet['spec']>['template']['spec']>> = {},
): DaemonSet => ({
  apiVersion: 'apps/v1',
  kind: 'DaemonSet',
  metadata: { name, namespace: 'default' },
  spec: { selector: { matchLabels: { app: name } }, template: template({ app: name }, 'agent:v1', spec) },
});
const podsOf = async (app: string) =>
  (await h.api.list(PodKind, { namespace: 'default', labelSelector: `app=${app}` })).items.filter(
    (p) => !p.metadata?.deletionTimestamp,
  );
const nodesOf = (pods: Pod[]) => pods.map((p) => p.spec?.nodeName).sort();

describe('DaemonSet controller', () => {
  it('runs one pod on every eligible node, pinned by node affinity and placed by the scheduler', async () => {
    await h.api.create(daemonSet('agent'));
    const ds = await h.eventually(
      '3 ready daemon pods',
      DaemonSetKind,
      key('agent'),
      (d) => d.status?.desiredNumberScheduled === 3 && d.status.numberReady === 3,
    );
    expect(ds.status).toMatchObject({
      currentNumberScheduled: 3,
      numberMisscheduled: 0,
      numberAvailable: 3,
      updatedNumberScheduled: 3,
      observedGeneration: ds.metadata?.generation,
    });
    const pods = await podsOf('agent');
    // A cordoned node still gets its daemon pod; the tainted one does not.
    expect(nodesOf(pods)).toEqual(['cordoned', 'worker-1', 'worker-2']);
    const pinned = pods.find((p) => p.spec?.nodeName === 'worker-1')!;
    expect(
      pinned.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms,
    ).toEqual([{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['worker-1'] }] }]);
    expect(pinned.spec?.tolerations).toContainEqual({
      key: 'node.kubernetes.io/unreachable',
      operator: 'Exists',
      effect: 'NoExecute',
    });
    expect(pinned.metadata?.labels?.['controller-revision-hash']).toMatch(/^[a-z0-9]+$/);
  });

  it('follows node labels: a pod appears where the selector starts to match and goes where it stops', async () => {
    await h.api.create(daemonSet('edge', { nodeSelector: { role: 'edge' } }));
    await waitFor('an edge pod on worker-1', async () => nodesOf(await podsOf('edge')).join() === 'worker-1');
    await h.api.patch(
      NodeKind,
      { name: 'worker-2' },
      { type: 'merge', patch: { metadata: { labels: { role: 'edge' } } } },
    );
    await waitFor(
      'edge pods on both workers',
      async () => nodesOf(await podsOf('edge')).join() === 'worker-1,worker-2',
    );
    await h.api.patch(
      NodeKind,
      { name: 'worker-1' },
      { type: 'merge', patch: { metadata: { labels: { role: null } } } },
    );
    await waitFor('the edge pod to leave worker-1', async () => nodesOf(await podsOf('edge')).join() === 'worker-2');
    await h.eventually(
      '1 desired',
      DaemonSetKind,
      key('edge'),
      (d) => d.status?.desiredNumberScheduled === 1 && d.status.numberMisscheduled === 0,
    );
  });

  it('tolerates a tainted node when the template does', async () => {
    await h.api.patch(DaemonSetKind, key('agent'), {
      type: 'merge',
      patch: {
        spec: {
          updateStrategy: { type: 'OnDelete' },
          template: { spec: { tolerations: [{ key: 'dedicated', operator: 'Exists' }] } },
        },
      },
    });
    await waitFor('an agent on the dedicated node', async () => nodesOf(await podsOf('agent')).includes('dedicated'));
    // OnDelete: the other pods keep the old template.
    const ds = await h.eventually(
      '4 desired',
      DaemonSetKind,
      key('agent'),
      (d) => d.status?.desiredNumberScheduled === 4 && d.status.numberReady === 4,
    );
    expect(ds.status?.updatedNumberScheduled).toBe(1);
  });

  it('rolls out a new template one node at a time (maxUnavailable 1)', async () => {
    await h.api.patch(DaemonSetKind, key('agent'), {
      type: 'merge',
      patch: { spec: { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } } } },
    });
    const watch = await PodWatch.start(h.api, 'app=agent', (pods) => {
      const up = pods.filter((p) => isPodReady(p) && !p.metadata?.deletionTimestamp).length;
      return up < 3 ? `only ${up} of 4 daemon pods available` : undefined;
    });
    await h.kubectl(['set', 'image', 'daemonset/agent', 'app=agent:v2']);
    const ds = await h.eventually(
      '4 updated and available',
      DaemonSetKind,
      key('agent'),
      (d) => d.status?.updatedNumberScheduled === 4 && d.status.numberAvailable === 4,
      30_000,
    );
    await watch.stop();
    expect(watch.violations).toEqual([]);
    expect(ds.status?.numberUnavailable ?? 0).toBe(0);
    expect((await podsOf('agent')).map((p) => p.spec?.containers[0].image)).toEqual(Array(4).fill('agent:v2'));
  });
});
