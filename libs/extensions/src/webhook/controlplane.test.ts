import fc from 'fast-check';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { createLogger } from '@gardener-ts/logging';
import {
  createJsonPatch,
  webhookConfiguration,
  type AdmissionRequest,
  type Workload,
} from '@gardener-ts/controller-runtime';
import {
  controlPlaneMutator,
  containerWithName,
  ensureStringWithPrefix,
  ensureUnit,
  type OperatingSystemConfigObject,
} from './controlplane.js';
import { controlPlaneWebhook, shootWebhooksManagedResource } from './shoot-webhooks.js';

const hctx = { log: createLogger({ name: 'test', level: 'silent' }), signal: new AbortController().signal };

// The kube-controller-manager as gardenlet deploys it (Gardener's extension docs, example 2).
const kcm: Workload = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'kube-controller-manager', namespace: 'shoot--core--aws-01' },
  spec: {
    template: {
      spec: {
        containers: [
          {
            name: 'kube-controller-manager',
            command: [
              '/usr/local/bin/kube-controller-manager',
              '--allocate-node-cidrs=true',
              '--cluster-cidr=100.96.0.0/11',
              '--cluster-name=shoot--core--aws-01',
            ],
          },
        ],
      },
    },
  },
};

function request<T extends Workload | OperatingSystemConfigObject>(kind: string, object: T): AdmissionRequest<T> {
  return {
    uid: '1',
    kind: { group: kind === 'Deployment' ? 'apps' : 'extensions.gardener.cloud', version: 'v1', kind },
    resource: { group: '', version: 'v1', resource: '' },
    namespace: object.metadata?.namespace,
    name: object.metadata?.name,
    operation: 'CREATE',
    userInfo: {},
    object,
  };
}

describe('controlPlaneMutator', () => {
  const ensurer = {
    ensureKubeControllerManagerDeployment(_ctx: unknown, d: Workload) {
      const c = containerWithName(d, 'kube-controller-manager')!;
      c.command = ensureStringWithPrefix(c.command, '--cloud-provider=', 'external');
      c.command = ensureStringWithPrefix(c.command, '--external-cloud-volume-plugin=', 'aws');
    },
    ensureOperatingSystemConfig(_ctx: unknown, osc: OperatingSystemConfigObject) {
      ensureUnit(osc, { name: 'cloud-config-downloader.service', enable: true, content: '[Unit]' });
    },
  };

  it("adds the provider's flags to the kube-controller-manager and answers with the JSON patch", async () => {
    const result = await controlPlaneMutator(ensurer)(request('Deployment', kcm), hctx);
    expect(result.allowed).toBe(true);
    const out = (result as { patched?: Workload }).patched!;
    expect(containerWithName(out, 'kube-controller-manager')!.command).toEqual([
      ...(containerWithName(kcm, 'kube-controller-manager')!.command as string[]),
      '--cloud-provider=external',
      '--external-cloud-volume-plugin=aws',
    ]);
    expect(createJsonPatch(kcm, out).length).toBeGreaterThan(0);
  });

  it('leaves other Deployments and unchanged objects alone', async () => {
    const other = { ...kcm, metadata: { ...kcm.metadata, name: 'etcd-druid' } };
    expect(await controlPlaneMutator(ensurer)(request('Deployment', other), hctx)).toEqual({ allowed: true });
    expect(await controlPlaneMutator({})(request('Deployment', kcm), hctx)).toEqual({ allowed: true });
  });

  it('ensures OSC units by name', async () => {
    const osc: OperatingSystemConfigObject = {
      apiVersion: 'extensions.gardener.cloud/v1alpha1',
      kind: 'OperatingSystemConfig',
      metadata: { name: 'osc', namespace: 'shoot--core--aws-01' },
      spec: { type: 'ubuntu', units: [{ name: 'cloud-config-downloader.service', content: 'old' }] },
    };
    const result = (await controlPlaneMutator(ensurer)(request('OperatingSystemConfig', osc), hctx)) as {
      patched?: OperatingSystemConfigObject;
    };
    expect(result.patched?.spec.units).toEqual([
      { name: 'cloud-config-downloader.service', enable: true, content: '[Unit]' },
    ]);
  });
});

describe('ensureStringWithPrefix', () => {
  it('leaves exactly one entry with the prefix, set to the value, and keeps the others in order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('--a=1', '--a=2', '--b=1', '--c')),
        fc.constantFrom('x', 'y'),
        (items, value) => {
          const out = ensureStringWithPrefix(items, '--a=', value);
          const others = items.filter((s) => !s.startsWith('--a='));
          return (
            out.filter((s) => s.startsWith('--a=')).length === 1 &&
            out.includes(`--a=${value}`) &&
            out.filter((s) => !s.startsWith('--a=')).join() === others.join()
          );
        },
      ),
    );
  });
});

describe('shoot webhooks', () => {
  it('deploys the webhook configuration into the shoot with a ManagedResource', () => {
    const configuration = webhookConfiguration({
      type: 'mutating',
      name: 'gardener-extension-provider-local-shoot',
      target: { url: 'https://gardener-extension-provider-local.extension-provider-local:443' },
      caBundle: 'CA',
      webhooks: [
        {
          name: 'shoot.local.extensions.gardener.cloud',
          path: '/webhooks/shoot',
          rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
        },
      ],
    });
    const [secret, mr] = shootWebhooksManagedResource('provider-local', 'shoot--dev--demo', configuration);
    expect(mr).toMatchObject({
      kind: 'ManagedResource',
      metadata: { name: 'extension-provider-local-shoot-webhooks', namespace: 'shoot--dev--demo' },
      // The gardenlet's cleanup of a deleted shoot leaves them to the resource manager, as Gardener's CreateForShoot.
      spec: {
        secretRefs: [{ name: secret.metadata?.name }],
        injectLabels: { 'shoot.gardener.cloud/no-cleanup': 'true' },
      },
    });
    const [content] = Object.values(secret.data ?? {});
    expect(parse(Buffer.from(content, 'base64').toString())).toEqual(configuration);
  });

  it('selects shoot namespaces of the provider for the control plane webhook', () => {
    expect(controlPlaneWebhook('local').namespaceSelector).toEqual({
      matchLabels: { 'shoot.gardener.cloud/provider': 'local' },
    });
  });
});
