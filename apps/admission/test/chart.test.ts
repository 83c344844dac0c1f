// The chart as the local landscape deploys it (`helm template gardener-admission deploy/charts/admission --namespace
// garden`, applied with kubectl) on a test API server, with the built process standing in for the Pod behind the
// Service: the webhook configurations reach it through the Service (TLS server name `<svc>.garden.svc`), it makes its
// certificate for that name and writes its CA into them, and then the garden admits Gardener's example manifests.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedCRDs } from '@gardener-ts/api';
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
  workspaceRoot,
  type TestEnvironment,
} from '@gardener-ts/testing';
import { createManagedIssuerSecret } from './managed-issuer.js';

const run = promisify(execFile);

describe('admission chart behind its Service', () => {
  let env: TestEnvironment;
  let dir: string;
  let kc: string;

  beforeAll(async () => {
    env = await startTestEnvironment({ crds: generatedCRDs() });
    kc = env.kubeconfigPath;
    dir = await mkdtemp(join(tmpdir(), 'admission-chart-'));
    const root = workspaceRoot();
    const helmEnv = {
      ...process.env,
      HELM_CACHE_HOME: join(dir, 'helm/cache'),
      HELM_CONFIG_HOME: join(dir, 'helm/config'),
      HELM_DATA_HOME: join(dir, 'helm/data'),
    };
    const helm = join(root, 'tools/k8s-binaries/vendor/helm');
    await run(helm, ['dependency', 'build', 'deploy/charts/admission'], { cwd: root, env: helmEnv });
    const { stdout: manifests } = await run(
      helm,
      ['template', 'gardener-admission', 'deploy/charts/admission', '--namespace', 'garden'],
      {
        cwd: root,
        env: helmEnv,
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    await kubectl(kc, ['create', 'namespace', 'garden']);
    await kubectl(kc, ['apply', '--server-side', '-n', 'garden', '-f', '-'], { input: manifests });

    // The process stands in for the Pod: the Service's endpoints are its address and port.
    const port = await freePort();
    await kubectl(kc, ['apply', '-f', '-'], {
      input: JSON.stringify({
        apiVersion: 'v1',
        kind: 'Endpoints',
        metadata: { name: 'gardener-admission', namespace: 'garden' },
        subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'webhooks', port }] }],
      }),
    });
    await writeFile(
      join(dir, 'config.yaml'),
      [
        'apiVersion: admissioncontroller.config.gardener.cloud/v1alpha1',
        'kind: AdmissionControllerConfiguration',
        `gardenClientConnection: { kubeconfig: ${kc} }`,
        'server:',
        `  webhooks: { bindAddress: 127.0.0.1, port: ${port}, tls: { serverCertDir: /etc/gardener-admission-controller/srv } }`,
        '  healthProbes: { bindAddress: 127.0.0.1, port: 0 }',
        '  metrics: { bindAddress: 127.0.0.1, port: 0 }',
      ].join('\n'),
    );
    startProcess(process.execPath, [appBundle('admission'), '--config', join(dir, 'config.yaml')]);
  }, 120_000);

  afterAll(async () => {
    await stopAllProcesses();
    await env?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it("admits Gardener's example manifests through the Service once the process has written its CA", async () => {
    const examples = gardenerAsset('examples', 'local');
    // Until the CA is in place the API server cannot call the webhook (failurePolicy Fail): poll.
    await waitFor(
      'the CloudProfile admitted',
      async () => (await runKubectl(kc, ['apply', '-f', join(examples, 'cloudprofile.yaml')])).code === 0,
      { timeoutMs: 60_000 },
    );
    for (const file of ['namespace.yaml', 'project.yaml']) await kubectl(kc, ['apply', '-f', join(examples, file)]);
    await kubectl(kc, ['create', 'secret', 'generic', 'local', '-n', 'garden-local']);
    // The managed service account issuer the example Shoot asks for, as Gardener's local setup configures it.
    await createManagedIssuerSecret(kc);
    await kubectl(kc, ['apply', '-f', join(examples, 'credentialsbinding.yaml')]);
    await kubectl(kc, ['apply', '-f', join(examples, 'shoot.yaml')]);
    expect(
      await kubectl(kc, ['get', 'shoot', 'local', '-n', 'garden-local', '-o', 'jsonpath={.spec.kubernetes.version}']),
    ).toBe('1.36.0');
  });

  it('keeps its CA in the configurations when the chart is applied again', async () => {
    const root = workspaceRoot();
    const helmEnv = {
      ...process.env,
      HELM_CACHE_HOME: join(dir, 'helm/cache'),
      HELM_CONFIG_HOME: join(dir, 'helm/config'),
      HELM_DATA_HOME: join(dir, 'helm/data'),
    };
    const { stdout: manifests } = await run(
      join(root, 'tools/k8s-binaries/vendor/helm'),
      ['template', 'gardener-admission', 'deploy/charts/admission', '--namespace', 'garden'],
      {
        cwd: root,
        env: helmEnv,
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    await kubectl(kc, ['apply', '--server-side', '--force-conflicts', '-n', 'garden', '-f', '-'], { input: manifests });
    await waitFor(
      'a Project admitted after the re-apply',
      async () =>
        (
          await runKubectl(kc, ['apply', '-f', '-'], {
            input: JSON.stringify({
              apiVersion: 'core.gardener.cloud/v1beta1',
              kind: 'Project',
              metadata: { name: 'second' },
              spec: { namespace: 'garden-second' },
            }),
          })
        ).code === 0,
      { timeoutMs: 60_000 },
    );
  });
});
