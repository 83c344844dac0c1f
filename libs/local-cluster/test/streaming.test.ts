// `kubectl logs` and `kubectl exec` through the local API server to a node's kubelet endpoint. The endpoint here is a
// bare HTTPS server speaking the kubelet's paths with the real remote-command protocol and real child processes, so the
// API server's proxy and the WebSocket channel protocol are tested against the real kubectl.
import { spawn } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCA,
  issueCertificate,
  kubeconfig,
  startTestCluster,
  type TestCluster,
} from '@gardener-ts/local-apiserver';
import { kubectl, runKubectl } from '@gardener-ts/test-support';
import { serveRemoteCommand } from '../src/streaming/remote-command.js';

let cluster: TestCluster;
let kubelet: Server;
const seen: string[] = [];

beforeAll(async () => {
  const tokens = join(await mkdtemp(join(tmpdir(), 'streaming-test-')), 'tokens');
  await writeFile(tokens, 'jane-token,jane,uid-jane\n');
  cluster = await startTestCluster({ tokenFile: tokens });
  const ca = await createCA('test-kubelet-ca');
  const serving = await issueCertificate(ca, { commonName: 'node-1', usage: 'server', ipAddresses: ['127.0.0.1'] });
  kubelet = createServer({ cert: serving.certPem, key: serving.keyPem }, (req, res) => {
    seen.push(req.url ?? '');
    const url = new URL(req.url ?? '/', 'https://kubelet');
    const [, kind, namespace, pod, container] = url.pathname.split('/');
    if (kind !== 'containerLogs') return void res.writeHead(404).end('not found');
    const previous = url.searchParams.get('previous') === 'true';
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(`${previous ? 'previous ' : ''}log of ${namespace}/${pod}/${container}\n`);
  });
  kubelet.on('upgrade', (req, socket, head) => {
    seen.push(req.url ?? '');
    serveRemoteCommand(req, socket, head, (request, session) => {
      const child = spawn(request.command[0], request.command.slice(1), { stdio: ['pipe', 'pipe', 'pipe'] });
      if (session.stdin) session.stdin.pipe(child.stdin);
      else child.stdin.end();
      child.stdout.pipe(session.stdout);
      child.stderr.pipe(session.stderr);
      session.onAbort(() => child.kill('SIGKILL'));
      child.on('error', (err) => session.finish(err));
      child.on('close', (code) => session.finish(code ?? 1));
    });
  });
  await new Promise<void>((resolve) => kubelet.listen(0, '127.0.0.1', resolve));
  const port = (kubelet.address() as AddressInfo).port;
  const node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1' } };
  await kubectl(cluster.kubeconfigPath, ['apply', '-f', '-'], { input: JSON.stringify(node) });
  const status = {
    status: {
      addresses: [{ type: 'InternalIP', address: '127.0.0.1' }],
      daemonEndpoints: { kubeletEndpoint: { Port: port } },
    },
  };
  await kubectl(cluster.kubeconfigPath, [
    'patch',
    'node',
    'node-1',
    '--subresource=status',
    '--type=merge',
    '-p',
    JSON.stringify(status),
  ]);
  const pod = (name: string, containers: string[], nodeName?: string) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default' },
    spec: { nodeName, containers: containers.map((c) => ({ name: c, image: 'busybox' })) },
  });
  for (const p of [pod('web', ['app'], 'node-1'), pod('duo', ['a', 'b'], 'node-1'), pod('pending', ['app'])]) {
    await kubectl(cluster.kubeconfigPath, ['create', '-f', '-'], { input: JSON.stringify(p) });
  }
});

afterAll(async () => {
  kubelet?.close();
  await cluster?.stop();
});

describe('kubectl logs through the API server', () => {
  it('returns the container log from the kubelet of the pod’s node', async () => {
    expect(await kubectl(cluster.kubeconfigPath, ['logs', 'web'])).toBe('log of default/web/app\n');
    expect(await kubectl(cluster.kubeconfigPath, ['logs', 'web', '--previous'])).toBe(
      'previous log of default/web/app\n',
    );
  });

  it('asks for a container when the pod has several, and refuses unknown ones', async () => {
    // kubectl itself defaults to the first container; the API asked directly wants a choice, as kube-apiserver does.
    const several = await runKubectl(cluster.kubeconfigPath, [
      'get',
      '--raw',
      '/api/v1/namespaces/default/pods/duo/log',
    ]);
    expect(several.code).not.toBe(0);
    expect(several.stderr).toMatch(/a container name must be specified for pod duo, choose one of: \[a b\]/);
    expect(await kubectl(cluster.kubeconfigPath, ['logs', 'duo'])).toBe('log of default/duo/a\n');
    expect(await kubectl(cluster.kubeconfigPath, ['logs', 'duo', '-c', 'b'])).toBe('log of default/duo/b\n');
    const unknown = await runKubectl(cluster.kubeconfigPath, ['logs', 'duo', '-c', 'zzz']);
    expect(unknown.stderr).toMatch(/container zzz is not valid for pod duo/);
  });

  it('refuses a pod without a node', async () => {
    const result = await runKubectl(cluster.kubeconfigPath, ['logs', 'pending']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/does not have a host assigned/);
  });
});

describe('kubectl exec through the API server', () => {
  it('runs a command and passes stdout, stderr and the exit code back', async () => {
    const result = await runKubectl(cluster.kubeconfigPath, [
      'exec',
      'web',
      '--',
      'sh',
      '-c',
      'echo out; echo err >&2; exit 3',
    ]);
    expect(result.stdout).toBe('out\n');
    expect(result.stderr).toContain('err\n');
    expect(result.code).toBe(3);
    expect(seen.some((u) => u.startsWith('/exec/default/web/app?'))).toBe(true);
  });

  it('streams stdin to the command and closes it', async () => {
    const output = await kubectl(cluster.kubeconfigPath, ['exec', '-i', 'web', '--', 'wc', '-c'], {
      input: 'twelve bytes',
    });
    expect(output.trim()).toBe('12');
  });

  it('needs create on pods/exec: a user who may only get pods is refused', async () => {
    const rbac = `
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: reader, namespace: default}
rules: [{apiGroups: [""], resources: [pods, pods/exec], verbs: [get, list]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: reader, namespace: default}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: reader}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: jane}]
`;
    await kubectl(cluster.kubeconfigPath, ['apply', '-f', '-'], { input: rbac });
    const jane = join(cluster.dir, 'jane.kubeconfig');
    await writeFile(
      jane,
      kubeconfig('local', cluster.server.url, cluster.server.credentials.ca.certPem, {
        name: 'jane',
        token: 'jane-token',
      }),
    );
    const result = await runKubectl(jane, ['exec', 'web', '--', 'true']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/cannot create resource "pods\/exec"/);
  });
});
