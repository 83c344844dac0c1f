// The service proxy against the local API server: Services reach their ready endpoints on 127.0.0.1, NodePorts listen
// on their nodePort, LoadBalancers get their ingress, local ports survive a proxy restart, ClientIP affinity keeps a
// client on one endpoint, UDP ports answer through the proxy, and headless and ExternalName Services are listed for DNS.
import { createSocket, type Socket } from 'node:dgram';
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
/** UDP echo backends: each answers a datagram with "<id>:<datagram>". */
const udpBackends: Socket[] = [];
const udpPorts: number[] = [];

const kubeConfig = () => {
  const kc = new KubeConfig();
  kc.loadFromFile(cluster.kubeconfigPath);
  return kc;
};
const apply = (manifest: object) =>
  kubectl(cluster.kubeconfigPath, ['apply', '-f', '-'], { input: JSON.stringify(manifest) });

/** A GET to 127.0.0.1:port; `localAddress` makes the client another address (all of 127.0.0.0/8 is loopback). */
function fetchText(port: number, localAddress?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path: '/', agent: false, localAddress }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve(body));
    }).on('error', reject);
  });
}

/** Sends `text` to 127.0.0.1:port from a fresh socket, again every 200 ms until the answer comes (UDP may drop). */
async function askUdp(port: number, text: string): Promise<string> {
  const client = createSocket('udp4');
  const answer = new Promise<string>((resolve) => client.once('message', (m) => resolve(m.toString())));
  const send = () => client.send(text, port, '127.0.0.1');
  const timer = setInterval(send, 200);
  send();
  try {
    return await answer;
  } finally {
    clearInterval(timer);
    client.close();
  }
}

/** Ten connections one after the other: the backends that answered, in order. */
const tenAnswers = async (port: number) => {
  const answers: string[] = [];
  for (let i = 0; i < 10; i++) answers.push(await fetchText(port));
  return answers;
};

type SlicePort = { name: string; port: number; protocol: string };

function slice(
  name: string,
  service: string,
  ready: boolean[],
  backend = 0,
  ports: SlicePort[] = [{ name: 'http', port: backendPorts[backend], protocol: 'TCP' }],
) {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { name, namespace: 'default', labels: { 'kubernetes.io/service-name': service } },
    addressType: 'IPv4',
    ports,
    endpoints: ready.map((r, i) => ({
      addresses: ['127.0.0.1'],
      conditions: { ready: r },
      targetRef: { kind: 'Pod', name: `p${i}`, namespace: 'default' },
    })),
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
    const udp = createSocket('udp4');
    udp.on('message', (m, from) => udp.send(`${id}:${m.toString()}`, from.port, from.address));
    await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
    udpBackends.push(udp);
    udpPorts.push(udp.address().port);
  }
  proxy = new ServiceProxy({ kubeConfig: kubeConfig(), stateFile: join(dir, 'services.json') });
  await proxy.start();
});

