// The local kubelet against the local API server: node registration, a Pod with env and volumes, logs and exec,
// graceful deletion.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as k8s from '@kubernetes/client-node';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@gardener-ts/testing';
import { FrameDecoder, ExecChannel } from '../../src/kubelet/server/exec-stream.js';
import {
  condition,
  containerPid,
  containerStatus,
  NODE_NAME,
  processAlive,
  startHarness,
  type Harness,
} from './harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({
    leaseRenewMs: 300,
    nodeStatusUpdateMs: 300,
    volumeResyncMs: 300,
    nodeLabels: { 'example.com/role': 'test' },
  });
}, 60_000);
afterAll(async () => h?.stop());

describe('node', () => {
  it('registers a Ready Node with capacity, addresses, labels and its kubelet port', async () => {
    const node = await h.core.readNode({ name: NODE_NAME });
    expect(node.metadata?.labels).toMatchObject({
      'kubernetes.io/hostname': NODE_NAME,
      'kubernetes.io/os': 'linux',
      'node.kubernetes.io/instance-type': 'local',
      'example.com/role': 'test',
    });
    expect(node.metadata?.labels?.['kubernetes.io/arch']).toMatch(/^(amd64|arm64)$/);
    expect(Number(node.status?.capacity?.cpu)).toBeGreaterThan(0);
    expect(node.status?.capacity?.pods).toBe('110');
    expect(node.status?.allocatable?.memory).toMatch(/^\d+Ki$/);
    expect(node.status?.addresses).toEqual(
      expect.arrayContaining([
        { type: 'InternalIP', address: '127.0.0.1' },
        { type: 'Hostname', address: NODE_NAME },
      ]),
    );
    expect(node.status?.daemonEndpoints?.kubeletEndpoint?.Port).toBe(h.kubelet.port);
    expect(Object.fromEntries((node.status?.conditions ?? []).map((c) => [c.type, c.status]))).toEqual({
      Ready: 'True',
      MemoryPressure: expect.stringMatching(/True|False/),
      DiskPressure: expect.stringMatching(/True|False/),
      PIDPressure: expect.stringMatching(/True|False/),
    });
  });

  it('reports Ready again at its next status check after the control plane marked the node Unknown', async () => {
    const node = await h.core.readNode({ name: NODE_NAME });
    const conditions = node.status!.conditions!.map((c) =>
      c.type === 'Ready' ? { ...c, status: 'Unknown', reason: 'NodeStatusUnknown' } : c,
    );
    await h.core.patchNodeStatus(
      { name: NODE_NAME, body: { status: { conditions } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    );
    expect(
      (await h.core.readNode({ name: NODE_NAME })).status?.conditions?.find((c) => c.type === 'Ready')?.status,
    ).toBe('Unknown');
    await waitFor(
      'Ready True again',
      async () => {
        const ready = (await h.core.readNode({ name: NODE_NAME })).status?.conditions?.find((c) => c.type === 'Ready');
        return ready?.status === 'True' ? ready : undefined;
      },
      { timeoutMs: 10_000 },
    );
  });

  it('renews its Lease in kube-node-lease', async () => {
    const coordination = h.config.makeApiClient(k8s.CoordinationV1Api);
    const first = await coordination.readNamespacedLease({ name: NODE_NAME, namespace: 'kube-node-lease' });
    expect(first.spec?.holderIdentity).toBe(NODE_NAME);
    expect(first.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'Node', name: NODE_NAME });
    const renewed = await waitFor('the lease to be renewed', async () => {
      const lease = await coordination.readNamespacedLease({ name: NODE_NAME, namespace: 'kube-node-lease' });
      return new Date(lease.spec!.renewTime!).getTime() > new Date(first.spec!.renewTime!).getTime()
        ? lease
        : undefined;
    });
    expect(renewed.spec?.leaseDurationSeconds).toBe(40);
  });
});

describe('a Pod with environment and volumes', () => {
  let pod: k8s.V1Pod;
  let dump: { env: Record<string, string>; cwd: string; files: Record<string, string> };

  beforeAll(async () => {
    await h.core.createNamespacedConfigMap({
      namespace: 'default',
      body: { metadata: { name: 'settings' }, data: { greeting: 'hello', 'app.conf': 'mode=local\n' } },
    });
    await h.core.createNamespacedSecret({
      namespace: 'default',
      body: { metadata: { name: 'creds' }, stringData: { password: 's3cret' } },
    });
    await h.createPod(
      'dump',
      {
        containers: [
          {
            name: 'main',
            image: 'fixture',
            args: [
              'dump',
              '/etc/config/app.conf',
              '/etc/secret/password',
              '/var/run/secrets/tokens/token',
              '/etc/podinfo/labels',
              '/etc/podinfo/name',
            ],
            workingDir: '/scratch',
            env: [
              { name: 'GREETING', valueFrom: { configMapKeyRef: { name: 'settings', key: 'greeting' } } },
              { name: 'PASSWORD', valueFrom: { secretKeyRef: { name: 'creds', key: 'password' } } },
              { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
              { name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
              { name: 'MESSAGE', value: '$(GREETING) from $(POD_NAME)' },
              { name: 'CONFIG_FILE', value: '/etc/config/app.conf' },
            ],
            volumeMounts: [
              { name: 'config', mountPath: '/etc/config' },
              { name: 'secret', mountPath: '/etc/secret', readOnly: true },
              { name: 'token', mountPath: '/var/run/secrets/tokens' },
              { name: 'podinfo', mountPath: '/etc/podinfo' },
              { name: 'scratch', mountPath: '/scratch' },
              { name: 'host', mountPath: '/host' },
            ],
          },
        ],
        volumes: [
          { name: 'config', configMap: { name: 'settings' } },
          { name: 'secret', secret: { secretName: 'creds' } },
          {
            name: 'token',
            projected: {
              sources: [{ serviceAccountToken: { path: 'token', audience: 'local-test', expirationSeconds: 3600 } }],
            },
          },
          {
            name: 'podinfo',
            downwardAPI: {
              items: [
                { path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } },
                { path: 'name', fieldRef: { fieldPath: 'metadata.name' } },
              ],
            },
          },
          { name: 'scratch', emptyDir: {} },
          { name: 'host', hostPath: { path: `${h.dataDir}/host-dir`, type: 'DirectoryOrCreate' } },
        ],
      },
      { labels: { app: 'dump', tier: 'test' } },
    );
    pod = await h.waitForPod(
      'dump',
      'Running and Ready',
      (p) => p.status?.phase === 'Running' && condition(p, 'Ready') === 'True',
    );
    const line = await waitFor('the dump output', async () => {
      const res = await h.kubeletRequest('/containerLogs/default/dump/main');
      return res.status === 200 && res.body.toString().includes('{') ? res.body.toString() : undefined;
    });
    dump = JSON.parse(
      line
        .trim()
        .split('\n')
        .find((l) => l.startsWith('{'))!,
    );
  }, 60_000);

  it('reports Running with conditions, container status and the local addresses', () => {
    expect(pod.status).toMatchObject({ phase: 'Running', podIP: '127.0.0.1', hostIP: '127.0.0.1' });
    for (const type of ['PodScheduled', 'Initialized', 'ContainersReady', 'Ready'])
      expect(condition(pod, type)).toBe('True');
    expect(pod.status?.conditions?.every((c) => c.lastTransitionTime)).toBe(true);
    const status = containerStatus(pod, 'main')!;
    expect(status).toMatchObject({ ready: true, started: true, restartCount: 0, image: 'fixture' });
    expect(status.state?.running?.startedAt).toBeDefined();
    expect(processAlive(containerPid(pod, 'main'))).toBe(true);
  });

  it('resolves env from ConfigMaps, Secrets and the downward API, with $(VAR) references', () => {
    expect(dump.env).toMatchObject({
      GREETING: 'hello',
      PASSWORD: 's3cret',
      POD_NAME: 'dump',
      POD_IP: '127.0.0.1',
      MESSAGE: 'hello from dump',
    });
  });

  it('materialises every volume and makes its mount path reachable through the rewritten paths and GARDENER_LOCAL_MOUNTS', async () => {
    const mounts = JSON.parse(dump.env.GARDENER_LOCAL_MOUNTS) as Record<string, string>;
    // The API server's ServiceAccount admission adds the kube-api-access volume; it is materialised like the others.
    const serviceAccountDir = '/var/run/secrets/kubernetes.io/serviceaccount';
    expect(Object.keys(mounts).sort()).toEqual([
      '/etc/config',
      '/etc/podinfo',
      '/etc/secret',
      '/host',
      '/scratch',
      serviceAccountDir,
      '/var/run/secrets/tokens',
    ]);
    expect(mounts['/host']).toBe(`${h.dataDir}/host-dir`);
    expect(statSync(mounts['/host']).isDirectory()).toBe(true);
    expect(readdirSync(mounts[serviceAccountDir]).sort()).toEqual(['ca.crt', 'namespace', 'token']);
    expect(mounts['/etc/config']).toBe(`${h.dataDir}/pods/${pod.metadata!.uid}/volumes/config`);
    expect(dump.env.CONFIG_FILE).toBe(`${mounts['/etc/config']}/app.conf`);
    expect(dump.cwd).toBe(mounts['/scratch']);
    const files = Object.fromEntries(
      Object.entries(dump.files).map(([path, content]) => [path.replace(/^.*\/volumes\//, ''), content]),
    );
    expect(files['config/app.conf']).toBe('mode=local\n');
    expect(files['secret/password']).toBe('s3cret');
    expect(files['podinfo/labels']).toBe('app="dump"\ntier="test"');
    expect(files['podinfo/name']).toBe('dump');
    const review = await h.config.makeApiClient(k8s.AuthenticationV1Api).createTokenReview({
      body: { spec: { token: files['token/token'], audiences: ['local-test'] } },
    });
    expect(review.status).toMatchObject({
      authenticated: true,
      user: { username: 'system:serviceaccount:default:default' },
    });
  });

  it("brings ConfigMap changes into the running Pod's volume", async () => {
    await h.core.patchNamespacedConfigMap(
      { namespace: 'default', name: 'settings', body: { data: { greeting: 'hello', 'app.conf': 'mode=changed\n' } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    );
    const mounts = JSON.parse(dump.env.GARDENER_LOCAL_MOUNTS) as Record<string, string>;
    await waitFor(
      'the new content',
      () => readFileSync(`${mounts['/etc/config']}/app.conf`, 'utf8') === 'mode=changed\n',
    );
  });

  it('runs exec commands in the container environment and streams their output and exit code', async () => {
    const command = [
      'command=' + encodeURIComponent(process.execPath),
      'command=-e',
      `command=${encodeURIComponent('console.log(process.env.GREETING, process.cwd()); console.error("oops"); process.exit(3)')}`,
    ];
    const res = await h.kubeletRequest(`/exec/default/dump/main?${command.join('&')}&stdout=1&stderr=1`, 'POST');
    expect(res.status).toBe(200);
    const frames = new FrameDecoder().push(res.body);
    const text = (channel: ExecChannel) =>
      frames
        .filter((f) => f.channel === channel)
        .map((f) => f.payload.toString())
        .join('');
    expect(text(ExecChannel.Stdout)).toBe(`hello ${dump.cwd}\n`);
    expect(text(ExecChannel.Stderr)).toBe('oops\n');
    expect(JSON.parse(text(ExecChannel.Error))).toMatchObject({
      status: 'Failure',
      reason: 'NonZeroExitCode',
      details: { causes: [{ reason: 'ExitCode', message: '3' }] },
    });
  });

  it("runs exec over WebSocket with kubectl's channel protocol, stdin included", async () => {
    const script =
      'process.stdin.on("data", (d) => process.stdout.write(String(d).toUpperCase())); process.stdin.on("end", () => process.exit(4))';
    const query = [process.execPath, '-e', script].map((c) => `command=${encodeURIComponent(c)}`).join('&');
    const ws = new WebSocket(
      `wss://127.0.0.1:${h.kubelet.port}/exec/default/dump/main?${query}&stdin=1&stdout=1&stderr=1`,
      ['v5.channel.k8s.io'],
      { rejectUnauthorized: false },
    );
    const messages: Buffer[] = [];
    ws.on('message', (data: Buffer) => messages.push(data));
    await new Promise((opened, failed) => ws.once('open', opened).once('error', failed));
    ws.send(Buffer.concat([Buffer.from([0]), Buffer.from('shout\n')]));
    ws.send(Buffer.from([255, 0]));
    await new Promise((closed) => ws.once('close', closed));
    const channel = (n: number) =>
      Buffer.concat(messages.filter((m) => m[0] === n).map((m) => m.subarray(1))).toString();
    expect(channel(1)).toBe('SHOUT\n');
    expect(JSON.parse(channel(3))).toMatchObject({
      status: 'Failure',
      reason: 'NonZeroExitCode',
      details: { causes: [{ message: '4' }] },
    });
  });

  it('answers logs and exec for unknown pods and containers with a Status error', async () => {
    const missing = await h.kubeletRequest('/containerLogs/default/nope/main');
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body.toString())).toMatchObject({ kind: 'Status', reason: 'NotFound' });
    const badContainer = await h.kubeletRequest('/exec/default/dump/other?command=ls', 'POST');
    expect(badContainer.status).toBe(400);
    const noPrevious = await h.kubeletRequest('/containerLogs/default/dump/main?previous=true');
    expect(JSON.parse(noPrevious.body.toString()).message).toContain(
      'previous terminated container "main" in pod "dump" not found',
    );
  });
});

describe('logs', () => {
  it("follows a container's output until it exits, and applies tailLines and timestamps", async () => {
    await h.createPod('counter', {
      restartPolicy: 'Never',
      containers: [{ name: 'main', image: 'fixture', args: ['count', '8', '150'] }],
    });
    await h.waitForPod('counter', 'running', (p) => containerStatus(p, 'main')?.state?.running !== undefined);
    const followed = await h.kubeletRequest('/containerLogs/default/counter/main?follow=true');
    expect(followed.body.toString()).toBe('1\n2\n3\n4\n5\n6\n7\n8\n');
    const tail = (
      await h.kubeletRequest('/containerLogs/default/counter/main?tailLines=2&timestamps=true')
    ).body.toString();
    expect(tail).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z 7\n\S+Z 8\n$/);
  });
});

describe('deleting a Pod', () => {
  it('stops its processes with SIGTERM and confirms the deletion', async () => {
    await h.createPod('graceful', { containers: [{ name: 'main', image: 'fixture', args: ['sleep'] }] });
    const pod = await h.waitForPod(
      'graceful',
      'running',
      (p) => containerStatus(p, 'main')?.state?.running !== undefined,
    );
    const pid = containerPid(pod, 'main');
    await h.core.deleteNamespacedPod({ name: 'graceful', namespace: 'default' });
    await waitFor('the pod to be gone', async () =>
      h.core.readNamespacedPod({ name: 'graceful', namespace: 'default' }).then(
        () => false,
        () => true,
      ),
    );
    expect(processAlive(pid)).toBe(false);
  });

  it('kills a process that ignores SIGTERM once the grace period is over', async () => {
    await h.createPod('stubborn', {
      terminationGracePeriodSeconds: 1,
      containers: [{ name: 'main', image: 'fixture', args: ['sleep', '--ignore-term'] }],
    });
    const pod = await h.waitForPod(
      'stubborn',
      'running',
      (p) => containerStatus(p, 'main')?.state?.running !== undefined,
    );
    const pid = containerPid(pod, 'main');
    // Its SIGTERM handler is installed once it has printed "started".
    await waitFor('the program to start', async () =>
      (await h.kubeletRequest('/containerLogs/default/stubborn/main')).body.toString().includes('started'),
    );
    const started = Date.now();
    await h.core.deleteNamespacedPod({ name: 'stubborn', namespace: 'default' });
    await waitFor('the pod to be gone', async () =>
      h.core.readNamespacedPod({ name: 'stubborn', namespace: 'default' }).then(
        () => false,
        () => true,
      ),
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(processAlive(pid)).toBe(false);
    await waitFor(
      'the kubelet to forget the pod',
      async () => (await h.kubeletRequest('/containerLogs/default/stubborn/main')).status === 404,
    );
  });
});
