// End to end with a real runtime in the target cluster: the local controller manager (Deployment, ReplicaSet,
// scheduler) and a local kubelet (Pods as processes) run against the target API server, so a Deployment of a
// ManagedResource really rolls out and the health controller follows ResourcesHealthy / ResourcesProgressing.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ImageMap,
  startControllerManager,
  startKubelet,
  type ControllerManager,
  type Kubelet,
} from '@gardener-ts/local-cluster';
import { createLogger } from '@gardener-ts/logging';
import {
  DeploymentK,
  MR,
  SecretK,
  b64,
  condition,
  getOrUndefined,
  startLandscape,
  waitFor,
  type Landscape,
} from './harness.js';

const ns = 'default';
const NODE = 'rollout-node';
// Any tag of example.com/idle runs a Node program that stays alive until it is signalled.
const IDLE = [process.execPath];
const IDLE_ARGS = ['-e', 'setInterval(() => {}, 1000); process.on("SIGTERM", () => process.exit(0));'];

let land: Landscape;
let manager: ControllerManager | undefined;
let kubelet: Kubelet | undefined;
let dataDir: string | undefined;

function deployment(name: string, image: string): string {
  return JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: ns },
    spec: {
      replicas: 1,
      // Keeps the rollout visible for a moment after the Pod is ready.
      minReadySeconds: 2,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          automountServiceAccountToken: false,
          terminationGracePeriodSeconds: 2,
          containers: [{ name: 'main', image }],
        },
      },
    },
  });
}

async function putSecret(name: string, objects: string) {
  const data = { 'objects.json': b64(objects) };
  const existing = await getOrUndefined(land.src, SecretK, ns, name);
  if (existing) await land.src.update({ ...existing, data });
  else
    await land.src.create({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name, namespace: ns },
      type: 'Opaque',
      data,
    });
}

async function createMR(name: string, secret: string) {
  await land.src.create({
    apiVersion: 'resources.gardener.cloud/v1alpha1',
    kind: 'ManagedResource',
    metadata: { name, namespace: ns },
    spec: { secretRefs: [{ name: secret }] },
  });
}

type Observation = { healthy?: string; progressing?: string; progressingReason?: string };

/** Polls the ManagedResource's conditions every 50 ms and records every distinct state, until stopped. */
function observe(name: string) {
  const seen: Observation[] = [];
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const m = await getOrUndefined(land.src, MR, ns, name).catch(() => undefined);
      const o: Observation = {
        healthy: condition(m, 'ResourcesHealthy')?.status,
        progressing: condition(m, 'ResourcesProgressing')?.status,
        progressingReason: condition(m, 'ResourcesProgressing')?.reason,
      };
      const last = seen[seen.length - 1];
      if (!last || JSON.stringify(last) !== JSON.stringify(o)) seen.push(o);
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  return {
    seen,
    async stop() {
      stopped = true;
      await loop;
      return seen;
    },
  };
}

async function waitForCondition(name: string, type: string, status: string, timeoutMs = 60_000) {
  return waitFor(
    `${name} ${type}=${status}`,
    async () => {
      const c = condition(await getOrUndefined(land.src, MR, ns, name), type);
      return c && c.status === status ? c : undefined;
    },
    { timeoutMs },
  );
}

async function waitForHealthyRollout(name: string) {
  const healthy = await waitForCondition(name, 'ResourcesHealthy', 'True');
  const progressing = await waitForCondition(name, 'ResourcesProgressing', 'False');
  return { healthy, progressing };
}

beforeAll(async () => {
  land = await startLandscape((config) => {
    config.controllers.garbageCollector = { enabled: false };
  });
  const logger = createLogger({ name: 'rollout-e2e', level: process.env.RM_E2E_DEBUG ? 'debug' : 'silent' });
  manager = await startControllerManager({
    kubeConfig: land.target.kubeconfigPath,
    controllers: ['deployment', 'replicaset', 'scheduler'],
    logger,
  });
  dataDir = await mkdtemp(join(tmpdir(), 'rm-rollout-kubelet-'));
  kubelet = await startKubelet({
    kubeconfig: land.target.kubeconfigPath,
    nodeName: NODE,
    dataDir,
    imageMap: new ImageMap([{ image: 'example.com/idle', command: IDLE, args: IDLE_ARGS }]),
    port: 0,
    backoff: { baseMs: 300, maxMs: 2000 },
    retryMs: 200,
    shutdownGraceMs: 2000,
    logger,
  });
  await land.start();
}, 90_000);

