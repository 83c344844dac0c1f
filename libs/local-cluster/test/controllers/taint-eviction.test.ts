// The taint eviction controller against the local API server, with the node lifecycle controller next to it. The
// test kubelet runs the pods; the tests taint nodes with kubectl, as an operator would.
import { waitFor } from '@gardener-ts/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventKind, NodeKind, type Pod, PodKind, type Toleration } from '../../src/controllers/shared/kinds.js';
import { pod } from './support/fixtures.js';
import { type Harness, startHarness } from './support/harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness(['tainteviction', 'nodelifecycle']);
});
afterAll(() => h?.stop());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const DEDICATED = 'example.com/dedicated';

async function runPod(name: string, node: string, tolerations: Toleration[] = [], finalizers?: string[]): Promise<Pod> {
  await h.api.create({
    ...pod(name, { app: name }, { nodeName: node, tolerations, terminationGracePeriodSeconds: 0 }),
    metadata: { name, namespace: 'default', labels: { app: name }, finalizers },
  });
  return h.eventually(`${name} to run`, PodKind, { namespace: 'default', name }, (p) => p.status?.phase === 'Running');
}

const exists = (name: string) => h.podExists(name);
const gone = (name: string, timeoutMs = 20_000) =>
  waitFor(`${name} to be deleted`, async () => !(await exists(name)), { timeoutMs });
const evictionEvents = async (name: string) =>
  (await h.api.list(EventKind, { namespace: 'default' })).items
    .filter((e) => e.involvedObject.name === name && e.reason === 'TaintManagerEviction')
    .map((e) => e.message);

describe('taint eviction', () => {
  it.concurrent(
    'deletes an untolerating pod at once, a briefly tolerating one after its seconds, and keeps one tolerating forever',
    async () => {
      await h.kubelet.addNode('dedicated');
      await runPod('plain', 'dedicated');
      await runPod('brief', 'dedicated', [
        { key: DEDICATED, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 6 },
      ]);
      await runPod('forever', 'dedicated', [{ key: DEDICATED, operator: 'Equal', value: 'db', effect: 'NoExecute' }]);
      // A finalizer keeps this one visible once deleted, to show the condition set before the deletion.
      await runPod('held', 'dedicated', [], ['example.com/hold']);
      // A NoSchedule taint evicts nothing.
      await h.kubectl(['taint', 'nodes', 'dedicated', 'example.com/soft=x:NoSchedule']);
      await sleep(1000);
      expect(await exists('plain')).toBe(true);

      // Before the taint is sent: the toleration counts from when the API server applied it, which is later.
      const tainted = Date.now();
      await h.kubectl(['taint', 'nodes', 'dedicated', `${DEDICATED}=db:NoExecute`]);
      await gone('plain');
      expect(await exists('brief')).toBe(true);
      const held = await h.eventually(
        'held to be deleted',
        PodKind,
        { namespace: 'default', name: 'held' },
        (p) => !!p.metadata?.deletionTimestamp,
      );
      expect(held.status?.conditions?.find((c) => c.type === 'DisruptionTarget')).toMatchObject({
        status: 'True',
        reason: 'DeletionByTaintManager',
        message: 'Taint manager: deleting due to NoExecute taint',
      });
      await h.api.patch(
        PodKind,
        { namespace: 'default', name: 'held' },
        { type: 'merge', patch: { metadata: { finalizers: null } } },
      );
      await gone('held');
      await gone('brief');
      expect(Date.now() - tainted).toBeGreaterThanOrEqual(6000);
      expect(await exists('forever')).toBe(true);

      await waitFor('eviction events', async () =>
        (await evictionEvents('plain')).length && (await evictionEvents('brief')).length ? true : undefined,
      );
      expect(await evictionEvents('plain')).toEqual(['Marking for deletion Pod default/plain']);
      expect(await evictionEvents('brief')).toEqual(['Marking for deletion Pod default/brief']);
      expect(await evictionEvents('forever')).toEqual([]);
    },
  );

  it.concurrent('cancels a scheduled eviction when the taint goes before the time is up', async () => {
    await h.kubelet.addNode('flaky');
    await runPod('patient', 'flaky', [{ key: DEDICATED, operator: 'Exists', tolerationSeconds: 6 }]);
    await h.kubectl(['taint', 'nodes', 'flaky', `${DEDICATED}=db:NoExecute`]);
    await sleep(1000);
    await h.kubectl(['taint', 'nodes', 'flaky', `${DEDICATED}-`]);
    await waitFor('the cancel event', async () => ((await evictionEvents('patient')).length ? true : undefined));
    // Longer than the toleration: an eviction that was not cancelled would have happened by now.
    await sleep(6000);
    expect(await exists('patient')).toBe(true);
    expect(await evictionEvents('patient')).toEqual(['Cancelling deletion of Pod default/patient']);
  });

  it.concurrent(
    'evicts from a NotReady node by the not-ready taint, giving pods without toleration the default 300 s',
    async () => {
      await h.kubelet.addNode('sick');
      await runPod('unbothered', 'sick');
      await runPod('impatient', 'sick', [
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 1 },
      ]);
      // The kubelet reports the node NotReady: the node lifecycle controller taints it not-ready, NoExecute.
      const node = await h.api.get(NodeKind, { name: 'sick' });
      const conditions = node.status!.conditions!.map((c) =>
        c.type === 'Ready' ? { ...c, status: 'False', reason: 'KubeletNotReady' } : c,
      );
      await h.api.updateStatus({ ...node, status: { ...node.status, conditions } });
      await gone('impatient');
      // Without a toleration of its own, a pod stays for the 300 s the API server's DefaultTolerationSeconds gave it.
      await sleep(2000);
      expect(await exists('unbothered')).toBe(true);
      const unbothered = await h.api.get(PodKind, { namespace: 'default', name: 'unbothered' });
      expect(unbothered.spec?.tolerations).toContainEqual({
        key: 'node.kubernetes.io/not-ready',
        operator: 'Exists',
        effect: 'NoExecute',
        tolerationSeconds: 300,
      });
      const sick = await h.api.get(NodeKind, { name: 'sick' });
      expect(sick.spec?.taints?.map((t) => `${t.key}:${t.effect}`)).toContain('node.kubernetes.io/not-ready:NoExecute');
    },
  );
});
