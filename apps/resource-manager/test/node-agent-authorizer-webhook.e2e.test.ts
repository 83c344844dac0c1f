// End to end: the node-agent authorizer of the built app. The target API server asks it (authorization webhook after
// RBAC) about requests of an impersonated gardener-node-agent; Machines live in the source, Nodes, Pods and Secrets
// in the target. SubjectAccessReviews POSTed directly check what kubectl cannot show (no opinion, errors, v1beta1).
import { request } from 'node:https';
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '@gardener-ts/controller-runtime';
import { createSelfSignedCertificate, servingNames } from '@gardener-ts/resourcemanager';
import {
  appBundle,
  freePort,
  gardenerAsset,
  runKubectl,
  startProcess,
  startTestCluster,
  startTestEnvironment,
  waitFor,
  type RunningProcess,
  type TestCluster,
  type TestEnvironment,
} from '@gardener-ts/testing';

const machineNamespace = 'shoot--foo--bar'; // the example configuration's nodeAgentAuthorizer.machineNamespace
const nodeAgent = 'gardener.cloud:node-agent:machine:machine-a';
const nodeAgentsGroup = 'gardener.cloud:node-agents';
let source: TestEnvironment;
let target: TestCluster;
let src: ApiClient;
let tgt: ApiClient;
let app: RunningProcess;
let port = 0;
let caPem = '';

beforeAll(async () => {
  port = await freePort();
  const cert = await createSelfSignedCertificate(servingNames('default'));
  caPem = cert.caPem;
  [source, target] = await Promise.all([
    startTestEnvironment({
      crds: [
        gardenerAsset('crds', '10-crd-resources.gardener.cloud_managedresources.yaml'),
        gardenerAsset('crds', '10-crd-machine.sapcloud.io_machines.yaml'),
      ],
    }),
    startTestCluster({
      authorizationWebhook: { url: `https://127.0.0.1:${port}/webhooks/auth/nodeagent`, caPem, timeoutMs: 10_000 },
    }),
  ]);
  src = await ApiClient.create(source.kubeconfigPath);
  tgt = await ApiClient.create(target.kubeconfigPath);

  await src.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: machineNamespace } });
  const machine = (name: string, labels: Record<string, string>, secret: string) => ({
    apiVersion: 'machine.sapcloud.io/v1alpha1',
    kind: 'Machine',
    metadata: { name, namespace: machineNamespace, labels },
    spec: {
      nodeTemplate: { metadata: { labels: { 'worker.gardener.cloud/gardener-node-agent-secret-name': secret } } },
    },
  });
  await src.create(machine('machine-a', { node: 'node-a' }, 'osc-a'));
  await src.create(machine('machine-without-node', {}, 'osc-a'));
  await tgt.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kube-system' } }).catch(() => undefined);
  for (const name of ['node-a', 'node-b']) await tgt.create({ apiVersion: 'v1', kind: 'Node', metadata: { name } });
  for (const name of ['osc-a', 'osc-b'])
    await tgt.create({ apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: 'kube-system' }, data: {} });
  for (const [name, nodeName] of [
    ['mine', 'node-a'],
    ['theirs', 'node-b'],
  ]) {
    await tgt.create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: 'kube-system' },
      spec: { nodeName, containers: [{ name: 'c', image: 'nginx' }] },
    });
  }

  // Gardener's example configuration (authorizer on, machine namespace shoot--foo--bar) with the prepared certificate.
  const config = YAML.parse(await readFile(fileURLToPath(new URL('./fixtures/config.yaml', import.meta.url)), 'utf8'));
  config.sourceClientConnection.kubeconfig = source.kubeconfigPath;
  config.targetClientConnection = { kubeconfig: target.kubeconfigPath };
  config.server.webhooks = { bindAddress: '127.0.0.1', port, tls: { serverCertDir: cert.certDir } };
  const configPath = join(tmpdir(), `rm-node-agent-${process.pid}-${Date.now()}.yaml`);
  await writeFile(configPath, YAML.stringify(config));
  app = startProcess(process.execPath, [appBundle('resource-manager'), '--config', configPath]);
  await waitFor(
    'resource-manager to start',
    () => app.output().includes('Resource manager started') || app.child.exitCode !== null,
    { timeoutMs: 30_000 },
  );
  if (app.child.exitCode !== null) throw new Error(`resource-manager exited:\n${app.output()}`);
}, 90_000);