afterAll(async () => {
  if (land?.app && process.env.RM_E2E_DEBUG) console.log(land.app.output());
  await kubelet?.stop(); // kills its Pods' processes
  await manager?.stop();
  await land?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}, 60_000);

describe('ResourcesHealthy / ResourcesProgressing with a real rollout', () => {
  it('is progressing while the Deployment rolls out and healthy once its Pod is ready', async () => {
    await putSecret('idle', deployment('idle', 'example.com/idle:v1'));
    const obs = observe('idle');
    await createMR('idle', 'idle');
    const { healthy, progressing } = await waitForHealthyRollout('idle');
    const seen = await obs.stop();
    expect(healthy).toMatchObject({ reason: 'ResourcesHealthy', message: 'All resources are healthy.' });
    expect(progressing).toMatchObject({
      reason: 'ResourcesRolledOut',
      message: 'All resources have been fully rolled out.',
    });
    expect(seen).toContainEqual(
      expect.objectContaining({ progressing: 'True', progressingReason: 'DeploymentProgressing' }),
    );
    // The rollout was real: a Pod of the Deployment runs on the kubelet's node and is ready.
    const d = await land.tgt.get(DeploymentK, { namespace: ns, name: 'idle' });
    expect(d.status).toMatchObject({ readyReplicas: 1, availableReplicas: 1, updatedReplicas: 1 });
  }, 90_000);

  it('is progressing again after the image changes in the Secret, then healthy on the new image', async () => {
    const obs = observe('idle');
    await putSecret('idle', deployment('idle', 'example.com/idle:v2'));
    await waitFor(
      'Deployment to carry the new image',
      async () => {
        const d = await land.tgt.get(DeploymentK, { namespace: ns, name: 'idle' });
        return d.spec.template.spec.containers[0].image === 'example.com/idle:v2';
      },
      { timeoutMs: 30_000 },
    );
    await waitForCondition('idle', 'ResourcesProgressing', 'True');
    const { healthy, progressing } = await waitForHealthyRollout('idle');
    const seen = await obs.stop();
    expect(healthy.reason).toBe('ResourcesHealthy');
    expect(progressing.reason).toBe('ResourcesRolledOut');
    expect(seen).toContainEqual(
      expect.objectContaining({ progressing: 'True', progressingReason: 'DeploymentProgressing' }),
    );
    const d = await land.tgt.get(DeploymentK, { namespace: ns, name: 'idle' });
    expect(d.status).toMatchObject({ readyReplicas: 1, availableReplicas: 1, updatedReplicas: 1 });
    expect(d.status.replicas).toBe(1); // the old Pod is gone
  }, 90_000);

  it("keeps a Deployment whose image has no local program unhealthy, with Gardener's message", async () => {
    await putSecret('broken', deployment('broken', 'example.com/unknown:v1'));
    await createMR('broken', 'broken');
    const unhealthy = await waitFor(
      'broken to be unhealthy because of minimum availability',
      async () => {
        const c = condition(await getOrUndefined(land.src, MR, ns, 'broken'), 'ResourcesHealthy');
        return c?.status === 'False' && c.message.includes('MinimumReplicasUnavailable') ? c : undefined;
      },
      { timeoutMs: 60_000 },
    );
    expect(unhealthy).toMatchObject({
      reason: 'DeploymentUnhealthy',
      message:
        'Deployment "default/broken" is unhealthy: condition "Available" has invalid status False (expected True) due to MinimumReplicasUnavailable: Deployment does not have minimum availability.',
    });
    expect((await waitForCondition('broken', 'ResourcesProgressing', 'True')).reason).toBe('DeploymentProgressing');
    // It stays so: the Pod keeps waiting for its image, nothing turns the ManagedResource healthy.
    await new Promise((r) => setTimeout(r, 5000));
    const m = await getOrUndefined(land.src, MR, ns, 'broken');
    expect(condition(m, 'ResourcesHealthy')).toMatchObject({ status: 'False', reason: 'DeploymentUnhealthy' });
    expect(condition(m, 'ResourcesProgressing')?.status).toBe('True');
  }, 90_000);
});
