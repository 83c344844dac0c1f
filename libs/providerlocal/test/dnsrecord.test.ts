// provider-local's DNSRecord controller against the local API server, with the landscape's DNS: the internal DNSRecord
// the gardenlet's own renderer makes of the example shoot, and a seed ingress wildcard record, reach the local service
// proxy's state file through their ConfigMaps, and a process under the pod network preload resolves them — the shoot
// API server's name to its kube-apiserver Service (a connection on port 443 reaches the API server) — until deletion
// removes them again.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, Kinds, Manager, isNotFound, kind, type KubernetesObject } from '@gardener-ts/controller-runtime';
import type { ExtensionObject } from '@gardener-ts/extensions';
import { extensionResource } from '@gardener-ts/extensions/testing';
import {
  renderCluster,
  renderDNSRecord,
  renderKubeAPIServerService,
  type ShootValues,
} from '@gardener-ts/gardenlet-controllers';
import { ServiceProxy, podNetworkEnv } from '@gardener-ts/local-cluster';
import { gardenerAsset, startTestEnvironment, waitFor, type TestEnvironment } from '@gardener-ts/testing';
import { addProviderLocalControllers } from '../src/controller/add.js';
import { exampleShootValues } from './support/shoot-values.js';

const crd = (plural: string) => gardenerAsset('crds', `10-crd-extensions.gardener.cloud_${plural}.yaml`);
const DNSRecordKind = kind<ExtensionObject>('extensions.gardener.cloud/v1alpha1', 'DNSRecord');
const apiName = 'api.local.local.internal.local.gardener.cloud';

let env: TestEnvironment;
let client: ApiClient;
let mgr: Manager;
let proxy: ServiceProxy;
let apiServer: Server;
let dir: string;
let servicesFile: string;
let values: ShootValues;
let namespace: string;

beforeAll(async () => {
  env = await startTestEnvironment({ crds: [crd('clusters'), crd('dnsrecords')] });
  client = await ApiClient.create(env.kubeconfigPath);
  dir = await mkdtemp(join(tmpdir(), 'providerlocal-dns-'));
  servicesFile = join(dir, 'services.json');
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(env.kubeconfigPath);
  proxy = new ServiceProxy({ kubeConfig, stateFile: servicesFile });
  await proxy.start();

  values = exampleShootValues();
  namespace = values.namespace;
  await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  await client.create(renderCluster(values) as KubernetesObject);
  // The shoot's API server: its Service as the gardenlet renders it, an endpoint here.
  apiServer = createServer((_req, res) => res.end(`kube-apiserver of ${namespace}`));
  await new Promise<void>((resolve) => apiServer.listen(0, '127.0.0.1', resolve));
  // Type ClusterIP instead of LoadBalancer: a NodePort is a fixed port of this machine, which tests running side by
  // side (and a running landscape) may hold; the name leads to the Service either way.
  const service = renderKubeAPIServerService(values);
  await client.create({ ...service, spec: { ...service.spec, type: 'ClusterIP' } } as KubernetesObject);
  await client.create({
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { name: 'kube-apiserver-local', namespace, labels: { 'kubernetes.io/service-name': 'kube-apiserver' } },
    addressType: 'IPv4',
    endpoints: [{ addresses: ['127.0.0.1'], conditions: { ready: true } }],
    ports: [{ name: 'kube-apiserver', protocol: 'TCP', port: (apiServer.address() as AddressInfo).port }],
  } as KubernetesObject);

  mgr = await Manager.create({ clusters: { seed: { kubeConfig: env.kubeconfigPath } }, gracefulShutdownTimeoutMs: 0 });
  addProviderLocalControllers(mgr, ['dnsrecord']);
  await mgr.start();
}, 60_000);

afterAll(async () => {
  await mgr?.stop();
  await proxy?.stop();
  apiServer?.close();
  client?.close();
  await env?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The records of the proxy's state file, by name. */
async function stateRecords(): Promise<Record<string, { type: string; values: string[] }>> {
  const state = JSON.parse(await readFile(servicesFile, 'utf8').catch(() => '{}')) as {
    records?: { name: string; type: string; values: string[] }[];
  };
  return Object.fromEntries((state.records ?? []).map((r) => [r.name, { type: r.type, values: r.values }]));
}

/** Runs an ES module as a Pod of namespace `garden` would run it: under the pod network preload; its JSON output. */
async function inPod(source: string): Promise<unknown> {
  const env = podNetworkEnv(
    '127.9.7.1',
    { PATH: process.env.PATH ?? '', GARDENER_LOCAL_SERVICES_FILE: servicesFile },
    'garden',
  );
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', source], {
    env,
    timeout: 20_000,
  });
  return JSON.parse(stdout);
}

