// A local API server plus a local kubelet for a test file; fixture "containers" run test/kubelet/fixtures/program.mjs.
// The kubelet authenticates as its node (system:node:local-node), as in `cluster up`: it works with only what the API
// server's Node authorizer and NodeRestriction allow a kubelet.
import { request } from 'node:https';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as k8s from '@kubernetes/client-node';
import { createLogger } from '@gardener-ts/logging';
import { startTestCluster, waitFor, type TestCluster } from '@gardener-ts/testing';
import { ImageMap } from '../../src/images/image-map.js';
import { startKubelet, type Kubelet } from '../../src/kubelet/kubelet.js';
import type { KubeletOptions } from '../../src/kubelet/options.js';
import { nodeKubeConfig } from '../../src/cluster/node-credentials.js';

export const FIXTURE = fileURLToPath(new URL('./fixtures/program.mjs', import.meta.url));
export const NODE_NAME = 'local-node';
/** The programs the fixture image holds besides its entrypoint: what exec probes and `kubectl exec` may run. */
export const FIXTURE_BINARIES = { [basename(process.execPath)]: process.execPath, false: '/usr/bin/false' };

export interface Harness {
  cluster: TestCluster;
  kubelet: Kubelet;
  core: k8s.CoreV1Api;
  config: k8s.KubeConfig;
  dataDir: string;
  createPod(name: string, spec: Partial<k8s.V1PodSpec>, metadata?: k8s.V1ObjectMeta): Promise<k8s.V1Pod>;
  waitForPod(name: string, what: string, check: (pod: k8s.V1Pod) => boolean, timeoutMs?: number): Promise<k8s.V1Pod>;
  kubeletRequest(path: string, method?: string, body?: string): Promise<{ status: number; body: Buffer }>;
  stop(): Promise<void>;
}

export async function startHarness(options: Partial<KubeletOptions> = {}): Promise<Harness> {
  const cluster = await startTestCluster();
  const dataDir = await mkdtemp(join(tmpdir(), 'local-kubelet-'));
  const config = new k8s.KubeConfig();
  config.loadFromFile(cluster.kubeconfigPath);
  const core = config.makeApiClient(k8s.CoreV1Api);
  let kubelet: Kubelet;
  try {
    kubelet = await startKubelet({
      kubeconfig: await nodeKubeConfig(cluster.server, NODE_NAME),
      nodeName: NODE_NAME,
      dataDir,
      imageMap: new ImageMap([{ image: 'fixture', command: [process.execPath, FIXTURE], binaries: FIXTURE_BINARIES }]),
      port: 0,
      backoff: { baseMs: 300, maxMs: 2000 },
      retryMs: 200,
      logger: createLogger({ name: 'local-kubelet-test', level: process.env.KUBELET_TEST_LOG ? 'debug' : 'silent' }),
      ...options,
    });
  } catch (err) {
    await cluster.stop();
    throw err;
  }
  return {
    cluster,
    kubelet,
    core,
    config,
    dataDir,
    createPod: (name, spec, metadata = {}) =>
      core.createNamespacedPod({
        namespace: 'default',
        body: {
          metadata: { name, ...metadata },
          spec: { nodeName: NODE_NAME, terminationGracePeriodSeconds: 5, containers: [], ...spec },
        },
      }),
    waitForPod: (name, what, check, timeoutMs = 20_000) =>
      waitFor(
        `pod ${name}: ${what}`,
        async () => {
          const pod = await core.readNamespacedPod({ name, namespace: 'default' });
          return check(pod) ? pod : undefined;
        },
        { timeoutMs, intervalMs: 100 },
      ),
    kubeletRequest: (path, method = 'GET', body) =>
      new Promise((done, failed) => {
        const req = request(
          { host: '127.0.0.1', port: kubelet.port, path, method, rejectUnauthorized: false },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => done({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
            res.on('error', failed);
          },
        );
        req.on('error', failed);
        req.end(body);
      }),
    async stop() {
      await kubelet.stop();
      await cluster.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The pid of a container's current process, from its containerID `local://<pid>`. */
export function containerPid(pod: k8s.V1Pod, container: string): number {
  const status = pod.status?.containerStatuses?.find((s) => s.name === container);
  const match = /^local:\/\/(\d+)$/.exec(status?.containerID ?? '');
  if (!match) throw new Error(`container ${container} has no local containerID: ${JSON.stringify(status)}`);
  return Number(match[1]);
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export function containerStatus(pod: k8s.V1Pod, name: string): k8s.V1ContainerStatus | undefined {
  return [...(pod.status?.containerStatuses ?? []), ...(pod.status?.initContainerStatuses ?? [])].find(
    (s) => s.name === name,
  );
}

export function condition(pod: k8s.V1Pod, type: string): string | undefined {
  return pod.status?.conditions?.find((c) => c.type === type)?.status;
}