afterAll(async () => {
  await app?.stop();
  src?.close();
  tgt?.close();
  await Promise.all([source?.stop(), target?.stop()]);
});

/** kubectl against the target as the node-agent of machine-a (impersonated, with or without the node-agents group). */
const asNodeAgent = (args: string[], groups = [nodeAgentsGroup], user = nodeAgent) =>
  runKubectl(target.kubeconfigPath, [...args, `--as=${user}`, ...groups.map((g) => `--as-group=${g}`)]);

function post(
  path: string,
  body: unknown,
  contentType = 'application/json',
): Promise<{ statusCode: number; body: any }> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        ca: caPem,
        headers: { 'content-type': contentType, 'content-length': Buffer.byteLength(payload) },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ statusCode: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const review = (
  user: string,
  groups: string[],
  resourceAttributes: Record<string, unknown>,
  apiVersion = 'authorization.k8s.io/v1',
) => ({
  apiVersion,
  kind: 'SubjectAccessReview',
  spec: { user, [apiVersion.endsWith('v1beta1') ? 'group' : 'groups']: groups, resourceAttributes },
});

describe('node-agent authorizer called by the API server', () => {
  it('lets the node-agent read and update its own Node, and refuses another', async () => {
    const own = await asNodeAgent(['get', 'node', 'node-a', '-o', 'name']);
    expect(own.stderr).toBe('');
    expect(own.stdout.trim()).toBe('node/node-a');
    expect((await asNodeAgent(['label', 'node', 'node-a', 'example.com/touched=true'])).code).toBe(0);
    const other = await asNodeAgent(['get', 'node', 'node-b']);
    expect(other.code).not.toBe(0);
    expect(other.stderr).toContain('this gardener-node-agent can only access node "node-a"');
  });

  it('lets it read its OSC Secret only', async () => {
    expect((await asNodeAgent(['get', 'secret', 'osc-a', '-n', 'kube-system'])).code).toBe(0);
    const other = await asNodeAgent(['get', 'secret', 'osc-b', '-n', 'kube-system']);
    expect(other.code).not.toBe(0);
    expect(other.stderr).toContain(
      'gardener-node-agent can only access secrets [gardener-valitail osc-a] in "kube-system" namespace',
    );
  });

  it('lets it read and delete pods of its own node only, create its Lease, and nothing else', async () => {
    expect((await asNodeAgent(['get', 'pod', 'mine', '-n', 'kube-system'])).code).toBe(0);
    const theirs = await asNodeAgent(['delete', 'pod', 'theirs', '-n', 'kube-system', '--wait=false']);
    expect(theirs.stderr).toContain('pod "kube-system/theirs" does not belong to node "node-a"');
    const lease = {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'gardener-node-agent-node-a', namespace: 'kube-system' },
      spec: { holderIdentity: 'node-a' },
    };
    const created = await runKubectl(
      target.kubeconfigPath,
      ['create', '-f', '-', `--as=${nodeAgent}`, `--as-group=${nodeAgentsGroup}`],
      { input: JSON.stringify(lease) },
    );
    expect(created.stderr).toBe('');
    const configmaps = await asNodeAgent(['get', 'configmaps', '-n', 'kube-system']);
    expect(configmaps.code).not.toBe(0);
    expect(configmaps.stderr).toContain('cannot list resource "configmaps"');
  });

  it('has no opinion on a user without the node-agents group (RBAC alone denies)', async () => {
    const r = await asNodeAgent(['get', 'node', 'node-a'], ['system:authenticated']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(`User "${nodeAgent}" cannot get resource "nodes"`);
  });
});

