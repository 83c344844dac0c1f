// The pod garbage collector against the local API server: a Node deleted (as a Gardener worker pool deletes a machine's
// Node when it hibernates) leaves Pods bound to it that no kubelet ends; they are failed and deleted after the
// quarantine, and not before.
import { waitFor } from '@gardener-ts/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PodKind } from '../../src/controllers/shared/kinds.js';
import { pod } from './support/fixtures.js';
import { type Harness, startHarness } from './support/harness.js';

const QUARANTINE_MS = 3000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// With --use-service-account-credentials (as Gardener runs a shoot's kube-controller-manager) it acts as
// kube-system/pod-garbage-collector and has only that role's permissions: no get of pods, only patch of their status.
// The two identities run side by side, each with its own cluster; their tests, mostly waiting, one after another.
describe.concurrent.each([
  ['with the controller manager identity', false],
  ['as ServiceAccount pod-garbage-collector (kube RBAC)', true],
])('pod garbage collector %s', (_, useServiceAccountCredentials) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(['podgc'], { podGCQuarantineMs: QUARANTINE_MS, useServiceAccountCredentials });
  });
  afterAll(() => h?.stop());
  const exists = (name: string) => h.podExists(name);

  it.sequential(
    'deletes the pods of a deleted Node after the quarantine, and keeps those of a Node that exists',
    async () => {
      await h.kubelet.addNode('doomed');
      await h.kubelet.addNode('healthy');
      for (const [name, node] of [
        ['orphan', 'doomed'],
        ['kept', 'healthy'],
      ] as const) {
        await h.api.create(pod(name, { app: name }, { nodeName: node, terminationGracePeriodSeconds: 30 }));
        await h.eventually(
          `${name} to run`,
          PodKind,
          { namespace: 'default', name },
          (p) => p.status?.phase === 'Running',
        );
      }
      // A finalizer keeps the orphan visible once deleted, to show how it was ended.
      await h.api.patch(
        PodKind,
        { namespace: 'default', name: 'orphan' },
        { type: 'merge', patch: { metadata: { finalizers: ['example.com/hold'] } } },
      );

      const deleted = Date.now();
      await h.kubectl(['delete', 'node', 'doomed']);
      const ended = await h.eventually(
        'orphan to be deleted',
        PodKind,
        { namespace: 'default', name: 'orphan' },
        (p) => !!p.metadata?.deletionTimestamp,
      );
      expect(Date.now() - deleted).toBeGreaterThanOrEqual(QUARANTINE_MS - 500);
      expect(ended.status?.phase).toBe('Failed');
      expect(ended.status?.conditions?.find((c) => c.type === 'DisruptionTarget')).toMatchObject({
        status: 'True',
        reason: 'DeletionByPodGC',
      });
      expect(ended.metadata?.deletionGracePeriodSeconds).toBe(0);
      await h.api.patch(
        PodKind,
        { namespace: 'default', name: 'orphan' },
        { type: 'merge', patch: { metadata: { finalizers: null } } },
      );
      await waitFor('orphan to be gone', async () => !(await exists('orphan')));
      await sleep(1000);
      expect(await exists('kept')).toBe(true);
    },
  );

  it.sequential('keeps the pods of a Node that comes back within the quarantine', async () => {
    await h.kubelet.addNode('flapping');
    await h.api.create(pod('survivor', { app: 'survivor' }, { nodeName: 'flapping' }));
    await h.eventually(
      'survivor to run',
      PodKind,
      { namespace: 'default', name: 'survivor' },
      (p) => p.status?.phase === 'Running',
    );
    await h.kubectl(['delete', 'node', 'flapping']);
    await sleep(QUARANTINE_MS / 3);
    await h.kubelet.addNode('flapping');
    await sleep(QUARANTINE_MS + 1500);
    expect(await exists('survivor')).toBe(true);
  });
});
