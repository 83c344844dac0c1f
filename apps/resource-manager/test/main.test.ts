import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import {
  describeComponentBinary,
  gardenerAsset,
  startTestEnvironment,
  type TestEnvironment,
} from '@gardener-ts/testing';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

// Gardener's example configuration names no kubeconfig: the resource-manager then uses $KUBECONFIG (like Gardener's),
// here a local API server with the ManagedResource CRD, as source and target.
let env: TestEnvironment | undefined;
const previous = process.env.KUBECONFIG;
beforeAll(async () => {
  env = await startTestEnvironment({
    crds: [gardenerAsset('crds', '10-crd-resources.gardener.cloud_managedresources.yaml')],
  });
  process.env.KUBECONFIG = env.kubeconfigPath;
});
afterAll(async () => {
  if (previous === undefined) delete process.env.KUBECONFIG;
  else process.env.KUBECONFIG = previous;
  await env?.stop();
});

describeComponentBinary({
  app: 'resource-manager',
  validConfig: fixture('config.yaml'),
  brokenConfigs: [
    { file: fixture('broken-expiration.yaml'), mentions: ['webhooks.projectedTokenMount.expirationSeconds'] },
  ],
});
