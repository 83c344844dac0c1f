// A test cluster with a second, unprivileged user: bob, a static token user (group team-b) with his own kubeconfig,
// and a `team` namespace. Registers the suite's beforeAll/afterAll; the fields are set once beforeAll has run.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { kubectl } from '@gardener-ts/test-support';
import { startTestCluster, type TestCluster } from '../../src/index.js';
import { kubeconfig } from '../../src/pki/kubeconfig.js';

export interface BobCluster {
  cluster: TestCluster;
  /** kubectl as the cluster admin; resolves to stdout. */
  admin: (args: string[], input?: string) => Promise<string>;
  /** bob's kubeconfig (bearer token `bob-token`). */
  bobConfig: string;
}

export function useBobCluster(): BobCluster {
  const env = {} as BobCluster;
  beforeAll(async () => {
    const tokens = join(await mkdtemp(join(tmpdir(), 'bob-cluster-')), 'tokens');
    await writeFile(tokens, 'bob-token,bob,uid-bob,"team-b"\n');
    env.cluster = await startTestCluster({ tokenFile: tokens });
    env.admin = (args, input) => kubectl(env.cluster.kubeconfigPath, args, { input });
    env.bobConfig = join(env.cluster.dir, 'bob.kubeconfig');
    await writeFile(
      env.bobConfig,
      kubeconfig('local', env.cluster.server.url, env.cluster.server.credentials.ca.certPem, {
        name: 'bob',
        token: 'bob-token',
      }),
    );
    await env.admin(['create', 'namespace', 'team']);
  });
  afterAll(async () => env.cluster?.stop());
  return env;
}