describe('node-agent authorizer answering SubjectAccessReviews', () => {
  const path = '/webhooks/auth/nodeagent';

  it('answers allowed, denied with a reason, or no opinion, always with HTTP 200', async () => {
    const allowed = await post(
      path,
      review(nodeAgent, [nodeAgentsGroup], { verb: 'get', resource: 'nodes', version: 'v1', name: 'node-a' }),
    );
    expect(allowed).toEqual({
      statusCode: 200,
      body: expect.objectContaining({
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SubjectAccessReview',
        status: { allowed: true },
      }),
    });
    const denied = await post(
      path,
      review(nodeAgent, [nodeAgentsGroup], { verb: 'delete', resource: 'nodes', version: 'v1', name: 'node-a' }),
    );
    expect(denied.body.status).toEqual({
      allowed: false,
      denied: true,
      reason: 'only the following verbs are allowed for this resource type: [get list watch patch update]',
    });
    const noOpinion = await post(
      path,
      review('system:node:node-a', ['system:nodes'], { verb: 'get', resource: 'nodes', version: 'v1', name: 'node-a' }),
    );
    expect(noOpinion.body.status).toEqual({ allowed: false });
  });

  it('answers in the version asked (v1beta1 with `group`)', async () => {
    const r = await post(
      path,
      review(
        nodeAgent,
        [nodeAgentsGroup],
        { verb: 'get', resource: 'secrets', version: 'v1', namespace: 'kube-system', name: 'osc-a' },
        'authorization.k8s.io/v1beta1',
      ),
    );
    expect(r.body).toMatchObject({ apiVersion: 'authorization.k8s.io/v1beta1', status: { allowed: true } });
  });

  it('denies without a node, and reports an evaluation error for an unknown Machine or a bad request', async () => {
    const noNode = await post(
      path,
      review('gardener.cloud:node-agent:machine:machine-without-node', [nodeAgentsGroup], {
        verb: 'get',
        resource: 'nodes',
        version: 'v1',
        name: 'node-a',
      }),
    );
    expect(noNode.body.status).toEqual({
      allowed: false,
      denied: true,
      reason: 'no node for "machine-without-node" found',
    });
    const unknown = await post(
      path,
      review('gardener.cloud:node-agent:machine:ghost', [nodeAgentsGroup], {
        verb: 'get',
        resource: 'nodes',
        version: 'v1',
        name: 'node-a',
      }),
    );
    expect(unknown.body.status.allowed).toBe(false);
    expect(unknown.body.status.denied).toBeUndefined();
    expect(unknown.body.status.evaluationError).toMatch(/^500 error getting machine "ghost": .*not found/);
    const badType = await post(
      path,
      review(nodeAgent, [nodeAgentsGroup], { verb: 'get', resource: 'nodes' }),
      'text/plain',
    );
    expect(badType).toMatchObject({
      statusCode: 200,
      body: { status: { allowed: false, evaluationError: '400 contentType=text/plain, expected application/json' } },
    });
  });

  it('leaves the admission webhooks on the same port working', async () => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', namespace: 'default' },
      spec: { containers: [{ name: 'c', image: 'nginx' }] },
    };
    const r = await post('/webhooks/kubernetes-service-host', {
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      request: {
        uid: 'u1',
        kind: { group: '', version: 'v1', kind: 'Pod' },
        resource: { group: '', version: 'v1', resource: 'pods' },
        namespace: 'default',
        operation: 'CREATE',
        userInfo: {},
        object: pod,
      },
    });
    expect(r.body).toMatchObject({
      kind: 'AdmissionReview',
      response: { uid: 'u1', allowed: true, patchType: 'JSONPatch' },
    });
  });
});
