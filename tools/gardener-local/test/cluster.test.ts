// `gardener-local cluster`: whole local clusters driven with the real kubectl, as a user runs them. Pods are local
// processes; the process table is the truth for "no process outlives its Pod or its cluster".
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, clusterCommand, get, pidsOf, run, serviceUrlIn } from './support.js';
import { freePort, kubectl, runKubectl, startProcess, waitFor } from '@gardener-ts/testing';

let dir: string;
let program: string;
let clusters: string;

const gardenerLocal = (...args: string[]) => clusterCommand(clusters, ...args);
const programPids = () => pidsOf(program);
const serviceUrl = (cluster: string, service: string, namespace = 'default') =>
  serviceUrlIn(clusters, cluster, service, namespace);

const kubeconfigOf = (name: string) => join(clusters, name, 'kubeconfig');

const deployment = (name: string, image: string, extra = '') => `
apiVersion: apps/v1
kind: Deployment
metadata: { name: ${name} }
spec:
  replicas: 1
  selector: { matchLabels: { app: ${name} } }
  strategy: { rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } }
  template:
    metadata: { labels: { app: ${name} } }
    spec:
      terminationGracePeriodSeconds: 5
      containers:
        - name: web
          image: ${image}
          ports: [{ containerPort: 8080 }]
          readinessProbe: { httpGet: { port: ${extra || 8080}, path: / }, periodSeconds: 1 }
---
apiVersion: v1
kind: Service
metadata: { name: ${name} }
spec:
  selector: { app: ${name} }
  ports: [{ port: 80, targetPort: 8080 }]
`;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gardener-local-cluster-'));
  clusters = join(dir, 'clusters');
  program = join(dir, 'hello.mjs');
  await copyFile(join(import.meta.dirname, 'fixtures', 'hello.mjs'), program);
  const images = {
    images: [
      { image: 'example.com/hello:v1', command: [process.execPath, program], env: { VERSION: 'v1' } },
      { image: 'example.com/hello:v2', command: [process.execPath, program], env: { VERSION: 'v2' } },
      { prefix: 'example.com/node', command: [process.execPath] },
    ],
  };
  await writeFile(join(dir, 'images.json'), JSON.stringify(images));
});

afterAll(async () => {
  for (const name of ['one', 'two']) await gardenerLocal('down', name).catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
});

