// `gardener-local kubelet` joins a cluster the way a shoot's worker node does: with only a bootstrap token (a
// `bootstrap.kubernetes.io/token` Secret in kube-system, as kubeadm and Gardener write it) and the ClusterRoleBindings
// Gardener creates for `system:bootstrappers` and `system:nodes`, it requests its client certificate with a
// CertificateSigningRequest that the controller manager's csrapproving controller approves after a
// SubjectAccessReview, registers its Node with the labels and taints of its flags and KubeletConfiguration, reports
// it Ready and runs a Pod bound to it. A restarted kubelet keeps its certificate. On a local machine, the kubelet unit
// exactly as Gardener's OperatingSystemConfig renders it runs this kubelet for the machine's root directory.
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@gardener-ts/logging';
import { startControllerManager, type ControllerManager } from '@gardener-ts/local-cluster';
import {
  BootstrapTokenFilePath,
  LocalMachine,
  nodePath,
  writeKubeletBootstrapKubeconfig,
} from '@gardener-ts/nodeagent';
import {
  freePort,
  kubectl,
  startProcess,
  startTestCluster,
  waitFor,
  type RunningProcess,
  type TestCluster,
} from '@gardener-ts/testing';
import { cli } from './support.js';

let cluster: TestCluster;
let controllerManager: ControllerManager;
let dir: string;
let kubelet: RunningProcess | undefined;
let healthzPort: number;
const admin = (args: string[], input?: string) => kubectl(cluster.kubeconfigPath, args, { input });

// What Gardener puts into a shoot for its nodes' TLS bootstrap.
const bootstrapResources = `
apiVersion: v1
kind: Secret
metadata:
  name: bootstrap-token-a1b2c3
  namespace: kube-system
type: bootstrap.kubernetes.io/token
stringData:
  token-id: a1b2c3
  token-secret: 0123456789abcdef
  usage-bootstrap-authentication: "true"
  usage-bootstrap-signing: "true"
  description: Used for bootstrapping the kubelet of a worker node
  expiration: "${new Date(Date.now() + 3600_000).toISOString().replace(/\.\d{3}Z$/, 'Z')}"
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: system:node-bootstrapper
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: system:node-bootstrapper
subjects:
- apiGroup: rbac.authorization.k8s.io
  kind: Group
  name: system:bootstrappers
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: system:certificates.k8s.io:certificatesigningrequests:nodeclient
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: system:certificates.k8s.io:certificatesigningrequests:nodeclient
subjects:
- apiGroup: rbac.authorization.k8s.io
  kind: Group
  name: system:bootstrappers
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: system:certificates.k8s.io:certificatesigningrequests:selfnodeclient
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: system:certificates.k8s.io:certificatesigningrequests:selfnodeclient
subjects:
- apiGroup: rbac.authorization.k8s.io
  kind: Group
  name: system:nodes
`;

interface CSR {
  metadata: { name: string };
  spec: { signerName: string; username: string; groups: string[]; usages: string[] };
  status: { certificate?: string; conditions?: { type: string; status: string; reason: string }[] };
}

const kubeletCSRs = async () =>
  (JSON.parse(await admin(['get', 'csr', '-o', 'json'])).items as CSR[]).filter(
    (c) => c.spec.signerName === 'kubernetes.io/kube-apiserver-client-kubelet',
  );

function startKubelet(): RunningProcess {
  return startProcess(process.execPath, [
    cli,
    'kubelet',
    `--bootstrap-kubeconfig=${join(dir, 'kubelet/kubeconfig-bootstrap')}`,
    `--config=${join(dir, 'kubelet/config/kubelet')}`,
    `--kubeconfig=${join(dir, 'kubelet/kubeconfig-real')}`,
    `--root-dir=${join(dir, 'kubelet')}`,
    '--hostname-override=machine-0',
    `--image-map=${join(dir, 'images.json')}`,
    '--node-labels=worker.gardener.cloud/kubernetes-version=1.33.0',
    '--node-labels=worker.gardener.cloud/pool=worker',
    '--container-runtime-endpoint=unix:///run/containerd/containerd.sock',
    '--v=2',
  ]);
}

