import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { generatedCRDs } from '@gardener-ts/api';
import { describeComponentBinary, startTestEnvironment, type TestEnvironment } from '@gardener-ts/testing';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

// The admission controller reads the garden; the fixture has no kubeconfig, like Gardener's example, so the process
// finds the cluster through $KUBECONFIG.
let env: TestEnvironment | undefined;
const previousKubeconfig = process.env.KUBECONFIG;
beforeAll(async () => {
  env = await startTestEnvironment({ crds: generatedCRDs() });
  process.env.KUBECONFIG = env.kubeconfigPath;
}, 60_000);
afterAll(async () => {
  if (previousKubeconfig === undefined) delete process.env.KUBECONFIG;
  else process.env.KUBECONFIG = previousKubeconfig;
  await env?.stop();
});

describeComponentBinary({
  app: 'admission',
  validConfig: fixture('config.yaml'),
  brokenConfigs: [
    { file: fixture('broken-operation-mode.yaml'), mentions: ['server.resourceAdmissionConfiguration.operationMode'] },
  ],
});
