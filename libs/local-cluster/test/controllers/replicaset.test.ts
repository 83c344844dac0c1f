// The ReplicaSet controller against the local API server, with the scheduler placing pods on a test node.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@gardener-ts/test-support';
import { PodKind, type ReplicaSet, ReplicaSetKind } from '../../src/controllers/shared/kinds.js';
import { isPodReady } from '../../src/controllers/shared/pods.js';
import { isController, pod, template } from './support/fixtures.js';
import { type Harness, startHarness } from './support/harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness(['replicaset', 'scheduler']);
  await h.kubelet.addNode('node-1');
});
afterAll(() => h?.stop());

const replicaSet = (
  name: string,
  replicas: number,
  labels: Record<string, string>,
  minReadySeconds = 0,
): ReplicaSet => ({
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  metadata: { name, namespace: 'default' },
  spec: { replicas, minReadySeconds, selector: { matchLabels: labels }, template: template(labels) },
});

const podsOf = async (rs: ReplicaSet) =>
  (await h.api.list(PodKind, { namespace: 'default' })).items.filter(isController(rs.metadata?.uid));

describe('ReplicaSet controller', () => {
  it('creates the pods of the template, controlled by the ReplicaSet, and reports them ready and available', async () => {
    const rs = await h.api.create(replicaSet('web', 3, { app: 'web' }));
    const done = await h.eventually(
      '3 available replicas',
      ReplicaSetKind,
      { namespace: 'default', name: 'web' },
      (r) => r.status?.availableReplicas === 3,
    );
    expect(done.status).toMatchObject({
      replicas: 3,
      fullyLabeledReplicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
      observedGeneration: done.metadata?.generation,
    });
    const pods = await podsOf(rs);
    expect(pods).toHaveLength(3);
    for (const p of pods) {
      expect(p.metadata?.name).toMatch(/^web-[a-z0-9]{5}$/);
      expect(p.metadata?.labels).toEqual({ app: 'web' });
      expect(p.metadata?.ownerReferences).toEqual([
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          name: 'web',
          uid: rs.metadata?.uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ]);
      expect(p.spec?.nodeName).toBe('node-1');
    }
  });

  it('scales down with kubectl scale, deleting the not-ready pod first', async () => {
    const rs = await h.api.get(ReplicaSetKind, { namespace: 'default', name: 'web' });
    const [victim] = await podsOf(rs);
    await h.kubelet.setReady('default', victim.metadata!.name!, false);
    await h.eventually(
      'ready replicas to drop',
      ReplicaSetKind,
      { namespace: 'default', name: 'web' },
      (r) => r.status?.readyReplicas === 2,
    );
    await h.kubectl(['scale', 'replicaset/web', '--replicas=2']);
    await h.eventually(
      '2 replicas',
      ReplicaSetKind,
      { namespace: 'default', name: 'web' },
      (r) => r.status?.replicas === 2 && r.status.readyReplicas === 2,
    );
    const names = (await podsOf(rs)).map((p) => p.metadata?.name);
    expect(names).not.toContain(victim.metadata?.name);
    expect(names).toHaveLength(2);
  });

  it('replaces a deleted pod', async () => {
    const rs = await h.api.get(ReplicaSetKind, { namespace: 'default', name: 'web' });
    const [gone] = await podsOf(rs);
    await h.api.delete(PodKind, { namespace: 'default', name: gone.metadata!.name! });
    const pods = await waitFor(
      'a replacement pod',
      async () => {
        const now = await podsOf(rs);
        return now.length === 2 && !now.some((p) => p.metadata?.name === gone.metadata?.name) && now.every(isPodReady)
          ? now
          : undefined;
      },
      { timeoutMs: 20_000 },
    );
    expect(pods).toHaveLength(2);
  });

  it('adopts a matching orphan pod instead of creating one, and releases a pod whose labels stop matching', async () => {
    await h.api.create(pod('orphan', { app: 'adopt' }));
    const rs = await h.api.create(replicaSet('adopter', 1, { app: 'adopt' }));
    const adopted = await waitFor('the orphan to be adopted', async () => {
      const p = await h.api.get(PodKind, { namespace: 'default', name: 'orphan' });
      return isController(rs.metadata?.uid)(p) ? p : undefined;
    });
    expect(adopted.metadata?.ownerReferences?.[0]).toMatchObject({
      kind: 'ReplicaSet',
      name: 'adopter',
      controller: true,
    });
    await h.eventually(
      '1 ready replica',
      ReplicaSetKind,
      { namespace: 'default', name: 'adopter' },
      (r) => r.status?.readyReplicas === 1,
    );
    expect((await podsOf(rs)).map((p) => p.metadata?.name)).toEqual(['orphan']);

    await h.api.patch(
      PodKind,
      { namespace: 'default', name: 'orphan' },
      { type: 'merge', patch: { metadata: { labels: { app: 'other' } } } },
    );
    const replacement = await waitFor('a replacement for the released pod', async () => {
      const pods = await podsOf(rs);
      return pods.length === 1 && pods[0].metadata?.name !== 'orphan' ? pods[0] : undefined;
    });
    expect(replacement.metadata?.name).toMatch(/^adopter-/);
    const released = await h.api.get(PodKind, { namespace: 'default', name: 'orphan' });
    expect(released.metadata?.ownerReferences ?? []).toEqual([]);
  });

  it('never creates more pods than replicas, even for a burst', async () => {
    const created = new Set<string>();
    const abort = new AbortController();
    const watching = h.api
      .watch(PodKind, { namespace: 'default', labelSelector: 'app=burst', signal: abort.signal }, (e) => {
        if (e.type === 'ADDED') created.add(e.object.metadata!.name!);
      })
      .catch(() => undefined);
    await h.api.create(replicaSet('burst', 20, { app: 'burst' }));
    await h.eventually(
      '20 ready replicas',
      ReplicaSetKind,
      { namespace: 'default', name: 'burst' },
      (r) => r.status?.readyReplicas === 20,
      30_000,
    );
    // Give a duplicate creation time to show up before judging.
    await h.eventually(
      'status observed',
      ReplicaSetKind,
      { namespace: 'default', name: 'burst' },
      (r) => r.status?.availableReplicas === 20,
    );
    abort.abort();
    await watching;
    expect(created.size).toBe(20);
    expect((await h.api.list(PodKind, { namespace: 'default', labelSelector: 'app=burst' })).items).toHaveLength(20);
  });

  it('counts a ready pod available only after minReadySeconds', async () => {
    await h.api.create(replicaSet('slow', 1, { app: 'slow' }, 2));
    const ready = await h.eventually(
      '1 ready replica',
      ReplicaSetKind,
      { namespace: 'default', name: 'slow' },
      (r) => r.status?.readyReplicas === 1,
    );
    expect(ready.status?.availableReplicas ?? 0).toBe(0);
    await h.eventually(
      '1 available replica',
      ReplicaSetKind,
      { namespace: 'default', name: 'slow' },
      (r) => r.status?.availableReplicas === 1,
    );
  });
});
