// A whole local cluster (API server, controller manager, kubelet, service proxy): a Node.js program in one pod
// reaches another pod's Service by its DNS names and its ClusterIP, and the API server as kubernetes.default.svc,
// through the pod network preload and the service proxy's services.json; a StatefulSet's pods by their DNS names.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@gardener-ts/logging';
import { kubectl, waitFor } from '@gardener-ts/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultComponents } from '../../src/cluster/components.js';
import { clusterLayout } from '../../src/cluster/layout.js';
import { runCluster, type RunningCluster } from '../../src/cluster/supervisor.js';

let dir: string;
let cluster: RunningCluster;
let kubeconfig: string;

const run = (args: string[], input?: object) =>
  kubectl(kubeconfig, args, input ? { input: JSON.stringify(input) } : {});
const jsonOf = async <T>(args: string[]) => JSON.parse(await run([...args, '-o', 'json'])) as T;

// The backend: answers every request with its own name, listening on all interfaces (the preload binds the pod IP).
const SERVER = `require('node:http').createServer((req, res) => res.end('hello from web')).listen(8080);`;

// The client: fetches the Service by each of its names and by ClusterIP, then the API server by name over TLS,
// verified against the cluster CA (the kube-root-ca.crt ConfigMap, mounted at /ca). Prints one JSON line; exits 1
// on any failure.
const CLIENT = `
  import https from 'node:https';
  import { readFileSync } from 'node:fs';
  const [clusterIP] = process.argv.slice(1);
  const text = async (url) => { const res = await fetch(url); return res.status + ' ' + (await res.text()); };
  const results = {};
  try {
    for (const url of ['http://web.apps.svc.cluster.local/', 'http://web.apps.svc/', 'http://web.apps/', 'http://web/', 'http://' + clusterIP + ':80/']) results[url] = await text(url);
    // The kubelet rewrites mount paths in a container's args to where the volume is on this machine.
    const ca = readFileSync('/ca/ca.crt');
    // Anonymous: any HTTP answer will do; what matters is that TLS verified the server as kubernetes.default.svc.
    results.apiserver = await new Promise((resolve, reject) =>
      https.get({ host: 'kubernetes.default.svc', path: '/healthz', ca }, (res) => {
        resolve((res.socket.authorized ? 'verified' : 'unverified') + ' ' + res.statusCode);
        res.resume();
      }).on('error', reject));
    console.log(JSON.stringify(results));
  } catch (err) {
    console.log(JSON.stringify({ ...results, error: String(err), cause: String(err.cause ?? '') }));
    process.exit(1);
  }`;

// A StatefulSet pod: answers with its name.
const DB = `require('node:http').createServer((req, res) => res.end(process.env.HOSTNAME)).listen(8080);`;

// Resolves the StatefulSet's headless Service and its pods by name (retrying until the service proxy has listed both
// endpoints), fetches each pod by its DNS name, and asks for the SRV records of the named port.
const DB_CLIENT = `
  import dns from 'node:dns';
  const all = async () => (await dns.promises.lookup('db', { all: true }).catch(() => [])).map((a) => a.address).sort();
  let addresses = [];
  for (let i = 0; i < 200 && addresses.length < 2; i++) {
    addresses = await all();
    if (addresses.length < 2) await new Promise((r) => setTimeout(r, 100));
  }
  const text = async (url) => (await fetch(url)).text();
  console.log(JSON.stringify({
    all: addresses,
    'db-0': (await dns.promises.lookup('db-0.db.apps.svc.cluster.local')).address,
    bodies: [await text('http://db-0.db:8080/'), await text('http://db-1.db.apps.svc:8080/')],
    srv: (await dns.promises.resolveSrv('_peer._tcp.db.apps.svc.cluster.local')).sort((a, b) => a.name.localeCompare(b.name)),
  }));`;

/** Waits for a pod of namespace apps to finish, expects it to have succeeded, and returns its logs. */
async function succeeded(name: string): Promise<string> {
  const phase = await waitFor(
    `pod ${name} to finish`,
    async () => {
      const pod = await jsonOf<{ status?: { phase?: string } }>(['get', 'pod', name, '-n', 'apps']);
      return pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed' ? pod.status.phase : undefined;
    },
    { timeoutMs: 60_000, intervalMs: 500 },
  );
  const logs = (await run(['logs', name, '-n', 'apps'])).trim();
  expect(phase, logs).toBe('Succeeded');
  return logs;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'in-cluster-services-'));
  const imageMap = join(dir, 'images.yaml');
  await writeFile(imageMap, JSON.stringify({ images: [{ image: 'node', command: [process.execPath] }] }));
  const logger = createLogger({
    name: 'in-cluster-services-test',
    level: process.env.CLUSTER_TEST_LOG ? 'debug' : 'silent',
  });
  cluster = await runCluster(clusterLayout(dir, 'dns'), defaultComponents({ imageMapFile: imageMap }), logger);
  kubeconfig = clusterLayout(dir, 'dns').kubeconfig;
  await run(['create', 'namespace', 'apps']);
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
}, 60_000);

