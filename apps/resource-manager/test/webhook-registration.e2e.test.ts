// End to end: with `webhookRegistration.enabled` (gardener-ts extension) the built app writes its own
// Mutating/ValidatingWebhookConfigurations, with the CA of its generated certificate, into the target cluster — replacing
// a stale one — and the target API server then calls the webhooks for a Pod created with kubectl.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kind, type KubernetesObject } from '@gardener-ts/controller-runtime';
import { runKubectl } from '@gardener-ts/testing';
import { PodK, getOrUndefined, startLandscape, waitFor, type Landscape } from './harness.js';

type WebhookConfiguration = KubernetesObject & {
  webhooks?: { name: string; clientConfig: { url?: string; caBundle?: string } }[];
};
const Mutating = kind<WebhookConfiguration>('admissionregistration.k8s.io/v1', 'MutatingWebhookConfiguration');
const Validating = kind<WebhookConfiguration>('admissionregistration.k8s.io/v1', 'ValidatingWebhookConfiguration');
const name = 'gardener-resource-manager';

let land: Landscape;
let port = 0;
let caBundle = '';

beforeAll(async () => {
  land = await startLandscape((config) => {
    config.server.webhooks = { bindAddress: '127.0.0.1', port: 0, tls: { serverCertDir: '' } };
    config.webhookRegistration = { enabled: true };
  });
  // A configuration left behind by an earlier run, pointing nowhere: the app must replace it.
  await land.tgt.create({
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'MutatingWebhookConfiguration',
    metadata: { name },
    webhooks: [
      {
        name: 'stale.resources.gardener.cloud',
        admissionReviewVersions: ['v1'],
        sideEffects: 'None',
        failurePolicy: 'Ignore',
        clientConfig: { url: 'https://127.0.0.1:1/stale' },
        rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
      },
    ],
  });
  await land.start();
  const line = land
    .app!.output()
    .split('\n')
    .find((l) => l.includes('resource-manager webhooks started'));
  const logged = JSON.parse(line ?? '{}') as { port?: number; caBundleFile?: string };
  if (!logged.port || !logged.caBundleFile) throw new Error(`webhook server not reported:\n${land.app!.output()}`);
  port = logged.port;
  caBundle = await readFile(logged.caBundleFile, 'utf8');
}, 90_000);

afterAll(async () => {
  await land?.stop();
});

describe('webhook self-registration', () => {
  it('writes both configurations into the target with its URL and CA bundle, replacing the stale one', async () => {
    const mutating = await land.tgt.get(Mutating, { name });
    const names = (mutating.webhooks ?? []).map((w) => w.name);
    expect(names).not.toContain('stale.resources.gardener.cloud');
    expect(names).toEqual(
      expect.arrayContaining([
        'kubernetes-service-host.resources.gardener.cloud',
        'projected-token-mount.resources.gardener.cloud',
        'pod-scheduler-name.resources.gardener.cloud',
      ]),
    );
    const hostHook = mutating.webhooks!.find((w) => w.name === 'kubernetes-service-host.resources.gardener.cloud')!;
    expect(hostHook.clientConfig.url).toBe(`https://127.0.0.1:${port}/webhooks/kubernetes-service-host`);
    expect(Buffer.from(hostHook.clientConfig.caBundle!, 'base64').toString()).toBe(caBundle);
    // The token-invalidator webhook has its own switch, off in the example configuration.
    expect(names).not.toContain('token-invalidator.resources.gardener.cloud');

    const validating = await getOrUndefined(land.tgt, Validating, undefined, name);
    expect((validating?.webhooks ?? []).map((w) => w.name)).toContain(
      'crd-deletion-protection.resources.gardener.cloud',
    );
  });

  it('makes the target API server call the webhooks for a Pod created with kubectl', async () => {
    const pod = (n: string) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: n, namespace: 'default' },
      spec: { containers: [{ name: 'app', image: 'nginx' }] },
    });
    let probe = 0;
    // The API server picks the configuration up asynchronously.
    await waitFor(
      'the registered webhooks to be called',
      async () => {
        const created = (await land.tgt.create(pod(`probe-${probe++}`))) as any;
        return created.spec.containers[0].env?.some((e: { name: string }) => e.name === 'KUBERNETES_SERVICE_HOST');
      },
      { timeoutMs: 30_000 },
    );

    const r = await runKubectl(land.target.kubeconfigPath, ['create', '-f', '-'], {
      input: JSON.stringify(pod('web')),
    });
    expect(r.stderr).toBe('');
    const created = (await land.tgt.get(PodK, { namespace: 'default', name: 'web' })) as any;
    expect(created.spec.containers[0].env).toContainEqual({
      name: 'KUBERNETES_SERVICE_HOST',
      value: 'api.example.com',
    });
    expect(created.spec.schedulerName).toBe('foo-scheduler'); // podSchedulerName of the example configuration
  });
});
