import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { generatedCRDs } from '@gardener-ts/api';
import { ApiClient } from '@gardener-ts/controller-runtime';
import { describeComponentBinary, startTestEnvironment, type TestEnvironment } from '@gardener-ts/testing';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

// The scheduler reads the garden: an API server with Gardener's CRDs and the garden namespace (leader election Lease).
// The fixture has no kubeconfig, like Gardener's example, so the process finds the cluster through $KUBECONFIG.
let env: TestEnvironment | undefined;
const previousKubeconfig = process.env.KUBECONFIG;
beforeAll(async () => {
  env = await startTestEnvironment({ crds: generatedCRDs() });
  const client = await ApiClient.create(env.kubeconfigPath);
  await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'garden' } });
  client.close();
  process.env.KUBECONFIG = env.kubeconfigPath;
}, 60_000);
afterAll(async () => {
  if (previousKubeconfig === undefined) delete process.env.KUBECONFIG;
  else process.env.KUBECONFIG = previousKubeconfig;
  await env?.stop();
});

describeComponentBinary({
  app: 'scheduler',
  validConfig: fixture('config.yaml'),
  brokenConfigs: [
    { file: fixture('broken-strategy.yaml'), mentions: ['schedulers.shoot.candidateDeterminationStrategy'] },
  ],
});