describe('gardener-local cluster', () => {
  it('runs a Deployment: rollout, Service, scale, surge rollout without dropped requests, logs, restarts, deletion', async () => {
    expect(await gardenerLocal('up', 'one', '--image-map', join(dir, 'images.json'))).toContain('is ready');
    const kc = kubeconfigOf('one');
    await kubectl(kc, ['apply', '-f', '-'], { input: deployment('hello', 'example.com/hello:v1') });
    await kubectl(kc, ['rollout', 'status', 'deployment/hello', '--timeout=60s']);
    const url = await waitFor('service port', () => serviceUrl('one', 'hello').catch(() => undefined));
    expect(await waitFor('service answer', () => get(url).catch(() => undefined))).toMatch(/^v1 hello-/);

    await kubectl(kc, ['scale', 'deployment/hello', '--replicas=3']);
    await kubectl(kc, ['rollout', 'status', 'deployment/hello', '--timeout=60s']);
    expect(await programPids()).toHaveLength(3);
    // Requests go round robin over the ready endpoints once the EndpointSlice lists all three.
    const answering = new Set<string>();
    await waitFor('three Pods answering', async () => {
      answering.add((await get(url)).split(' ')[1]);
      return answering.size === 3 ? true : undefined;
    });

    // A new image rolls out one surge Pod at a time; with maxUnavailable 0 the Service keeps answering throughout.
    await kubectl(kc, ['set', 'image', 'deployment/hello', 'web=example.com/hello:v2']);
    const failures: string[] = [];
    let polling = true;
    const poller = (async () => {
      while (polling) await get(url).catch((err: Error) => failures.push(err.message));
    })();
    await kubectl(kc, ['rollout', 'status', 'deployment/hello', '--timeout=60s']);
    polling = false;
    await poller;
    expect(failures).toEqual([]);
    expect(await get(url)).toMatch(/^v2 /);
    const replicaSets = JSON.parse(await kubectl(kc, ['get', 'rs', '-o', 'json'])).items as {
      spec: { replicas: number };
    }[];
    expect(replicaSets.map((rs) => rs.spec.replicas).sort()).toEqual([0, 3]);
    await waitFor('old pods gone', async () => ((await programPids()).length === 3 ? true : undefined));

    const pod = (await kubectl(kc, ['get', 'pods', '-o', 'name'])).split('\n')[0];
    expect(await kubectl(kc, ['logs', pod])).toContain('serving v2 on 8080');

    // Killing a Pod's process: the kubelet restarts it and counts the restart.
    const podJson = JSON.parse(await kubectl(kc, ['get', pod, '-o', 'json']));
    const pid = Number(/local:\/\/(\d+)/.exec(podJson.status.containerStatuses[0].containerID)![1]);
    process.kill(pid, 'SIGKILL');
    await waitFor('restart counted', async () => {
      const status = JSON.parse(await kubectl(kc, ['get', pod, '-o', 'json'])).status.containerStatuses[0];
      return status.restartCount === 1 && status.ready ? status : undefined;
    });
    expect(await kubectl(kc, ['logs', pod, '--previous'])).toContain('serving v2 on 8080');

    await kubectl(kc, ['delete', 'deployment', 'hello', '--wait=true']);
    await waitFor('no pods', async () =>
      (await kubectl(kc, ['get', 'pods', '-o', 'name'])) === '' ? true : undefined,
    );
    expect(await programPids()).toEqual([]);
  });

  it('runs a StatefulSet, a DaemonSet and a Job; an unready Pod stays out of the Service endpoints', async () => {
    const kc = kubeconfigOf('one');
    const manifests = `
apiVersion: apps/v1
kind: StatefulSet
metadata: { name: db }
spec:
  serviceName: db
  replicas: 2
  selector: { matchLabels: { app: db } }
  template:
    metadata: { labels: { app: db } }
    spec: { containers: [{ name: db, image: example.com/hello:v1 }] }
---
apiVersion: apps/v1
kind: DaemonSet
metadata: { name: agent }
spec:
  selector: { matchLabels: { app: agent } }
  template:
    metadata: { labels: { app: agent } }
    spec: { containers: [{ name: agent, image: example.com/hello:v1 }] }
---
apiVersion: batch/v1
kind: Job
metadata: { name: once }
spec:
  template:
    spec:
      restartPolicy: Never
      containers: [{ name: once, image: example.com/node:20, args: ["-e", "console.log('job done')"] }]
`;
    await kubectl(kc, ['apply', '-f', '-'], {
      input: manifests + '---\n' + deployment('unready', 'example.com/hello:v1', '9999'),
    });
    await kubectl(kc, ['rollout', 'status', 'statefulset/db', '--timeout=60s']);
    await kubectl(kc, ['rollout', 'status', 'daemonset/agent', '--timeout=60s']);
    await kubectl(kc, ['wait', '--for=condition=Complete', 'job/once', '--timeout=60s']);
    expect(await kubectl(kc, ['get', 'pods', 'db-0', 'db-1', '-o', 'name'])).toBe('pod/db-0\npod/db-1\n');
    expect(await kubectl(kc, ['logs', 'job/once'])).toBe('job done\n');
    expect(await kubectl(kc, ['get', 'job', 'once'])).toMatch(
      /^NAME\s+STATUS\s+COMPLETIONS\s+DURATION\s+AGE\nonce\s+Complete\s+1\/1\s+\d+s/,
    );

    // The readiness probe asks a port nobody serves: Running, never Ready, and not an endpoint of its Service.
    const pod = await waitFor('unready pod running', async () => {
      const items = JSON.parse(await kubectl(kc, ['get', 'pods', '-l', 'app=unready', '-o', 'json'])).items;
      return items[0]?.status?.phase === 'Running' ? items[0] : undefined;
    });
    await new Promise((r) => setTimeout(r, 2_500));
    const slices = JSON.parse(
      await kubectl(kc, ['get', 'endpointslices', '-l', 'kubernetes.io/service-name=unready', '-o', 'json']),
    ).items;
    const endpoints = slices.flatMap(
      (s: { endpoints?: { addresses: string[]; conditions: { ready: boolean } }[] }) => s.endpoints ?? [],
    );
    expect(endpoints).toEqual([
      expect.objectContaining({ addresses: [pod.status.podIP], conditions: expect.objectContaining({ ready: false }) }),
    ]);
    expect(await kubectl(kc, ['get', 'endpointslices', '-l', 'kubernetes.io/service-name=unready'])).toMatch(
      /\sIPv4\s+8080\s+127\.\d+\.\d+\.\d+\s/,
    );
    const url = await serviceUrl('one', 'unready');
    await expect(get(url)).rejects.toThrow();
    await kubectl(kc, ['delete', 'statefulset/db', 'daemonset/agent', 'job/once', 'deployment/unready', '--wait=true']);
  });

  it('runs two clusters side by side, comes back after its supervisor is killed, and leaves nothing behind on down', async () => {
    expect(await gardenerLocal('up', 'two', '--image-map', join(dir, 'images.json'))).toContain('is ready');
    await kubectl(kubeconfigOf('one'), ['apply', '-f', '-'], { input: deployment('hello', 'example.com/hello:v1') });
    await kubectl(kubeconfigOf('two'), ['apply', '-f', '-'], { input: deployment('hello', 'example.com/hello:v2') });
    for (const name of ['one', 'two'])
      await kubectl(kubeconfigOf(name), ['rollout', 'status', 'deployment/hello', '--timeout=60s']);
    const urlOne = await waitFor('service one', () => serviceUrl('one', 'hello').catch(() => undefined));
    const urlTwo = await waitFor('service two', () => serviceUrl('two', 'hello').catch(() => undefined));
    expect(await waitFor('one answers', () => get(urlOne).catch(() => undefined))).toMatch(/^v1 /);
    expect(await waitFor('two answers', () => get(urlTwo).catch(() => undefined))).toMatch(/^v2 /);
    const list = await gardenerLocal('list');
    expect(list).toMatch(/^one\s+Ready/m);
    expect(list).toMatch(/^two\s+Ready/m);

    // A crash of cluster two's supervisor leaves its Pod's process behind; `up` cleans it up and runs the Pod again.
    const supervisor = Number((await readFile(join(clusters, 'two', 'supervisor.pid'), 'utf8')).trim());
    const before = await programPids();
    process.kill(supervisor, 'SIGKILL');
    expect(await gardenerLocal('up', 'two', '--image-map', join(dir, 'images.json'))).toContain('is ready');
    await kubectl(kubeconfigOf('two'), ['rollout', 'status', 'deployment/hello', '--timeout=60s']);
    expect(await waitFor('two answers again', () => get(urlTwo).catch(() => undefined), { timeoutMs: 30_000 })).toMatch(
      /^v2 /,
    );
    expect(await get(urlOne)).toMatch(/^v1 /);
    const after = await programPids();
    expect(after).toHaveLength(2);
    expect(after.filter((pid) => !before.includes(pid))).toHaveLength(1);

    expect(await gardenerLocal('down', 'one')).toContain('stopped');
    expect(await gardenerLocal('down', 'two')).toContain('stopped');
    expect(await programPids()).toEqual([]);
    const { stdout } = await run('ps', ['-eo', 'args=']);
    expect(stdout).not.toContain(clusters);
    expect((await runKubectl(kubeconfigOf('one'), ['get', 'ns'], { timeoutMs: 5_000 })).code).not.toBe(0);
  });

  it('`up` runs the landscape cluster in the foreground on the given port and stops its Pods on SIGTERM', async () => {
    const port = await freePort();
    const root = join(dir, 'landscape');
    const up = startProcess(process.execPath, [
      cli,
      'up',
      '--cluster-only',
      '--data-dir',
      root,
      '--port',
      String(port),
      '--image-map',
      join(dir, 'images.json'),
    ]);
    await waitFor('landscape ready', () => up.output().includes('Local cluster landscape ready'), {
      timeoutMs: 20_000,
    }).catch((err: Error) => {
      throw new Error(`${err.message}\n${up.output().slice(-3000)}`);
    });
    const kc = join(root, 'kubeconfig');
    expect(await kubectl(kc, ['get', '--raw', '/version'])).toContain('gitVersion');
    expect(await kubectl(kc, ['config', 'view', '-o', 'jsonpath={.clusters[0].cluster.server}'])).toBe(
      `https://127.0.0.1:${port}`,
    );
    await kubectl(kc, ['apply', '-f', '-'], { input: deployment('hello', 'example.com/hello:v1') });
    await kubectl(kc, ['rollout', 'status', 'deployment/hello', '--timeout=60s']);
    expect(await programPids()).toHaveLength(1);
    expect(await up.stop()).toBe(0);
    expect(await programPids()).toEqual([]);
  });
});