beforeAll(async () => {
  cluster = await startTestCluster();
  controllerManager = await startControllerManager({
    kubeConfig: cluster.kubeconfigPath,
    controllers: ['csrapproving'],
  });
  dir = await mkdtemp(join(tmpdir(), 'gardener-local-kubelet-'));
  await mkdir(join(dir, 'kubelet/config'), { recursive: true });
  await copyFile(join(import.meta.dirname, 'fixtures', 'hello.mjs'), join(dir, 'hello.mjs'));
  await writeFile(
    join(dir, 'images.json'),
    JSON.stringify({
      images: [{ image: 'example.com/hello:v1', command: [process.execPath, join(dir, 'hello.mjs')] }],
    }),
  );
  await writeFile(join(dir, 'kubelet/ca.crt'), cluster.server.credentials.ca.certPem);
  // The node's bootstrap kubeconfig as gardener-node-agent writes it: the API server, its CA, the bootstrap token.
  await writeFile(
    join(dir, 'kubelet/kubeconfig-bootstrap'),
    `apiVersion: v1
kind: Config
clusters:
- name: kubelet-bootstrap
  cluster:
    server: ${cluster.server.url}
    certificate-authority-data: ${Buffer.from(cluster.server.credentials.ca.certPem).toString('base64')}
contexts:
- name: kubelet-bootstrap
  context: {cluster: kubelet-bootstrap, user: kubelet-bootstrap}
current-context: kubelet-bootstrap
users:
- name: kubelet-bootstrap
  user: {token: a1b2c3.0123456789abcdef}
`,
    { mode: 0o600 },
  );
  // A KubeletConfiguration as Gardener renders it (the parts that apply locally, and some that do not).
  await writeFile(
    join(dir, 'kubelet/config/kubelet'),
    `apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
authentication:
  anonymous: {enabled: false}
  webhook: {enabled: true, cacheTTL: 2m0s}
  x509: {clientCAFile: ${join(dir, 'kubelet/ca.crt')}}
cgroupDriver: systemd
clusterDNS: [10.2.0.10]
clusterDomain: cluster.local
failSwapOn: false
maxPods: 110
nodeLeaseDurationSeconds: 40
nodeStatusUpdateFrequency: 10s
port: ${await freePort()}
healthzPort: ${(healthzPort = await freePort())}
registerWithTaints:
- {key: node.gardener.cloud/critical-components-not-ready, effect: NoSchedule}
`,
  );
  await admin(['apply', '-f', '-'], bootstrapResources);
});

let machine: LocalMachine | undefined;

