// The Deployment controller (with the ReplicaSet controller and the scheduler) against the local API server,
// driven by kubectl where that is the user's path.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runKubectl, waitFor } from '@gardener-ts/test-support';
import {
  type Deployment,
  DeploymentKind,
  type Pod,
  PodKind,
  ReplicaSetKind,
} from '../../src/controllers/shared/kinds.js';
import { isPodReady } from '../../src/controllers/shared/pods.js';
import { template } from './support/fixtures.js';
import { type Harness, startHarness } from './support/harness.js';
import { PodWatch } from './support/pod-watch.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness(['deployment', 'replicaset', 'scheduler']);
  await h.kubelet.addNode('node-1');
});
afterAll(() => h?.stop());

function deployment(
  name: string,
  replicas: number,
  strategy: NonNullable<Deployment['spec']>['strategy'] = undefined,
  extra: Partial<NonNullable<Deployment['spec']>> = {},
): Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default' },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: template({ app: name }),
      ...(strategy ? { strategy } : {}),
      ...extra,
    },
  };
}

const key = (name: string) => ({ namespace: 'default', name });
const replicaSetsOf = async (name: string) =>
  (await h.api.list(ReplicaSetKind, { namespace: 'default' })).items.filter((rs) =>
    rs.metadata?.ownerReferences?.some((r) => r.kind === 'Deployment' && r.name === name),
  );
const rolloutStatus = (name: string) =>
  runKubectl(h.kubeconfig, ['rollout', 'status', `deployment/${name}`, '--timeout=60s'], { timeoutMs: 70_000 });
const conditionOf = (d: Deployment, type: string) => d.status?.conditions?.find((c) => c.type === type);
const image = (p: Pod) => p.spec?.containers?.[0]?.image;

/** Asserts, on every pod state a watch shows, the bounds of a rolling update. */
function rollingBounds(maxTotal: number, minAvailable: number) {
  return (pods: Pod[]) => {
    const available = pods.filter((p) => isPodReady(p) && !p.metadata?.deletionTimestamp).length;
    if (pods.length > maxTotal) return `${pods.length} pods exist, more than ${maxTotal}`;
    if (available < minAvailable) return `${available} pods available, fewer than ${minAvailable}`;
    return undefined;
  };
}

