// End to end: the built resource-manager serves its webhooks (self-signed certificate, as no certificate directory is
// configured); the local API servers call them through Mutating/ValidatingWebhookConfigurations, and objects created,
// updated and deleted with kubectl come out mutated or refused as the seed document describes.
import { readFile } from 'node:fs/promises';
import YAML from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resourceManagerConfigSpec, type ResourceManagerConfiguration } from '@gardener-ts/component-config';
import { kind, type ApiClient, type KubernetesObject } from '@gardener-ts/controller-runtime';
import { webhookConfigurations } from '@gardener-ts/resourcemanager';
import { gardenerAsset, runKubectl } from '@gardener-ts/testing';
import { startLandscape, waitFor, type Landscape } from './harness.js';

let land: Landscape;
let port = 0;
let caBundle = '';
const Any = kind<KubernetesObject & { spec?: any; endpoints?: any[] }>;

const on = { enabled: true };
const webhookSettings = {
  highAvailabilityConfig: {
    enabled: true,
    defaultNotReadyTolerationSeconds: 60,
    defaultUnreachableTolerationSeconds: 90,
  },
  kubernetesServiceHost: { enabled: true, host: 'api.example.com' },
  projectedTokenMount: { enabled: true, expirationSeconds: 7200 },
  podTopologySpreadConstraints: on,
  systemComponentsConfig: {
    enabled: true,
    nodeSelector: { 'worker.gardener.cloud/system-components': 'true' },
    podNodeSelector: { 'worker.gardener.cloud/system-components': 'true' },
    podTolerations: [],
  },
  endpointSliceHints: on,
  crdDeletionProtection: on,
  extensionValidation: on,
  podSchedulerName: { enabled: false },
  seccompProfile: { enabled: false },
  nodeAgentAuthorizer: { enabled: false },
};

/** kubectl against the target (or source) API server; `input` is applied as a manifest. */
async function kubectl(where: 'source' | 'target', args: string[], input?: unknown) {
  const env = where === 'source' ? land.source : land.target;
  return runKubectl(
    env.kubeconfigPath,
    args,
    input === undefined ? {} : { input: typeof input === 'string' ? input : YAML.stringify(input) },
  );
}
async function apply(where: 'source' | 'target', manifest: unknown) {
  const r = await kubectl(where, ['apply', '-f', '-'], manifest);
  if (r.code !== 0) throw new Error(`kubectl apply failed: ${r.stderr}`);
}
const get = (c: ApiClient, apiVersion: string, k: string, namespace: string | undefined, name: string) =>
  c.get(Any(apiVersion, k), { namespace, name });

function pod(name: string, namespace: string, labels: Record<string, string> = {}, spec: Record<string, unknown> = {}) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace, labels },
    spec: { containers: [{ name: 'app', image: 'nginx' }], ...spec },
  };
}

