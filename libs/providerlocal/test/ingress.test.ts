// provider-local's Ingress controller against the local API server: an Ingress of a shoot namespace with a load
// balancer IP gets a local DNSRecord per host; an Ingress elsewhere gets none.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, Kinds, Manager, kind, type KubernetesObject } from '@gardener-ts/controller-runtime';
import { gardenerAsset, startTestEnvironment, waitFor, type TestEnvironment } from '@gardener-ts/testing';
import { addProviderLocalControllers } from '../src/controller/add.js';
import { ingressDNSRecordName } from '../src/controller/ingress/records.js';

const DNSRecordKind = kind<KubernetesObject & { spec: Record<string, unknown> }>(
  'extensions.gardener.cloud/v1alpha1',
  'DNSRecord',
);
const host = 'plutono-s--p.ingress.local.seed.local.gardener.cloud';

let env: TestEnvironment;
let client: ApiClient;
let mgr: Manager;

beforeAll(async () => {
  env = await startTestEnvironment({
    crds: [gardenerAsset('crds', '10-crd-extensions.gardener.cloud_dnsrecords.yaml')],
  });
  client = await ApiClient.create(env.kubeconfigPath);
  await client.create({
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'shoot--p--s', labels: { 'gardener.cloud/role': 'shoot' } },
  });
  await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'other' } });
  mgr = await Manager.create({ clusters: { seed: { kubeConfig: env.kubeconfigPath } }, gracefulShutdownTimeoutMs: 0 });
  addProviderLocalControllers(mgr, ['ingress']);
  await mgr.start();
}, 60_000);

afterAll(async () => {
  await mgr?.stop();
  client?.close();
  await env?.stop();
});

async function createIngress(namespace: string): Promise<void> {
  await client.create({
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: { name: 'plutono', namespace },
    spec: {
      rules: [
        {
          host,
          http: {
            paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'plutono', port: { number: 80 } } } }],
          },
        },
      ],
    },
  } as KubernetesObject);
  await client.patch(
    Kinds.Ingress,
    { namespace, name: 'plutono' },
    { type: 'merge', patch: { status: { loadBalancer: { ingress: [{ ip: '172.18.255.3' }] } } } },
    { subresource: 'status' },
  );
}

describe('the Ingress controller', () => {
  it('makes a local DNSRecord for the host of an Ingress in a shoot namespace, and none elsewhere', async () => {
    await createIngress('other');
    await createIngress('shoot--p--s');
    const name = ingressDNSRecordName('plutono', host);
    const record = await waitFor(
      'the DNSRecord',
      () => client.get(DNSRecordKind, { namespace: 'shoot--p--s', name }).catch(() => undefined),
      { timeoutMs: 10_000 },
    );
    expect(record.spec).toMatchObject({ type: 'local', recordType: 'A', name: host, values: ['172.18.255.3'] });
    expect(record.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'Ingress', name: 'plutono', controller: true });
    expect((await client.list(DNSRecordKind, { namespace: 'other' })).items).toEqual([]);
  });
});
