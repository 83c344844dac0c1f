// A whole local cluster (API server, controller manager, kubelet, service proxy): a Node.js program in one pod
// reaches another pod's Service by its DNS names and its ClusterIP, and the API server as kubernetes.default.svc,
// through the pod network preload and the service proxy's services.json.
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

const run = (args: string[], input?: object) => kubectl(kubeconfig, args, input ? { input: JSON.stringify(input) } : {});
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

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'in-cluster-services-'));
  const imageMap = join(dir, 'images.yaml');
  await writeFile(imageMap, JSON.stringify({ images: [{ image: 'node', command: [process.execPath] }] }));
  const logger = createLogger({ name: 'in-cluster-services-test', level: process.env.CLUSTER_TEST_LOG ? 'debug' : 'silent' });
  cluster = await runCluster(clusterLayout(dir, 'dns'), defaultComponents({ imageMapFile: imageMap }), logger);
  kubeconfig = clusterLayout(dir, 'dns').kubeconfig;
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
}, 60_000);

describe('Services inside the cluster', () => {
  it('are reached by name and ClusterIP from a Node.js pod, and so is the API server', async () => {
    await run(['create', 'namespace', 'apps']);
    await run(['apply', '-f', '-'], {
      apiVersion: 'v1',
      kind: 'List',
      items: [
        { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'apps', labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'node', args: ['-e', SERVER], readinessProbe: { tcpSocket: { port: 8080 }, periodSeconds: 1 } }] } },
        { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'apps' }, spec: { selector: { app: 'web' }, ports: [{ port: 80, targetPort: 8080 }] } },
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
        containers: [{ name: 'client', image: 'node', args: ['--input-type=module', '-e', CLIENT, service.spec.clusterIP], volumeMounts: [{ name: 'ca', mountPath: '/ca' }] }],
      },
    });
    const phase = await waitFor(
      'the client pod to finish',
      async () => {
        const pod = await jsonOf<{ status?: { phase?: string } }>(['get', 'pod', 'client', '-n', 'apps']);
        return pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed' ? pod.status.phase : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 500 },
    );
    const logs = (await run(['logs', 'client', '-n', 'apps'])).trim();
    expect(phase, logs).toBe('Succeeded');
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
});
