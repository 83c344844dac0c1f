// node-agent's Lease against the local API server: written as soon as the kubelet registers the machine's Node, not
// a renew interval later (the shoot's care reads it to tell whether node-agent runs on the node).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, Kinds, Manager } from '@gardener-ts/controller-runtime';
import { startTestEnvironment, waitFor, type TestEnvironment } from '@gardener-ts/testing';
import { addLeaseController } from '../src/controller/lease/add.js';

let env: TestEnvironment;
let client: ApiClient;
let mgr: Manager;
const nodeName = 'machine-late';

beforeAll(async () => {
  env = await startTestEnvironment();
  client = await ApiClient.create(env.kubeconfigPath);
  mgr = await Manager.create({
    clusters: { shoot: { kubeConfig: env.kubeconfigPath } },
    gracefulShutdownTimeoutMs: 0,
  });
  // A renew interval far longer than the test waits: only the Node's creation can write the Lease in time.
  addLeaseController(mgr, { nodeName, renewIntervalMs: 600_000 });
  await mgr.start();
}, 60_000);

afterAll(async () => {
  await mgr?.stop();
  client?.close();
  await env?.stop();
});

describe("node-agent's Lease", () => {
  it('is written as soon as the Node is registered', async () => {
    // Started before the Node exists: nothing to renew yet.
    await new Promise((resolve) => setTimeout(resolve, 500));
    await expect(
      client.get(Kinds.Lease, { namespace: 'kube-system', name: `gardener-node-agent-${nodeName}` }),
    ).rejects.toThrow();
    await client.create({ apiVersion: 'v1', kind: 'Node', metadata: { name: nodeName } });
    const lease = await waitFor(
      'the Lease of node-agent',
      () =>
        client
          .get(Kinds.Lease, { namespace: 'kube-system', name: `gardener-node-agent-${nodeName}` })
          .catch(() => undefined),
      { timeoutMs: 10_000 },
    );
    expect(lease.spec).toMatchObject({ holderIdentity: nodeName });
  });
});