afterAll(async () => {
  await proxy?.stop();
  for (const server of backends) server.close();
  for (const socket of udpBackends) socket.close();
  await cluster?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('service proxy', () => {
  it('forwards a ClusterIP Service port to its ready endpoints', async () => {
    await apply({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web', namespace: 'default' },
      spec: { ports: [{ name: 'http', port: 80 }] },
    });
    await apply(slice('web-1', 'web', [true]));
    const port = await waitFor('the local port of web', () => proxy.localPort('default', 'web', 'http'));
    expect(
      await waitFor('backend a to answer', async () =>
        (await fetchText(port).catch(() => '')) === 'a' ? 'a' : undefined,
      ),
    ).toBe('a');
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
    await waitFor('connections to be reset', async () =>
      (await fetchText(port).then(
        () => 'answered',
        (err: NodeJS.ErrnoException) => err.code,
      )) === 'ECONNRESET'
        ? true
        : undefined,
    );
  });

  it('reports itself synced only once it has read the Services and EndpointSlices (its health)', async () => {
    expect(proxy.synced()).toBe(true);
    // A proxy whose credentials the API server refuses serves nothing, and says so.
    const refused = kubeConfig();
    refused.users = refused.users.map((u) => ({ name: u.name, token: 'not-a-valid-token' }));
    const blind = new ServiceProxy({ kubeConfig: refused, stateFile: join(dir, 'blind.json') });
    await blind.start();
    try {
      expect(blind.synced()).toBe(false);
    } finally {
      await blind.stop();
    }
  });

  it('writes the allocation to the state file and keeps the port across a restart', async () => {
    const port = proxy.localPort('default', 'web', 'http')!;
    const state = JSON.parse(await readFile(join(dir, 'services.json'), 'utf8'));
    expect(state.services).toContainEqual(
      expect.objectContaining({
        namespace: 'default',
        name: 'web',
        ports: [expect.objectContaining({ name: 'http', port: 80, localPort: port })],
      }),
    );
    await proxy.stop();
    proxy = new ServiceProxy({ kubeConfig: kubeConfig(), stateFile: join(dir, 'services.json') });
    await proxy.start();
    await apply(slice('web-1', 'web', [true]));
    expect(
      await waitFor('backend a to answer', async () =>
        (await fetchText(port).catch(() => '')) === 'a' ? 'a' : undefined,
      ),
    ).toBe('a');
    expect(proxy.localPort('default', 'web', 'http')).toBe(port);
  });

  it('listens on the nodePort of a LoadBalancer Service and publishes its ingress', async () => {
    await apply({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'lb', namespace: 'default' },
      spec: { type: 'LoadBalancer', ports: [{ name: 'http', port: 443 }] },
    });
    await apply(slice('lb-1', 'lb', [true]));
    const nodePort = Number(
      await kubectl(cluster.kubeconfigPath, ['get', 'svc', 'lb', '-o', 'jsonpath={.spec.ports[0].nodePort}']),
    );
    expect(nodePort).toBeGreaterThanOrEqual(30000);
    await waitFor('the proxy to listen on the nodePort', () =>
      proxy.localPort('default', 'lb', 'http') === nodePort ? true : undefined,
    );
    expect(await fetchText(nodePort)).toBe('a');
    const ingress = await waitFor('the load balancer ingress', async () => {
      const text = await kubectl(cluster.kubeconfigPath, [
        'get',
        'svc',
        'lb',
        '-o',
        'jsonpath={.status.loadBalancer.ingress}',
      ]);
      return text ? JSON.parse(text) : undefined;
    });
    expect(ingress).toEqual([{ ip: '127.0.0.1', ipMode: 'VIP', ports: [{ port: nodePort, protocol: 'TCP' }] }]);
  });

  it('serves a nodePort another program holds as soon as that program lets it go', async () => {
    // Another local cluster on this host listens on the port first (one of the node-port range).
    const holder = createServer((_, res) => res.end('other'));
    const port = 31000 + Math.floor(Math.random() * 1000);
    await new Promise<void>((resolve) => holder.listen(port, '127.0.0.1', resolve));
    await apply({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'taken', namespace: 'default' },
      spec: { type: 'NodePort', ports: [{ name: 'http', port: 80, nodePort: port }] },
    });
    await apply(slice('taken-1', 'taken', [true]));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(proxy.localPort('default', 'taken', 'http')).toBeUndefined();
    expect(await fetchText(port)).toBe('other');
    await new Promise<void>((resolve) => holder.close(() => resolve()));
    await waitFor('the proxy to take the freed nodePort', () =>
      proxy.localPort('default', 'taken', 'http') === port ? true : undefined,
    );
    expect(await fetchText(port)).toBe('a');
  });

  it('keeps a client on one endpoint with ClientIP affinity, alternates without, and moves on when the endpoint goes', async () => {
    const service = (sessionAffinity: string) => ({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'sticky', namespace: 'default' },
      spec: { sessionAffinity, ports: [{ name: 'http', port: 80 }] },
    });
    await apply(service('None'));
    await apply(slice('sticky-a', 'sticky', [true], 0));
    await apply(slice('sticky-b', 'sticky', [true], 1));
    const port = await waitFor('the local port of sticky', () => proxy.localPort('default', 'sticky', 'http'));
    // Round robin: one after the other, the two backends take turns.
    const alternating = await waitFor('both backends to take turns', async () => {
      const answers = await tenAnswers(port);
      return answers.every((answer, i) => i === 0 || answer !== answers[i - 1]) ? answers : undefined;
    });
    expect(new Set(alternating)).toEqual(new Set(['a', 'b']));

    await apply({
      ...service('ClientIP'),
      spec: { ...service('ClientIP').spec, sessionAffinityConfig: { clientIP: { timeoutSeconds: 600 } } },
    });
    const sticky = await waitFor('ten connections to reach one backend', async () => {
      const answers = await tenAnswers(port);
      return new Set(answers).size === 1 ? answers[0] : undefined;
    });
    expect(new Set(await tenAnswers(port))).toEqual(new Set([sticky]));

    // The endpoint leaves the ready set: the client moves on to the other one and stays there.
    await apply(slice(`sticky-${sticky}`, 'sticky', [false], sticky === 'a' ? 0 : 1));
    const other = sticky === 'a' ? 'b' : 'a';
    await waitFor('the client to move to the other backend', async () =>
      (await fetchText(port)) === other ? true : undefined,
    );
    // Back in the ready set, it gets new clients (other addresses) but not this one, whose affinity moved on.
    await apply(slice(`sticky-${sticky}`, 'sticky', [true], sticky === 'a' ? 0 : 1));
    let client = 10;
    await waitFor('a new client to reach the endpoint again', async () =>
      (await fetchText(port, `127.0.0.${client++}`)) === sticky ? true : undefined,
    );
    expect(new Set(await tenAnswers(port))).toEqual(new Set([other]));
  });

  it('lists the ready endpoints of a TCP port in the state file for direct connections, except with ClientIP affinity', async () => {
    // sticky has ClientIP affinity (the test before) and both endpoints ready.
    const stickyPorts = async () => {
      const state = JSON.parse(await readFile(join(dir, 'services.json'), 'utf8')) as {
        services: { name: string; ports: { backends?: unknown }[] }[];
      };
      return state.services.find((s) => s.name === 'sticky')?.ports;
    };
    expect((await stickyPorts())?.[0]).not.toHaveProperty('backends');
    await apply({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'sticky', namespace: 'default' },
      spec: { sessionAffinity: 'None', ports: [{ name: 'http', port: 80 }] },
    });
    const both = [
      { host: '127.0.0.1', port: backendPorts[0] },
      { host: '127.0.0.1', port: backendPorts[1] },
    ].sort((x, y) => `${x.host}:${x.port}`.localeCompare(`${y.host}:${y.port}`));
    await waitFor('both endpoints listed', async () =>
      JSON.stringify((await stickyPorts())?.[0]?.backends) === JSON.stringify(both) ? true : undefined,
    );
    // One leaves the ready set: it leaves the list.
    await apply(slice('sticky-a', 'sticky', [false], 0));
    await waitFor('only endpoint b listed', async () =>
      JSON.stringify((await stickyPorts())?.[0]?.backends) ===
      JSON.stringify([both.find((b) => b.port === backendPorts[1])])
        ? true
        : undefined,
    );
  });

  it('forwards a UDP Service port to its endpoints and lists it in the state file', async () => {
    await apply({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'echo', namespace: 'default' },
      spec: { ports: [{ name: 'echo', port: 7, protocol: 'UDP' }] },
    });
    await apply(slice('echo-a', 'echo', [true], 0, [{ name: 'echo', port: udpPorts[0], protocol: 'UDP' }]));
    await apply(slice('echo-b', 'echo', [true], 1, [{ name: 'echo', port: udpPorts[1], protocol: 'UDP' }]));
    const port = await waitFor('the local port of echo', () => proxy.localPort('default', 'echo', 'echo', 'UDP'));
    // Every client socket is a flow of its own: round robin spreads them over both backends.
    const answers = await waitFor(
      'both UDP backends to answer',
      async () => {
        const seen = await Promise.all([1, 2, 3, 4].map((i) => askUdp(port, `hi ${i}`)));
        return new Set(seen.map((s) => s.split(':')[0])).size === 2 ? seen : undefined;
      },
      { timeoutMs: 20_000 },
    );
    expect(answers.map((s) => s.split(':')[1]).sort()).toEqual(['hi 1', 'hi 2', 'hi 3', 'hi 4']);
    const state = JSON.parse(await readFile(join(dir, 'services.json'), 'utf8'));
    expect(state.services).toContainEqual(
      expect.objectContaining({ name: 'echo', ports: [{ name: 'echo', protocol: 'UDP', port: 7, localPort: port }] }),
    );
  });

  it('serves 53/TCP and 53/UDP of one NodePort Service, each on its own port', async () => {
    await apply({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'dns', namespace: 'default' },
      spec: {
        type: 'NodePort',
        ports: [
          { name: 'dns-tcp', port: 53, protocol: 'TCP' },
          { name: 'dns', port: 53, protocol: 'UDP' },
        ],
      },
    });
    await apply(
      slice('dns-1', 'dns', [true], 0, [
        { name: 'dns-tcp', port: backendPorts[0], protocol: 'TCP' },
        { name: 'dns', port: udpPorts[0], protocol: 'UDP' },
      ]),
    );
    const ports = JSON.parse(
      await kubectl(cluster.kubeconfigPath, ['get', 'svc', 'dns', '-o', 'jsonpath={.spec.ports}']),
    ) as { name: string; nodePort: number }[];
    const nodePort = (name: string) => ports.find((p) => p.name === name)!.nodePort;
    await waitFor('both ports to be served', () =>
      proxy.localPort('default', 'dns', 'dns') && proxy.localPort('default', 'dns', 'dns-tcp') ? true : undefined,
    );
    expect(proxy.localPort('default', 'dns', '53', 'TCP')).toBe(nodePort('dns-tcp'));
    expect(proxy.localPort('default', 'dns', '53', 'UDP')).toBe(nodePort('dns'));
    expect(
      await waitFor(
        'the TCP backend to answer',
        async () => (await fetchText(nodePort('dns-tcp')).catch(() => '')) || undefined,
      ),
    ).toBe('a');
    expect(await askUdp(nodePort('dns'), 'query')).toBe('a:query');
    const state = JSON.parse(await readFile(join(dir, 'services.json'), 'utf8'));
    expect(state.services.find((s: { name: string }) => s.name === 'dns').ports).toEqual([
      {
        name: 'dns-tcp',
        protocol: 'TCP',
        port: 53,
        localPort: nodePort('dns-tcp'),
        nodePort: nodePort('dns-tcp'),
        // Its endpoint, for Pods' direct connections (TCP only: datagrams go through the proxy).
        backends: [{ host: '127.0.0.1', port: backendPorts[0] }],
      },
      { name: 'dns', protocol: 'UDP', port: 53, localPort: nodePort('dns'), nodePort: nodePort('dns') },
    ]);
  });

  it('lists a headless Service’s ready endpoints with hostnames, pods and ports, and not-ready ones with publishNotReadyAddresses', async () => {
    const service = (publishNotReadyAddresses: boolean) => ({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'peers', namespace: 'default' },
      spec: { clusterIP: 'None', publishNotReadyAddresses, ports: [{ name: 'peer', port: 2380 }] },
    });
    await apply(service(false));
    // As the EndpointSlice controller writes them for StatefulSet pods peers-0..2 (hostname + subdomain "peers").
    const endpoint = (i: number, ready: boolean) => ({
      addresses: [`127.9.4.${i + 1}`],
      hostname: `peers-${i}`,
      conditions: { ready },
      targetRef: { kind: 'Pod', name: `peers-${i}`, namespace: 'default' },
    });
    await apply({
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: { name: 'peers-1', namespace: 'default', labels: { 'kubernetes.io/service-name': 'peers' } },
      addressType: 'IPv4',
      ports: [{ name: 'peer', port: 2380, protocol: 'TCP' }],
      endpoints: [endpoint(0, true), endpoint(1, true), endpoint(2, false)],
    });
    const entryIn = async (name: string, endpoints: number) => {
      const state = JSON.parse(await readFile(join(dir, 'services.json'), 'utf8')) as {
        services: { name: string; endpoints?: unknown[] }[];
      };
      const entry = state.services.find((s) => s.name === name);
      return entry?.endpoints?.length === endpoints ? entry : undefined;
    };
    const listed = (i: number) => ({
      addresses: [`127.9.4.${i + 1}`],
      hostname: `peers-${i}`,
      pod: `peers-${i}`,
      ports: [{ name: 'peer', protocol: 'TCP', port: 2380 }],
    });
    expect(await waitFor('the headless Service in the state file', () => entryIn('peers', 2))).toEqual({
      namespace: 'default',
      name: 'peers',
      type: 'ClusterIP',
      clusterIP: 'None',
      host: '127.0.0.1',
      ports: [],
      endpoints: [listed(0), listed(1)],
    });
    expect(proxy.localPort('default', 'peers', 'peer')).toBeUndefined();
    await apply(service(true));
    expect((await waitFor('the not-ready endpoint to be listed', () => entryIn('peers', 3))).endpoints).toEqual([
      listed(0),
      listed(1),
      listed(2),
    ]);
  });

  it('lists an ExternalName Service with its external name', async () => {
    await apply({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'elsewhere', namespace: 'default' },
      spec: { type: 'ExternalName', externalName: 'db.example.com.' },
    });
    const entry = await waitFor('the ExternalName Service in the state file', async () => {
      const state = JSON.parse(await readFile(join(dir, 'services.json'), 'utf8')) as { services: { name: string }[] };
      return state.services.find((s) => s.name === 'elsewhere');
    });
    expect(entry).toEqual({
      namespace: 'default',
      name: 'elsewhere',
      type: 'ExternalName',
      host: '127.0.0.1',
      ports: [],
      externalName: 'db.example.com',
    });
  });

  it('closes the ports of a deleted Service and forgets it', async () => {
    const port = proxy.localPort('default', 'web', 'http')!;
    await kubectl(cluster.kubeconfigPath, ['delete', 'svc', 'web']);
    await waitFor('web to be forgotten', () =>
      proxy.localPort('default', 'web', 'http') === undefined ? true : undefined,
    );
    await expect(fetchText(port)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});
