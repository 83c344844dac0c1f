// The built gardener-admission-controller against a test API server: it writes its generated CA into the webhook
// configurations registered for it, and then the garden defaults and guards Gardener's example manifests.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admissionWebhookConfigurations, WEBHOOK_CONFIGURATION_NAME } from '@gardener-ts/admission-plugins';
import { generatedCRDs } from '@gardener-ts/api';
import { ApiClient, kind } from '@gardener-ts/controller-runtime';
import {
  appBundle,
  freePort,
  gardenerAsset,
  kubectl,
  runKubectl,
  startProcess,
  startTestEnvironment,
  stopAllProcesses,
  waitFor,
  type TestEnvironment,
} from '@gardener-ts/testing';
import { createManagedIssuerSecret } from './managed-issuer.js';

describe('admission binary serving the garden', () => {
  let env: TestEnvironment;
  let dir: string;
  let kc: string;

  beforeAll(async () => {
    env = await startTestEnvironment({ crds: generatedCRDs() });
    kc = env.kubeconfigPath;
    dir = await mkdtemp(join(tmpdir(), 'admission-e2e-'));
    const port = await freePort();
    await writeFile(
      join(dir, 'config.yaml'),
      [
        'apiVersion: admissioncontroller.config.gardener.cloud/v1alpha1',
        'kind: AdmissionControllerConfiguration',
        `gardenClientConnection: { kubeconfig: ${kc} }`,
        'server:',
        `  webhooks: { bindAddress: 127.0.0.1, port: ${port}, tls: { serverCertDir: ${join(dir, 'certs')} } }`,
        '  healthProbes: { bindAddress: 127.0.0.1, port: 0 }',
        '  metrics: { bindAddress: 127.0.0.1, port: 0 }',
      ].join('\n'),
    );
    // Registered as the chart registers them: no caBundle yet, the process writes its own CA.
    const client = await ApiClient.create(kc);
    for (const configuration of admissionWebhookConfigurations({ url: `https://127.0.0.1:${port}` }, ''))
      await client.create(configuration);
    client.close();
    startProcess(process.execPath, [appBundle('admission'), '--config', join(dir, 'config.yaml')]);
  }, 60_000);

  afterAll(async () => {
    await stopAllProcesses();
    await env?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('writes its CA into both webhook configurations', async () => {
    const client = await ApiClient.create(kc);
    await waitFor(
      'the caBundle in both configurations',
      async () => {
        for (const k of ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration']) {
          const config = (await client.get(kind('admissionregistration.k8s.io/v1', k), {
            name: WEBHOOK_CONFIGURATION_NAME,
          })) as {
            webhooks: { clientConfig: { caBundle?: string } }[];
          };
          if (
            !Buffer.from(config.webhooks[0]!.clientConfig.caBundle ?? '', 'base64')
              .toString()
              .includes('BEGIN CERTIFICATE')
          )
            return false;
        }
        return true;
      },
      { timeoutMs: 30_000 },
    );
    client.close();
  });

  it("defaults Gardener's example Shoot and refuses its unconfirmed deletion", async () => {
    const examples = gardenerAsset('examples', 'local');
    for (const file of ['cloudprofile.yaml', 'namespace.yaml', 'project.yaml'])
      await kubectl(kc, ['apply', '-f', join(examples, file)]);
    await kubectl(kc, ['create', 'secret', 'generic', 'local', '-n', 'garden-local']);
    // The managed service account issuer the example Shoot asks for, as Gardener's local setup configures it.
    await runKubectl(kc, ['create', 'namespace', 'garden']);
    await createManagedIssuerSecret(kc);
    await kubectl(kc, ['apply', '-f', join(examples, 'credentialsbinding.yaml')]);
    await kubectl(kc, ['apply', '-f', join(examples, 'shoot.yaml')]);
    expect(
      await kubectl(kc, ['get', 'shoot', 'local', '-n', 'garden-local', '-o', 'jsonpath={.spec.kubernetes.version}']),
    ).toBe('1.36.0');
    const refused = await runKubectl(kc, ['delete', 'shoot', 'local', '-n', 'garden-local', '--wait=false']);
    expect(refused.stderr).toContain(
      'shoots.core.gardener.cloud "local" is forbidden: must have a "confirmation.gardener.cloud/deletion" annotation to delete',
    );
  });
});