afterAll(async () => {
  await machine?.shutdown();
  await kubelet?.stop(10_000);
  await controllerManager?.stop();
  await cluster?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('gardener-local kubelet', () => {
  it('bootstraps its client certificate with the bootstrap token, registers a Ready node and runs its Pods', async () => {
    kubelet = startKubelet();

    // The CSR: made by the bootstrap token's user, approved by csrapproving after its SubjectAccessReview, issued.
    const [csr] = await waitFor(
      'an issued kubelet client CSR',
      async () => {
        const csrs = await kubeletCSRs();
        return csrs.length > 0 && csrs.every((c) => c.status.certificate) ? csrs : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 200 },
    ).catch((err: Error) => {
      throw new Error(`${err.message}\n${kubelet!.output()}`);
    });
    expect(csr!.metadata.name).toMatch(/^node-csr-/);
    expect(csr!.spec).toMatchObject({
      username: 'system:bootstrap:a1b2c3',
      groups: expect.arrayContaining(['system:bootstrappers']),
      usages: ['digital signature', 'client auth'],
    });
    expect(csr!.status.conditions).toEqual([
      expect.objectContaining({ type: 'Approved', status: 'True', reason: 'AutoApproved' }),
    ]);
    const issued = Buffer.from(csr!.status.certificate!, 'base64').toString('utf8');
    // Kept with its key, and the kubeconfig written once the certificate is there.
    const kubeconfigReal = await waitFor('the kubeconfig with the client certificate', () =>
      readFile(join(dir, 'kubelet/kubeconfig-real'), 'utf8').catch(() => undefined),
    );
    expect(kubeconfigReal).toContain('client-certificate: pki/kubelet-client-current.pem');
    expect(await readFile(join(dir, 'kubelet/pki/kubelet-client-current.pem'), 'utf8')).toContain(issued.trim());
    // The kubeconfig it wrote authenticates as the node: the Node authorizer lets it read its own Node only.
    const asNode = (args: string[]) => kubectl(join(dir, 'kubelet/kubeconfig-real'), args);
    expect(await asNode(['auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}'])).toBe(
      'system:node:machine-0',
    );

    // The Node: registered with the flags' labels and the configuration's taints, Ready.
    const node = await waitFor(
      'node machine-0 Ready',
      async () => {
        const n = JSON.parse(await admin(['get', 'node', 'machine-0', '-o', 'json']));
        return n.status?.conditions?.some(
          (c: { type: string; status: string }) => c.type === 'Ready' && c.status === 'True',
        )
          ? n
          : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 200 },
    );
    expect(node.metadata.labels).toMatchObject({
      'kubernetes.io/hostname': 'machine-0',
      'worker.gardener.cloud/pool': 'worker',
      'worker.gardener.cloud/kubernetes-version': '1.33.0',
    });
    expect(node.spec.taints).toEqual([
      { key: 'node.gardener.cloud/critical-components-not-ready', effect: 'NoSchedule' },
    ]);
    expect(kubelet.output()).toContain('container-runtime-endpoint');
    expect(await fetch(`http://127.0.0.1:${healthzPort}/healthz`).then((r) => r.text())).toBe('ok');

    // A Pod bound to the node (tolerating its taint) runs as a local process.
    const port = await freePort();
    await admin(
      ['apply', '-f', '-'],
      `apiVersion: v1
kind: Pod
metadata: {name: hello, namespace: default}
spec:
  nodeName: machine-0
  tolerations: [{key: node.gardener.cloud/critical-components-not-ready, operator: Exists}]
  containers:
  - name: hello
    image: example.com/hello:v1
    env: [{name: PORT, value: "${port}"}, {name: VERSION, value: v1}]
`,
    );
    await waitFor(
      'Pod hello Running',
      async () => {
        const pod = JSON.parse(await admin(['get', 'pod', 'hello', '-o', 'json']));
        return pod.status?.phase === 'Running' && pod.status.containerStatuses?.[0]?.state?.running ? pod : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 200 },
    );
    expect(await waitFor('hello to answer', () => fetch(`http://127.0.0.1:${port}/`).then((r) => r.text()))).toMatch(
      /^v1 /,
    );
  });

  it('keeps its certificate across a restart: no second CSR', async () => {
    expect(await kubelet!.stop(10_000), kubelet!.output()).toBe(0);
    kubelet = startKubelet();
    await waitFor('the restarted kubelet', () => kubelet!.output().includes('Kubelet of node machine-0 running'), {
      timeoutMs: 30_000,
    });
    expect(await kubeletCSRs()).toHaveLength(1);
    expect(kubelet!.output()).not.toContain('Using the bootstrap kubeconfig');
  });
});

// Gardener's kubelet unit (its OSC component `original/components/kubelet` with gardener-node-agent).
const kubeletUnit = `[Unit]
Description=kubelet daemon
Documentation=https://kubernetes.io/docs/admin/kubelet
After=containerd.service
[Install]
WantedBy=multi-user.target
[Service]
Restart=always
RestartSec=5
EnvironmentFile=/etc/environment
EnvironmentFile=-/var/lib/kubelet/extra_args
ExecStart=/opt/bin/kubelet \\
    --bootstrap-kubeconfig=/var/lib/kubelet/kubeconfig-bootstrap \\
    --config=/var/lib/kubelet/config/kubelet \\
    --kubeconfig=/var/lib/kubelet/kubeconfig-real \\
    --node-labels=worker.gardener.cloud/kubernetes-version=1.33.0 \\
    --node-labels=worker.gardener.cloud/pool=worker-b \\
    --container-runtime-endpoint=unix:///run/containerd/containerd.sock \\
    --runtime-cgroups=/system.slice/containerd.service \\
    --v=2 $KUBELET_EXTRA_ARGS
`;

describe('the kubelet of a local machine', () => {
  it("runs from Gardener's kubelet unit with the bootstrap kubeconfig node-agent writes, and joins as the machine", async () => {
    const root = join(dir, 'machine-1');
    const write = async (path: string, content: string) => {
      await mkdir(join(nodePath(root, path), '..'), { recursive: true });
      await writeFile(nodePath(root, path), content);
    };
    const log = createLogger({ name: 'machine', level: 'silent' });
    machine = new LocalMachine({ rootDir: root, nodeName: 'machine-1', log, kubelet: { node: process.execPath, cli } });
    await machine.boot();
    // What the OSC and the machine's provisioning put on the node.
    await write(BootstrapTokenFilePath, 'a1b2c3.0123456789abcdef\n');
    await write('/var/lib/kubelet/ca.crt', cluster.server.credentials.ca.certPem);
    await write(
      '/var/lib/kubelet/config/kubelet',
      // kube's default ports: the machine moves them (all machines of a host share its ports)
      `apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nauthentication:\n  x509: {clientCAFile: /var/lib/kubelet/ca.crt}\nport: 10250\nhealthzPort: 10248\n`,
    );
    await write('/var/lib/kubelet/extra_args', 'KUBELET_EXTRA_ARGS=--node-labels=example.com/extra=yes\n');
    await write('/etc/systemd/system/kubelet.service', kubeletUnit);
    // gardener-node-agent's bootstrapper: the kubelet's bootstrap kubeconfig from the token and its apiServer settings.
    expect(
      await writeKubeletBootstrapKubeconfig(
        root,
        { server: cluster.server.url, caBundle: Buffer.from(cluster.server.credentials.ca.certPem).toString('base64') },
        log,
      ),
    ).toBe(true);

    await machine.units.daemonReload();
    await machine.units.start('kubelet.service');
    const node = await waitFor(
      'node machine-1 Ready',
      async () => {
        const n = JSON.parse(await admin(['get', 'node', 'machine-1', '-o', 'json']));
        return n.status?.conditions?.some(
          (c: { type: string; status: string }) => c.type === 'Ready' && c.status === 'True',
        )
          ? n
          : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 200 },
    ).catch(async (err: Error) => {
      const unitLog = await readFile(nodePath(root, '/var/log/units/kubelet.service.log'), 'utf8').catch(() => '');
      throw new Error(`${err.message}\n${JSON.stringify(machine!.units.status('kubelet.service'))}\n${unitLog}`);
    });
    expect(node.metadata.labels).toMatchObject({
      'kubernetes.io/hostname': 'machine-1',
      'worker.gardener.cloud/pool': 'worker-b',
      'example.com/extra': 'yes',
    });
    expect(machine.units.status('kubelet.service')).toMatchObject({ activeState: 'active' });
    // Its healthz endpoint, where node-agent's health check asks, and its HTTPS endpoint on a port of its own.
    // (The Node may report Ready a moment before the healthz listener is up: kube's kubelet starts both independently.)
    expect(
      await waitFor('the machine kubelet healthz', () => fetch(machine!.kubeletHealthzURL!).then((r) => r.text()), {
        timeoutMs: 10_000,
        intervalMs: 200,
      }),
    ).toBe('ok');
    expect(node.status.daemonEndpoints.kubeletEndpoint.Port).not.toBe(10250);
    // Its credentials are the machine's: below its root directory, in kube's places.
    expect(await readFile(nodePath(root, '/var/lib/kubelet/kubeconfig-real'), 'utf8')).toContain(
      'client-certificate: pki/kubelet-client-current.pem',
    );
    // Once it has them, node-agent writes no bootstrap kubeconfig any more.
    expect(await writeKubeletBootstrapKubeconfig(root, { server: cluster.server.url }, log)).toBe(false);
  });
});