describe('Deployment controller', () => {
  it('creates a ReplicaSet <name>-<pod-template-hash> and completes the rollout', async () => {
    await h.api.create(deployment('web', 3));
    const status = await rolloutStatus('web');
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain('successfully rolled out');
    const [rs] = await replicaSetsOf('web');
    const hash = rs.metadata?.labels?.['pod-template-hash'];
    expect(hash).toMatch(/^[a-z0-9]+$/);
    expect(rs.metadata?.name).toBe(`web-${hash}`);
    expect(rs.spec?.selector.matchLabels).toEqual({ app: 'web', 'pod-template-hash': hash });
    expect(rs.metadata?.annotations?.['deployment.kubernetes.io/revision']).toBe('1');
    const d = await h.eventually(
      'complete status',
      DeploymentKind,
      key('web'),
      (x) => conditionOf(x, 'Progressing')?.reason === 'NewReplicaSetAvailable',
    );
    expect(d.metadata?.annotations?.['deployment.kubernetes.io/revision']).toBe('1');
    expect(d.status).toMatchObject({
      replicas: 3,
      updatedReplicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
      observedGeneration: d.metadata?.generation,
    });
    expect(d.status?.unavailableReplicas ?? 0).toBe(0);
    expect(conditionOf(d, 'Available')).toMatchObject({ status: 'True', reason: 'MinimumReplicasAvailable' });
    expect(conditionOf(d, 'Progressing')).toMatchObject({
      status: 'True',
      message: `ReplicaSet "web-${hash}" has successfully progressed.`,
    });
  });

  it('rolls out a new image within maxSurge and maxUnavailable (integers)', async () => {
    await h.api.create(
      deployment('ints', 4, { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 1 } }),
    );
    expect((await rolloutStatus('ints')).code).toBe(0);
    const watch = await PodWatch.start(h.api, 'app=ints', rollingBounds(5, 3));
    await h.kubectl(['set', 'image', 'deployment/ints', 'app=app:v2']);
    const status = await rolloutStatus('ints');
    await watch.stop();
    expect(status.code, status.stderr).toBe(0);
    expect(watch.violations).toEqual([]);
    const pods = (await h.api.list(PodKind, { namespace: 'default', labelSelector: 'app=ints' })).items;
    expect(pods.map(image)).toEqual(['app:v2', 'app:v2', 'app:v2', 'app:v2']);
    const sets = await replicaSetsOf('ints');
    expect(
      sets.map((rs) => [rs.metadata?.annotations?.['deployment.kubernetes.io/revision'], rs.spec?.replicas]).sort(),
    ).toEqual([
      ['1', 0],
      ['2', 4],
    ]);
  });

  it('rolls out within percentages: surge rounds up, unavailability down', async () => {
    // 3 replicas at 25%/25%: one extra pod, none unavailable.
    await h.api.create(
      deployment('pct', 3, { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } }),
    );
    expect((await rolloutStatus('pct')).code).toBe(0);
    let sawSurge = false;
    const watch = await PodWatch.start(h.api, 'app=pct', (pods) => {
      if (pods.length === 4) sawSurge = true;
      return rollingBounds(4, 3)(pods);
    });
    await h.kubectl(['set', 'image', 'deployment/pct', 'app=app:v2']);
    expect((await rolloutStatus('pct')).code).toBe(0);
    await watch.stop();
    expect(watch.violations).toEqual([]);
    expect(sawSurge).toBe(true);
  });

  it('rolls back with kubectl rollout undo, moving the old ReplicaSet to the next revision', async () => {
    const before = await replicaSetsOf('ints');
    const v1 = before.find((rs) => rs.metadata?.annotations?.['deployment.kubernetes.io/revision'] === '1')!;
    await h.kubectl(['rollout', 'undo', 'deployment/ints']);
    expect((await rolloutStatus('ints')).code).toBe(0);
    const rs = await h.eventually(
      'v1 to be revision 3',
      ReplicaSetKind,
      key(v1.metadata!.name!),
      (x) => x.metadata?.annotations?.['deployment.kubernetes.io/revision'] === '3',
    );
    expect(rs.metadata?.annotations?.['deployment.kubernetes.io/revision-history']).toBe('1');
    expect(rs.spec?.replicas).toBe(4);
    const d = await h.eventually(
      'deployment revision 3',
      DeploymentKind,
      key('ints'),
      (x) => x.metadata?.annotations?.['deployment.kubernetes.io/revision'] === '3',
    );
    expect(d.spec?.template.spec?.containers[0].image).toBe('app:v1');
    expect((await replicaSetsOf('ints')).length).toBe(2);
    const history = await h.kubectl(['rollout', 'history', 'deployment/ints']);
    expect(history).toMatch(/\b2\b/);
    expect(history).toMatch(/\b3\b/);
  });

  it('keeps only revisionHistoryLimit old ReplicaSets', async () => {
    await h.api.create(deployment('hist', 1, undefined, { revisionHistoryLimit: 1 }));
    for (const tag of ['v2', 'v3', 'v4']) {
      await h.kubectl(['set', 'image', 'deployment/hist', `app=app:${tag}`]);
      expect((await rolloutStatus('hist')).code).toBe(0);
    }
    const sets = await waitFor('old ReplicaSets to be cleaned up', async () => {
      const s = await replicaSetsOf('hist');
      return s.length === 2 ? s : undefined;
    });
    expect(sets.map((rs) => rs.spec?.template?.spec?.containers[0].image).sort()).toEqual(['app:v3', 'app:v4']);
  });

  it('recreates: the new pods start only after every old pod is gone', async () => {
    await h.api.create(deployment('recreate', 2, { type: 'Recreate' }));
    expect((await rolloutStatus('recreate')).code).toBe(0);
    const watch = await PodWatch.start(h.api, 'app=recreate', (pods) =>
      new Set(pods.map(image)).size > 1 ? `old and new pods together: ${pods.map(image)}` : undefined,
    );
    await h.kubectl(['set', 'image', 'deployment/recreate', 'app=app:v2']);
    expect((await rolloutStatus('recreate')).code).toBe(0);
    await watch.stop();
    expect(watch.violations).toEqual([]);
    const pods = (await h.api.list(PodKind, { namespace: 'default', labelSelector: 'app=recreate' })).items;
    expect(pods.map(image)).toEqual(['app:v2', 'app:v2']);
  });

  it('scales through the scale subresource', async () => {
    await h.kubectl(['scale', 'deployment/web', '--replicas=5']);
    const d = await h.eventually(
      '5 available',
      DeploymentKind,
      key('web'),
      (x) => x.status?.availableReplicas === 5 && x.status.replicas === 5,
    );
    expect(d.status?.updatedReplicas).toBe(5);
    expect((await replicaSetsOf('web'))[0].spec?.replicas).toBe(5);
  });

  it('rolls nothing out while paused, and resumes', async () => {
    await h.kubectl(['rollout', 'pause', 'deployment/web']);
    await h.kubectl(['set', 'image', 'deployment/web', 'app=app:v2']);
    const paused = await h.eventually(
      'Progressing DeploymentPaused',
      DeploymentKind,
      key('web'),
      (x) => conditionOf(x, 'Progressing')?.reason === 'DeploymentPaused',
    );
    expect(conditionOf(paused, 'Progressing')?.status).toBe('Unknown');
    await h.eventually(
      'paused generation observed',
      DeploymentKind,
      key('web'),
      (x) => x.status?.observedGeneration === x.metadata?.generation,
    );
    expect(await replicaSetsOf('web')).toHaveLength(1);
    await h.kubectl(['rollout', 'resume', 'deployment/web']);
    expect((await rolloutStatus('web')).code).toBe(0);
    const pods = (await h.api.list(PodKind, { namespace: 'default', labelSelector: 'app=web' })).items;
    expect(pods.map(image)).toEqual(Array(5).fill('app:v2'));
  });

  it('reports ProgressDeadlineExceeded when a rollout stops progressing', async () => {
    // The first rollout gets the default deadline, so a slow machine cannot time it out.
    await h.api.create(deployment('stuck', 1));
    expect((await rolloutStatus('stuck')).code).toBe(0);
    // The new pods can never be scheduled.
    const unschedulable = { progressDeadlineSeconds: 1, template: { spec: { nodeSelector: { disk: 'none' } } } };
    await h.api.patch(DeploymentKind, key('stuck'), { type: 'merge', patch: { spec: unschedulable } });
    const d = await h.eventually(
      'ProgressDeadlineExceeded',
      DeploymentKind,
      key('stuck'),
      (x) => conditionOf(x, 'Progressing')?.reason === 'ProgressDeadlineExceeded',
    );
    expect(conditionOf(d, 'Progressing')).toMatchObject({
      status: 'False',
      message: expect.stringMatching(/^ReplicaSet "stuck-[a-z0-9]+" has timed out progressing\.$/),
    });
    const status = await rolloutStatus('stuck');
    expect(status.code).not.toBe(0);
    expect(status.stderr).toContain('exceeded its progress deadline');
  });
});