beforeAll(async () => {
  land = await startLandscape((config) => {
    config.server.webhooks = { bindAddress: '127.0.0.1', port: 0, tls: { serverCertDir: '' } };
    config.webhooks = webhookSettings;
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

  const config = resourceManagerConfigSpec.schema.parse({
    apiVersion: 'resourcemanager.config.gardener.cloud/v1alpha1',
    kind: 'ResourceManagerConfiguration',
    webhooks: webhookSettings,
  }) as ResourceManagerConfiguration;
  const [mutating, validating] = webhookConfigurations(config, { url: `https://127.0.0.1:${port}` }, caBundle);
  await land.tgt.create(mutating!);
  // The deletion protection and the extension validation guard the seed's extension resources: the source cluster.
  await land.src.create(validating!);
  for (const crd of ['infrastructures', 'dnsrecords']) {
    const r = await runKubectl(land.source.kubeconfigPath, [
      'apply',
      '-f',
      gardenerAsset('crds', `10-crd-extensions.gardener.cloud_${crd}.yaml`),
    ]);
    if (r.code !== 0) throw new Error(r.stderr);
  }
  await runKubectl(land.source.kubeconfigPath, [
    'wait',
    '--for=condition=Established',
    'crd/infrastructures.extensions.gardener.cloud',
    'crd/dnsrecords.extensions.gardener.cloud',
  ]);

  // The API servers pick configurations up asynchronously: wait until each calls the webhooks.
  let probe = 0;
  await waitFor('the mutating webhooks to be active', async () => {
    const created = await land.tgt.create(pod(`probe-${probe++}`, 'default'));
    return (created as any).spec.containers[0].env?.[0]?.value === 'api.example.com';
  });
  await waitFor('the validating webhooks to be active', async () => {
    const r = await kubectl('source', ['create', '-f', '-'], infrastructure('probe', { type: 'aws' }));
    return r.code !== 0 && r.stderr.includes('spec.region: Required value');
  });
}, 90_000);

afterAll(async () => {
  await land?.stop();
});

function infrastructure(name: string, spec: Record<string, unknown>, annotations: Record<string, string> = {}) {
  return {
    apiVersion: 'extensions.gardener.cloud/v1alpha1',
    kind: 'Infrastructure',
    metadata: { name, namespace: 'default', annotations },
    spec,
  };
}

describe('high-availability-config', () => {
  const deployment = (name: string, namespace: string, labels: Record<string, string>) => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace, labels },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image: 'nginx' }] } },
    },
  });

  beforeAll(async () => {
    const annotations = {
      'high-availability-config.resources.gardener.cloud/failure-tolerance-type': 'zone',
      'high-availability-config.resources.gardener.cloud/zones': 'zone-a,zone-b',
    };
    await apply('target', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: {
        name: 'ha',
        labels: { 'high-availability-config.resources.gardener.cloud/consider': 'true' },
        annotations,
      },
    });
    await apply('target', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'not-considered', annotations } });
  });

  it('sets replicas, zone pinning, spread constraints and eviction tolerations of a Deployment', async () => {
    await apply(
      'target',
      deployment('server', 'ha', { 'high-availability-config.resources.gardener.cloud/type': 'server' }),
    );
    const d = await get(land.tgt, 'apps/v1', 'Deployment', 'ha', 'server');
    expect(d.spec.replicas).toBe(2);
    const pod = d.spec.template.spec;
    expect(pod.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms).toEqual([
      { matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['zone-a', 'zone-b'] }] },
    ]);
    expect(pod.topologySpreadConstraints).toEqual([
      {
        topologyKey: 'kubernetes.io/hostname',
        maxSkew: 1,
        whenUnsatisfiable: 'DoNotSchedule',
        labelSelector: { matchLabels: { app: 'server' } },
      },
      {
        topologyKey: 'topology.kubernetes.io/zone',
        minDomains: 2,
        maxSkew: 1,
        whenUnsatisfiable: 'DoNotSchedule',
        labelSelector: { matchLabels: { app: 'server' } },
      },
    ]);
    expect(pod.tolerations).toEqual([
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 90 },
    ]);
  });

  it('leaves resources labelled skip, and namespaces not labelled consider, alone', async () => {
    await apply(
      'target',
      deployment('skipped', 'ha', {
        'high-availability-config.resources.gardener.cloud/type': 'server',
        'high-availability-config.resources.gardener.cloud/skip': 'true',
      }),
    );
    await apply(
      'target',
      deployment('outside', 'not-considered', { 'high-availability-config.resources.gardener.cloud/type': 'server' }),
    );
    for (const [ns, name] of [
      ['ha', 'skipped'],
      ['not-considered', 'outside'],
    ] as const) {
      const d = await get(land.tgt, 'apps/v1', 'Deployment', ns, name);
      expect(d.spec.replicas).toBe(1);
      expect(d.spec.template.spec.topologySpreadConstraints).toBeUndefined();
    }
  });
});

describe('pod webhooks', () => {
  it('injects KUBERNETES_SERVICE_HOST, except for pods labelled inject=disable', async () => {
    await apply('target', pod('injected', 'default'));
    await apply(
      'target',
      pod('not-injected', 'default', { 'apiserver-proxy.networking.gardener.cloud/inject': 'disable' }),
    );
    expect((await get(land.tgt, 'v1', 'Pod', 'default', 'injected')).spec.containers[0].env).toEqual([
      { name: 'KUBERNETES_SERVICE_HOST', value: 'api.example.com' },
    ]);
    expect((await get(land.tgt, 'v1', 'Pod', 'default', 'not-injected')).spec.containers[0].env).toBeUndefined();
  });

  it('mounts a projected token for ServiceAccounts that do not automount, unless the pod opts out', async () => {
    await apply('target', {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'app', namespace: 'default' },
      automountServiceAccountToken: false,
    });
    await apply('target', pod('projected', 'default', {}, { serviceAccountName: 'app' }));
    await apply(
      'target',
      pod(
        'projected-skip',
        'default',
        { 'projected-token-mount.resources.gardener.cloud/skip': 'true' },
        { serviceAccountName: 'app' },
      ),
    );
    const spec = (await get(land.tgt, 'v1', 'Pod', 'default', 'projected')).spec;
    const volume = spec.volumes.find((v: { name: string }) => v.name === 'kube-api-access-gardener');
    expect(volume.projected.sources[0]).toEqual({ serviceAccountToken: { expirationSeconds: 7200, path: 'token' } });
    expect(spec.containers[0].volumeMounts).toContainEqual({
      name: 'kube-api-access-gardener',
      mountPath: '/var/run/secrets/kubernetes.io/serviceaccount',
      readOnly: true,
    });
    const skipped = (await get(land.tgt, 'v1', 'Pod', 'default', 'projected-skip')).spec;
    expect((skipped.volumes ?? []).some((v: { name: string }) => v.name.startsWith('kube-api-access-'))).toBe(false);
  });

  it('adds the pod-template-hash to topology spread constraints', async () => {
    const tsc = [
      {
        maxSkew: 1,
        topologyKey: 'topology.kubernetes.io/zone',
        whenUnsatisfiable: 'DoNotSchedule',
        labelSelector: { matchLabels: { app: 'web' } },
      },
    ];
    await apply(
      'target',
      pod('spread', 'default', { app: 'web', 'pod-template-hash': '123abc' }, { topologySpreadConstraints: tsc }),
    );
    const spec = (await get(land.tgt, 'v1', 'Pod', 'default', 'spread')).spec;
    expect(spec.topologySpreadConstraints[0].labelSelector.matchLabels).toEqual({
      app: 'web',
      'pod-template-hash': '123abc',
    });
  });

  it('gives system components in kube-system the node selector and tolerations for system component nodes', async () => {
    await land.tgt.create({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'system-node', labels: { 'worker.gardener.cloud/system-components': 'true' } },
      spec: { taints: [{ key: 'dedicated', value: 'system', effect: 'NoSchedule' }] },
    } as KubernetesObject);
    await apply('target', pod('system', 'kube-system', { 'resources.gardener.cloud/managed-by': 'gardener' }));
    await apply(
      'target',
      pod('system-skip', 'kube-system', {
        'resources.gardener.cloud/managed-by': 'gardener',
        'system-components-config.resources.gardener.cloud/skip': 'true',
      }),
    );
    const spec = (await get(land.tgt, 'v1', 'Pod', 'kube-system', 'system')).spec;
    expect(spec.nodeSelector).toEqual({ 'worker.gardener.cloud/system-components': 'true' });
    expect(spec.tolerations).toContainEqual({
      key: 'dedicated',
      operator: 'Equal',
      value: 'system',
      effect: 'NoSchedule',
    });
    expect((await get(land.tgt, 'v1', 'Pod', 'kube-system', 'system-skip')).spec.nodeSelector).toBeUndefined();
  });
});

