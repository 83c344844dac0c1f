// The node lifecycle controller as Gardener runs a shoot's kube-controller-manager (--use-service-account-credentials):
// it acts as kube-system/node-controller, whose role may not read Leases, yet still notices a node whose kubelet went
// silent (it reads Leases from its informer, which watches with the controller manager's own identity).
import { afterAll, beforeAll, describe, it } from 'vitest';
import { NodeKind } from '../../src/controllers/shared/kinds.js';
import { type Harness, startHarness } from './support/harness.js';
import { registerNode } from './support/nodes.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness(['nodelifecycle'], {
    nodeMonitorGracePeriodMs: 1000,
    nodeStartupGracePeriodMs: 3000,
    nodeEvictionRate: 1000,
    secondaryNodeEvictionRate: 1000,
    largeClusterSizeThreshold: 0,
    useServiceAccountCredentials: true,
  });
});
afterAll(async () => {
  await h?.stop();
});

describe('node lifecycle as ServiceAccount node-controller (kube RBAC)', () => {
  it('marks a node whose kubelet stopped renewing its Lease Unknown', async () => {
    await registerNode(h.api, 'gone', 'True');
    await h.eventually(
      'node gone to turn Unknown',
      NodeKind,
      { name: 'gone' },
      (n) => n.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'Unknown',
      10_000,
    );
  });
});
