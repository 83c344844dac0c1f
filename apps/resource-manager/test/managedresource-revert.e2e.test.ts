// End to end: manual changes deep inside a managed object (which compare-before-writing alone cannot tell from server
// defaults) are reverted, while converged ManagedResources still cause no write on resync.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DeploymentK,
  MR,
  b64,
  condition,
  getOrUndefined,
  startLandscape,
  waitFor,
  writeRequests,
  type Landscape,
} from './harness.js';

const ns = 'default';
let land: Landscape;

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: ${ns}
spec:
  replicas: 1
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: web
        image: nginx:1.25
`;

const deployment = () => land.tgt.get(DeploymentK, { namespace: ns, name: 'web' });

/** Fields inside spec that the desired object leaves to the server (absent, or its default 10). */
async function editByHand() {
  await land.tgt.patch(
    DeploymentK,
    { namespace: ns, name: 'web' },
    {
      type: 'merge',
      patch: {
        spec: {
          minReadySeconds: 7,
          revisionHistoryLimit: 3,
          template: {
            spec: { containers: [{ name: 'web', image: 'nginx:1.25', env: [{ name: 'DEBUG', value: '1' }] }] },
          },
        },
      },
    },
  );
  const d = await deployment();
  expect(d.spec.minReadySeconds).toBe(7); // the edit itself took effect
}

async function waitForReverted() {
  await waitFor(
    'the manual change inside spec to be reverted',
    async () => {
      const d = await deployment();
      return (
        !d.spec.minReadySeconds &&
        d.spec.revisionHistoryLimit === 10 &&
        d.spec.template.spec.containers[0].env === undefined
      );
    },
    { timeoutMs: 60_000 },
  );
}

/** How often the resource-manager finished reconciling a ManagedResource (its debug log says so each time). */
const reconciles = () => land.app!.output().split('Finished to reconcile ManagedResource').length - 1;

/**
 * The target's write requests before and after the ManagedResource's next periodic resync (every 15 s): the counters
 * are read once the last watch events settled, and again once a reconciliation finished after that.
 */
async function writesAroundResync(): Promise<[number, number]> {
  await new Promise((r) => setTimeout(r, 1500)); // let the last watch events settle
  const before = await writeRequests(land.target.kubeconfigPath);
  const reconciled = reconciles();
  await waitFor('the next resync', () => reconciles() > reconciled, { timeoutMs: 30_000 });
  return [before, await writeRequests(land.target.kubeconfigPath)];
}

beforeAll(async () => {
  // Restarted below: no leader election, so the new process does not wait for the old lease to expire; debug logs
  // tell when the first reconciliation after a restart is through.
  land = await startLandscape((config) => {
    config.leaderElection.leaderElect = false;
    config.logLevel = 'debug';
  });
  await land.start();
  await land.src.create({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'web', namespace: ns },
    type: 'Opaque',
    data: { 'objects.yaml': b64(DEPLOYMENT) },
  });
  await land.src.create({
    apiVersion: 'resources.gardener.cloud/v1alpha1',
    kind: 'ManagedResource',
    metadata: { name: 'web', namespace: ns },
    spec: { secretRefs: [{ name: 'web' }] },
  });
  await waitFor(
    'web to be applied',
    async () => condition(await getOrUndefined(land.src, MR, ns, 'web'), 'ResourcesApplied')?.status === 'True',
    { timeoutMs: 60_000 },
  );
}, 120_000);

afterAll(async () => {
  if (land?.app && process.env.RM_E2E_DEBUG) console.log(land.app.output());
  await land?.stop();
});

describe('manual changes inside spec', () => {
  it('are reverted', async () => {
    const generation = (await deployment()).metadata?.generation;
    await editByHand();
    await waitForReverted();
    expect((await deployment()).metadata?.generation).toBeGreaterThan(generation ?? 0);
  }, 90_000);

  it('leave no write behind: resyncs of the reverted object write nothing', async () => {
    const [before, after] = await writesAroundResync();
    expect(before).toBeGreaterThan(0);
    expect(after).toBe(before);
  }, 60_000);

  it('are reverted after a restart too, when made while the resource-manager was down', async () => {
    await land.app!.stop();
    await editByHand();
    const edited = (await deployment()).metadata?.resourceVersion;
    await land.start();
    await waitForReverted();
    expect((await deployment()).metadata?.resourceVersion).not.toBe(edited);
    expect(land.app!.output()).not.toContain('"level":50');
  }, 120_000);

  it('cause no update after a restart when nothing changed (a dry run only)', async () => {
    const unchanged = (await deployment()).metadata?.resourceVersion;
    await land.app!.stop();
    await land.start();
    await waitFor('the dry run after the restart', () => land.app!.output().includes('A dry run changes nothing'), {
      timeoutMs: 30_000,
    });
    await waitFor(
      'the reconciliation after the restart',
      () => land.app!.output().includes('Finished to reconcile ManagedResource'),
      { timeoutMs: 30_000 },
    );
    expect((await deployment()).metadata?.resourceVersion).toBe(unchanged);
  }, 90_000);
});