describe('endpoint-slice-hints', () => {
  it('hints each endpoint for its zone in slices labelled consider (the seed example)', async () => {
    await apply('target', {
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: {
        name: 'example-hints',
        namespace: 'default',
        labels: { 'endpoint-slice-hints.resources.gardener.cloud/consider': 'true' },
      },
      addressType: 'IPv4',
      endpoints: [
        { addresses: ['10.1.2.3'], conditions: { ready: true }, hostname: 'pod-1', zone: 'zone-a' },
        { addresses: ['10.1.2.4'], conditions: { ready: true }, hostname: 'pod-2', zone: 'zone-b' },
      ],
    });
    const slice = await get(land.tgt, 'discovery.k8s.io/v1', 'EndpointSlice', 'default', 'example-hints');
    expect(slice.endpoints!.map((e) => e.hints)).toEqual([
      { forZones: [{ name: 'zone-a' }] },
      { forZones: [{ name: 'zone-b' }] },
    ]);
  });
});

describe('crd-deletion-protection', () => {
  it('refuses deleting an extension resource until it is annotated with the confirmation', async () => {
    await apply(
      'source',
      infrastructure('infra', { type: 'aws', region: 'eu-west-1', secretRef: { name: 'cloud', namespace: 'default' } }),
    );
    const refused = await kubectl('source', ['delete', 'infrastructure', 'infra', '-n', 'default', '--wait=false']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('confirmation.gardener.cloud/deletion=true');
    await kubectl('source', [
      'annotate',
      'infrastructure',
      'infra',
      '-n',
      'default',
      'confirmation.gardener.cloud/deletion=true',
    ]);
    const deleted = await kubectl('source', ['delete', 'infrastructure', 'infra', '-n', 'default', '--wait=false']);
    expect(deleted.stderr).toBe('');
    expect(deleted.code).toBe(0);
  });

  it('refuses deleting a CRD labelled deletion-protected until it is confirmed', async () => {
    const crd = 'crd/dnsrecords.extensions.gardener.cloud';
    await kubectl('source', ['label', '--overwrite', crd, 'gardener.cloud/deletion-protected=true']);
    const refused = await kubectl('source', ['delete', crd, '--wait=false']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('denied the request');
    await kubectl('source', ['annotate', crd, 'confirmation.gardener.cloud/deletion=true']);
    expect((await kubectl('source', ['delete', crd, '--wait=false'])).code).toBe(0);
  });
});

describe('extension-validation', () => {
  it('refuses an invalid extension resource and an immutable change, accepts a valid one', async () => {
    const invalid = await kubectl('source', ['create', '-f', '-'], infrastructure('broken', { type: 'aws' }));
    expect(invalid.code).not.toBe(0);
    expect(invalid.stderr).toContain('spec.region: Required value');
    const spec = { type: 'aws', region: 'eu-west-1', secretRef: { name: 'cloud', namespace: 'default' } };
    await apply('source', infrastructure('valid', spec));
    const changed = await kubectl(
      'source',
      ['apply', '-f', '-'],
      infrastructure('valid', { ...spec, region: 'us-east-1' }),
    );
    expect(changed.code).not.toBe(0);
    expect(changed.stderr).toContain('spec.region: Invalid value: field is immutable');
  });
});