// The two tests use Services and Pods of their own: they run side by side.
describe.concurrent('Services inside the cluster', () => {
  it('are reached by name and ClusterIP from a Node.js pod, and so is the API server', async () => {
    await run(['apply', '-f', '-'], {
      apiVersion: 'v1',
      kind: 'List',
      items: [
        {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'web', namespace: 'apps', labels: { app: 'web' } },
          spec: {
            containers: [
              {
                name: 'web',
                image: 'node',
                args: ['-e', SERVER],
                readinessProbe: { tcpSocket: { port: 8080 }, periodSeconds: 1 },
              },
            ],
          },
        },
        {
          apiVersion: 'v1',
          kind: 'Service',
          metadata: { name: 'web', namespace: 'apps' },
          spec: { selector: { app: 'web' }, ports: [{ port: 80, targetPort: 8080 }] },
        },
      ],
    });
    const service = await jsonOf<{ spec: { clusterIP: string } }>(['get', 'service', 'web', '-n', 'apps']);
    // The proxy serves the Service once the backend is ready (EndpointSlice) — the client must not start before.
    await run(['wait', '--for=condition=Ready', 'pod/web', '-n', 'apps', '--timeout=60s']);

    await run(['apply', '-f', '-'], {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'client', namespace: 'apps' },
      spec: {
        restartPolicy: 'Never',
        volumes: [{ name: 'ca', configMap: { name: 'kube-root-ca.crt' } }],
        containers: [
          {
            name: 'client',
            image: 'node',
            args: ['--input-type=module', '-e', CLIENT, service.spec.clusterIP],
            volumeMounts: [{ name: 'ca', mountPath: '/ca' }],
          },
        ],
      },
    });
    const logs = await succeeded('client');
    const ok = '200 hello from web';
    const results = JSON.parse(logs.split('\n').at(-1)!) as Record<string, string>;
    expect(results.apiserver).toMatch(/^verified \d{3}$/);
    expect(results).toEqual({
      'http://web.apps.svc.cluster.local/': ok,
      'http://web.apps.svc/': ok,
      'http://web.apps/': ok,
      'http://web/': ok,
      [`http://${service.spec.clusterIP}:80/`]: ok,
      apiserver: results.apiserver,
    });
  }, 150_000);

  it('resolves a StatefulSet’s headless Service to its pods, each pod by name, and its SRV records', async () => {
    // Two pods db-0 and db-1 (hostname + subdomain db), each answering with its own name (HOSTNAME is the pod name).
    await run(['apply', '-f', '-'], {
      apiVersion: 'v1',
      kind: 'List',
      items: [
        {
          apiVersion: 'v1',
          kind: 'Service',
          metadata: { name: 'db', namespace: 'apps' },
          spec: { clusterIP: 'None', selector: { app: 'db' }, ports: [{ name: 'peer', port: 8080 }] },
        },
        {
          apiVersion: 'apps/v1',
          kind: 'StatefulSet',
          metadata: { name: 'db', namespace: 'apps' },
          spec: {
            serviceName: 'db',
            replicas: 2,
            podManagementPolicy: 'Parallel',
            selector: { matchLabels: { app: 'db' } },
            template: {
              metadata: { labels: { app: 'db' } },
              spec: {
                containers: [
                  {
                    name: 'db',
                    image: 'node',
                    args: ['-e', DB],
                    readinessProbe: { tcpSocket: { port: 8080 }, periodSeconds: 1 },
                  },
                ],
              },
            },
          },
        },
      ],
    });
    await waitFor(
      'both db pods to be ready',
      async () =>
        (await run(['get', 'statefulset', 'db', '-n', 'apps', '-o', 'jsonpath={.status.readyReplicas}'])) === '2'
          ? true
          : undefined,
      { timeoutMs: 60_000, intervalMs: 500 },
    );
    await run(['apply', '-f', '-'], {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'db-client', namespace: 'apps' },
      spec: {
        restartPolicy: 'Never',
        containers: [{ name: 'client', image: 'node', args: ['--input-type=module', '-e', DB_CLIENT] }],
      },
    });
    const logs = await succeeded('db-client');
    const pods = await jsonOf<{ items: { metadata: { name: string }; status: { podIP: string } }[] }>([
      'get',
      'pods',
      '-n',
      'apps',
      '-l',
      'app=db',
    ]);
    const ip = (name: string) => pods.items.find((p) => p.metadata.name === name)!.status.podIP;
    expect(JSON.parse(logs.split('\n').at(-1)!)).toEqual({
      all: [ip('db-0'), ip('db-1')].sort(),
      'db-0': ip('db-0'),
      bodies: ['db-0', 'db-1'],
      srv: [
        { name: 'db-0.db.apps.svc.cluster.local', port: 8080, priority: 0, weight: 50 },
        { name: 'db-1.db.apps.svc.cluster.local', port: 8080, priority: 0, weight: 50 },
      ],
    });
  }, 150_000);
});