const succeeded = (ns: string, name: string) =>
  waitFor(
    `DNSRecord ${ns}/${name} to succeed`,
    async () => {
      const r = await client.get(DNSRecordKind, { namespace: ns, name });
      return r.status?.lastOperation?.state === 'Succeeded' ? r : undefined;
    },
    { timeoutMs: 20_000 },
  );

const gone = (what: string, get: () => Promise<unknown>) =>
  waitFor(`${what} to be gone`, () =>
    get().then(
      () => undefined,
      (err: unknown) => (isNotFound(err) ? true : Promise.reject(err)),
    ),
  );

describe('the DNSRecord controller', () => {
  it("makes the shoot API server's internal name resolve, in the landscape, to its Service", async () => {
    const record = renderDNSRecord(values, 'internal', {
      providerType: 'local',
      address: '127.0.0.1',
      now: new Date().toISOString(),
    });
    expect(record?.spec).toMatchObject({ name: apiName, recordType: 'A', values: ['127.0.0.1'] });
    await client.create(record as unknown as ExtensionObject);
    const done = await succeeded(namespace, 'local-internal');
    expect(done.metadata?.finalizers).toContain('extensions.gardener.cloud/dnsrecord');
    const configMap = await client.get(Kinds.ConfigMap, { namespace, name: 'dnsrecord-local-internal' });
    expect(configMap.metadata?.labels).toEqual({ 'local.gardener.cloud/dns-records': 'true' });

    await waitFor('the record in the proxy state file', async () => (await stateRecords())[apiName]);
    expect((await stateRecords())[apiName]).toEqual({
      type: 'CNAME',
      values: ['kube-apiserver.shoot--local--local.svc.cluster.local'],
    });
    const service = await client.get(Kinds.Service, { namespace, name: 'kube-apiserver' });
    // The proxy serves the Service once it saw its endpoint.
    await waitFor('the kube-apiserver Service in the state file', async () =>
      JSON.parse(await readFile(servicesFile, 'utf8')).services?.some(
        (s: { name: string; ports: unknown[] }) => s.name === 'kube-apiserver' && s.ports.length > 0,
      ),
    );
    const out = await inPod(`
      import dns from 'node:dns';
      const address = (await dns.promises.lookup('${apiName}', { family: 4 })).address;
      const body = await (await fetch('http://${apiName}:443/')).text();
      console.log(JSON.stringify([address, body]));`);
    expect(out).toEqual([(service as any).spec.clusterIP, 'kube-apiserver of shoot--local--local']);

    await client.delete(DNSRecordKind, { namespace, name: 'local-internal' });
    await gone('the DNSRecord', () => client.get(DNSRecordKind, { namespace, name: 'local-internal' }));
    await gone('its ConfigMap', () => client.get(Kinds.ConfigMap, { namespace, name: 'dnsrecord-local-internal' }));
    await waitFor('the record to leave the state file', async () => !(apiName in (await stateRecords())));
  }, 40_000);

  it('serves other records with their type and values, wildcards included (no Cluster needed)', async () => {
    await client.create(
      extensionResource('DNSRecord', 'default', 'ingress', {
        type: 'local',
        name: '*.ingress.local.seed.local.gardener.cloud',
        recordType: 'A',
        values: ['127.0.0.5'],
        secretRef: { name: 'dnsrecord-ingress', namespace: 'default' },
      }),
    );
    await succeeded('default', 'ingress');
    await waitFor(
      'the wildcard in the state file',
      async () => (await stateRecords())['*.ingress.local.seed.local.gardener.cloud'],
    );
    const out = await inPod(`
      import dns from 'node:dns';
      console.log(JSON.stringify((await dns.promises.lookup('grafana.ingress.local.seed.local.gardener.cloud')).address));`);
    expect(out).toBe('127.0.0.5');
    await client.delete(DNSRecordKind, { namespace: 'default', name: 'ingress' });
    await gone('the ingress ConfigMap', () =>
      client.get(Kinds.ConfigMap, { namespace: 'default', name: 'dnsrecord-ingress' }),
    );
  }, 40_000);

  it('reports a record type the local DNS cannot answer in the status', async () => {
    await client.create(
      extensionResource('DNSRecord', 'default', 'owner', {
        type: 'local',
        name: 'owner.local.gardener.cloud',
        recordType: 'TXT',
        values: ['owner-id'],
        secretRef: { name: 'dnsrecord-owner', namespace: 'default' },
      }),
    );
    const failed = await waitFor('the DNSRecord to report its error', async () => {
      const r = await client.get(DNSRecordKind, { namespace: 'default', name: 'owner' });
      return r.status?.lastOperation?.state === 'Error' ? r : undefined;
    });
    expect(failed.status?.lastError?.description).toMatch(/spec.recordType "TXT" is not served by provider-local/);
  });
});
