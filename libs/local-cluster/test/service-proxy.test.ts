// The service proxy against the local API server: Services reach their ready endpoints on 127.0.0.1, NodePorts listen
// on their nodePort, LoadBalancers get their ingress, and local ports survive a proxy restart.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestCluster, type TestCluster } from '@gardener-ts/local-apiserver';
import { kubectl, waitFor } from '@gardener-ts/test-support';
import { ServiceProxy } from '../src/proxy/service-proxy.js';

let cluster: TestCluster;
let dir: string;
let proxy: ServiceProxy;
const backends: Server[] = [];
const backendPorts: number[] = [];

const kubeConfig = () => {
  const kc = new KubeConfig();
  kc.loadFromFile(cluster.kubeconfigPath);
  return kc;
};
const apply = (manifest: object) => kubectl(cluster.kubeconfigPath, ['apply', '-f', '-'], { input: JSON.stringify(manifest) });

function fetchText(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path: '/', agent: false }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve(body));
    }).on('error', reject);
  });
}

function slice(name: string, service: string, ready: boolean[], backend = 0) {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { name, namespace: 'default', labels: { 'kubernetes.io/service-name': service } },
    addressType: 'IPv4',
    ports: [{ name: 'http', port: backendPorts[backend], protocol: 'TCP' }],
    endpoints: ready.map((r, i) => ({ addresses: ['127.0.0.1'], conditions: { ready: r }, targetRef: { kind: 'Pod', name: `p${i}`, namespace: 'default' } })),
  };
}

beforeAll(async () => {
  cluster = await startTestCluster();
  dir = await mkdtemp(join(tmpdir(), 'service-proxy-'));
  for (const id of ['a', 'b']) {
    const server = createServer((_req, res) => res.end(id));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    backends.push(server);
    backendPorts.push((server.address() as AddressInfo).port);
  }
  proxy = new ServiceProxy({ kubeConfig: kubeConfig(), stateFile: join(dir, 'services.json') });
  await proxy.start();
});

afterAll(async () => {
  await proxy?.stop();
  for (const server of backends) server.close();
  await cluster?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('service proxy', () => {
  it('forwards a ClusterIP Service port to its ready endpoints', async () => {
    await apply({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'default' }, spec: { ports: [{ name: 'http', port: 80 }] } });
    await apply(slice('web-1', 'web', [true]));
    const port = await waitFor('the local port of web', () => proxy.localPort('default', 'web', 'http'));
    expect(await waitFor('backend a to answer', async () => ((await fetchText(port).catch(() => '')) === 'a' ? 'a' : undefined))).toBe('a');
  });

  it('spreads connections over the endpoints of all the Service’s slices', async () => {
    const port = proxy.localPort('default', 'web', 'http')!;
    await apply(slice('web-2', 'web', [true], 1));
    const answers = await waitFor('both backends to answer', async () => {
      const seen = new Set(await Promise.all([1, 2, 3, 4].map(() => fetchText(port))));
      return seen.size === 2 ? [...seen].sort() : undefined;
    });
    expect(answers).toEqual(['a', 'b']);
    await kubectl(cluster.kubeconfigPath, ['delete', 'endpointslice', 'web-2']);
  });

  it('keeps a not-ready endpoint out and resets connections when none is ready', async () => {
    const port = proxy.localPort('default', 'web', 'http')!;
    await apply(slice('web-1', 'web', [false]));
    await waitFor('connections to be reset', async () => ((await fetchText(port).then(() => 'answered', (err: NodeJS.ErrnoException) => err.code)) === 'ECONNRESET' ? true : undefined));
  });

  it('writes the allocation to the state file and keeps the port across a restart', async () => {
    const port = proxy.localPort('default', 'web', 'http')!;
    const state = JSON.parse(await readFile(join(dir, 'services.json'), 'utf8'));
    expect(state.services).toContainEqual(expect.objectContaining({ namespace: 'default', name: 'web', ports: [expect.objectContaining({ name: 'http', port: 80, localPort: port })] }));
    await proxy.stop();
    proxy = new ServiceProxy({ kubeConfig: kubeConfig(), stateFile: join(dir, 'services.json') });
    await proxy.start();
    await apply(slice('web-1', 'web', [true]));
    expect(await waitFor('backend a to answer', async () => ((await fetchText(port).catch(() => '')) === 'a' ? 'a' : undefined))).toBe('a');
    expect(proxy.localPort('default', 'web', 'http')).toBe(port);
  });

  it('listens on the nodePort of a LoadBalancer Service and publishes its ingress', async () => {
    await apply({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'lb', namespace: 'default' }, spec: { type: 'LoadBalancer', ports: [{ name: 'http', port: 443 }] } });
    await apply(slice('lb-1', 'lb', [true]));
    const nodePort = Number(await kubectl(cluster.kubeconfigPath, ['get', 'svc', 'lb', '-o', 'jsonpath={.spec.ports[0].nodePort}']));
    expect(nodePort).toBeGreaterThanOrEqual(30000);
    await waitFor('the proxy to listen on the nodePort', () => (proxy.localPort('default', 'lb', 'http') === nodePort ? true : undefined));
    expect(await fetchText(nodePort)).toBe('a');
    const ingress = await waitFor('the load balancer ingress', async () => {
      const text = await kubectl(cluster.kubeconfigPath, ['get', 'svc', 'lb', '-o', 'jsonpath={.status.loadBalancer.ingress}']);
      return text ? JSON.parse(text) : undefined;
    });
    expect(ingress).toEqual([{ ip: '127.0.0.1', ipMode: 'VIP', ports: [{ port: nodePort, protocol: 'TCP' }] }]);
  });

  it('closes the ports of a deleted Service and forgets it', async () => {
    const port = proxy.localPort('default', 'web', 'http')!;
    await kubectl(cluster.kubeconfigPath, ['delete', 'svc', 'web']);
    await waitFor('web to be forgotten', () => (proxy.localPort('default', 'web', 'http') === undefined ? true : undefined));
    await expect(fetchText(port)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});
