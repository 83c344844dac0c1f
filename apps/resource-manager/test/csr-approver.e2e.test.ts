// End to end: the kubelet CSR approver of the built app. Kubelets (client certificates for system:node:<name>, issued
// by the target's CA) ask for serving certificates; Nodes are in the target, Machines in the source.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { ApiClient, kind } from '@gardener-ts/controller-runtime';
import { gardenerAsset, installCrds, loadCrds } from '@gardener-ts/testing';
import { b64, getOrUndefined, startLandscape, waitFor, type Landscape } from './harness.js';

const CSR = kind<{ metadata?: any; spec?: any; status?: any }>('certificates.k8s.io/v1', 'CertificateSigningRequest');
const machineNamespace = 'shoot--foo--bar'; // the example configuration's csrApprover.machineNamespace
const dir = mkdtempSync(join(tmpdir(), 'csr-e2e-'));
let land: Landscape;
const clients: ApiClient[] = [];

/** A new EC key and a PEM certificate request for it. */
function request(subject: string, sans: string[] = []): { csr: string; keyFile: string } {
  const keyFile = join(dir, `key-${Math.random().toString(36).slice(2)}.pem`);
  const args = [
    'req',
    '-new',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    keyFile,
    '-subj',
    subject,
  ];
  if (sans.length > 0) args.push('-addext', `subjectAltName=${sans.join(',')}`);
  return { csr: execFileSync('openssl', args, { stdio: ['ignore', 'pipe', 'ignore'] }).toString(), keyFile };
}

/** An API client of the target authenticated as the kubelet of `node` (a client certificate from the cluster CA). */
async function kubeletClient(node: string): Promise<ApiClient> {
  const { csr, keyFile } = request(`/O=system:nodes/CN=system:node:${node}`);
  const name = `client-${node}`;
  await land.tgt.create({
    apiVersion: 'certificates.k8s.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: { name },
    spec: {
      request: b64(csr),
      signerName: 'kubernetes.io/kube-apiserver-client-kubelet',
      usages: ['digital signature', 'client auth'],
    },
  });
  const pending = await land.tgt.get(CSR, { name });
  pending.status = {
    conditions: [
      { type: 'Approved', status: 'True', reason: 'Test', message: 'kubelet client certificate for the test' },
    ],
  };
  await land.tgt.transport.request({
    method: 'PUT',
    path: `/apis/certificates.k8s.io/v1/certificatesigningrequests/${name}/approval`,
    body: pending,
  });
  const issued = await waitFor(
    `certificate for ${node}`,
    async () => (await land.tgt.get(CSR, { name })).status?.certificate as string | undefined,
  );
  const kubeconfig = YAML.parse(readFileSync(land.target.kubeconfigPath, 'utf8'));
  const ctx = kubeconfig.contexts.find((c: any) => c.name === kubeconfig['current-context']);
  kubeconfig.users = [
    {
      name: ctx.context.user,
      user: { 'client-certificate-data': issued, 'client-key-data': b64(readFileSync(keyFile, 'utf8')) },
    },
  ];
  const path = join(dir, `kubeconfig-${node}`);
  writeFileSync(path, YAML.stringify(kubeconfig));
  const client = await ApiClient.create(path);
  clients.push(client);
  return client;
}

async function submit(client: ApiClient, name: string, subject: string, sans: string[]) {
  await client.create({
    apiVersion: 'certificates.k8s.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: { name },
    spec: {
      request: b64(request(subject, sans).csr),
      signerName: 'kubernetes.io/kubelet-serving',
      usages: ['digital signature', 'key encipherment', 'server auth'],
    },
  });
}

async function decision(name: string) {
  return waitFor(
    `decision on ${name}`,
    async () => {
      const csr = await getOrUndefined(land.tgt, CSR, undefined, name);
      return csr?.status?.conditions?.find((c: any) => c.type === 'Approved' || c.type === 'Denied');
    },
    { timeoutMs: 15_000 },
  );
}

async function createNode(name: string, addresses: Array<{ type: string; address: string }>) {
  const node = await land.tgt.create({ apiVersion: 'v1', kind: 'Node', metadata: { name } });
  await land.tgt.updateStatus({ ...node, status: { addresses } });
}
async function createMachine(name: string, node: string) {
  await land.src.create({
    apiVersion: 'machine.sapcloud.io/v1alpha1',
    kind: 'Machine',
    metadata: { name, namespace: machineNamespace, labels: { node } },
    spec: {},
  });
}

let worker1: ApiClient;
const addr = (name: string, ip: string) => [
  { type: 'Hostname', address: name },
  { type: 'InternalIP', address: ip },
  { type: 'ExternalIP', address: '203.0.113.9' },
];

beforeAll(async () => {
  // The example config's node-agent reconciliation delay controller would annotate the Nodes these tests write.
  land = await startLandscape((config) => {
    config.controllers.nodeAgentReconciliationDelay = { enabled: false };
  });
  await installCrds(
    land.source.kubeConfig,
    await loadCrds([gardenerAsset('crds', '10-crd-machine.sapcloud.io_machines.yaml')]),
  );
  await land.src.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: machineNamespace } });
  // Kubelets may ask for certificates.
  await land.tgt.create({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name: 'test-kubelet-csr' },
    rules: [
      {
        apiGroups: ['certificates.k8s.io'],
        resources: ['certificatesigningrequests'],
        verbs: ['create', 'get', 'list', 'watch'],
      },
    ],
  });
  await land.tgt.create({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: 'test-kubelet-csr' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'test-kubelet-csr' },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:nodes' }],
  });
  await createNode('worker-1', addr('worker-1', '10.0.0.1'));
  await createMachine('machine-1', 'worker-1');
  await createNode('worker-nomachine', addr('worker-nomachine', '10.0.0.2'));
  await createNode('worker-twomachines', addr('worker-twomachines', '10.0.0.3'));
  await createMachine('machine-3a', 'worker-twomachines');
  await createMachine('machine-3b', 'worker-twomachines');
  await land.start();
  worker1 = await kubeletClient('worker-1');
}, 60_000);

afterAll(async () => {
  for (const c of clients) c.close();
  await land?.stop();
});

describe('kubelet-serving CSRs', () => {
  const approved = (message: string) => ({
    type: 'Approved',
    status: 'True',
    reason: 'RequestApproved',
    message: `Approving kubelet server certificate CSR (${message})`,
  });
  const denied = (message: string) => ({
    type: 'Denied',
    status: 'True',
    reason: 'RequestDenied',
    message: `Denying kubelet server certificate CSR (${message})`,
  });
  const subject = (node: string, org = 'system:nodes') => `/O=${org}/CN=system:node:${node}`;

  it('approves a request meeting every rule, and the certificate is issued', async () => {
    await submit(worker1, 'serving-ok', subject('worker-1'), ['DNS:worker-1', 'IP:10.0.0.1']);
    expect(await decision('serving-ok')).toMatchObject(approved('all checks passed'));
    await waitFor(
      'certificate issued',
      async () => (await land.tgt.get(CSR, { name: 'serving-ok' })).status?.certificate,
    );
  });

  it('approves with IP addresses only (at least one SAN is enough)', async () => {
    await createNode('worker-iponly', [{ type: 'InternalIP', address: '10.0.0.4' }]);
    await createMachine('machine-4', 'worker-iponly');
    await submit(await kubeletClient('worker-iponly'), 'serving-iponly', subject('worker-iponly'), ['IP:10.0.0.4']);
    expect(await decision('serving-iponly')).toMatchObject(approved('all checks passed'));
  });

  it('denies a requester that is not a node', async () => {
    await submit(land.tgt, 'serving-not-node', subject('worker-1'), ['DNS:worker-1', 'IP:10.0.0.1']);
    const username = (await land.tgt.get(CSR, { name: 'serving-not-node' })).spec.username;
    expect(await decision('serving-not-node')).toMatchObject(
      denied(`username "${username}" is not prefixed with "system:node:"`),
    );
  });

  it('denies a request without DNS names and IP addresses', async () => {
    await submit(worker1, 'serving-no-sans', subject('worker-1'), []);
    expect(await decision('serving-no-sans')).toMatchObject(denied('no DNS names or IP addresses in the SANs found'));
  });

  it('denies a common name other than the requesting node', async () => {
    await submit(worker1, 'serving-other-cn', subject('worker-nomachine'), ['DNS:worker-nomachine', 'IP:10.0.0.2']);
    expect(await decision('serving-other-cn')).toMatchObject(denied('common name in CSR does not match username'));
  });

  it('denies an organization other than system:nodes alone', async () => {
    await submit(worker1, 'serving-masters', subject('worker-1', 'system:masters'), ['DNS:worker-1', 'IP:10.0.0.1']);
    expect(await decision('serving-masters')).toMatchObject(denied('organization in CSR does not match nodes group'));
  });

  it('denies when there is no Node of that name', async () => {
    await submit(await kubeletClient('ghost'), 'serving-ghost', subject('ghost'), ['DNS:ghost']);
    expect(await decision('serving-ghost')).toMatchObject(denied('could not find node object with name "ghost"'));
  });

  it('denies unless exactly one Machine belongs to the node', async () => {
    await submit(await kubeletClient('worker-nomachine'), 'serving-nomachine', subject('worker-nomachine'), [
      'DNS:worker-nomachine',
      'IP:10.0.0.2',
    ]);
    expect(await decision('serving-nomachine')).toMatchObject(
      denied(`Expected exactly one machine in namespace "${machineNamespace}" for node "worker-nomachine" but found 0`),
    );
    await submit(await kubeletClient('worker-twomachines'), 'serving-twomachines', subject('worker-twomachines'), [
      'DNS:worker-twomachines',
      'IP:10.0.0.3',
    ]);
    expect(await decision('serving-twomachines')).toMatchObject(
      denied(
        `Expected exactly one machine in namespace "${machineNamespace}" for node "worker-twomachines" but found 2`,
      ),
    );
  });

  it('denies DNS names that are not exactly the Hostname addresses', async () => {
    await submit(worker1, 'serving-extra-dns', subject('worker-1'), [
      'DNS:worker-1',
      'DNS:kubernetes.default',
      'IP:10.0.0.1',
    ]);
    expect(await decision('serving-extra-dns')).toMatchObject(
      denied('DNS names in CSR do not match Hostname addresses in node object'),
    );
  });

  it('denies IP addresses that are not exactly the InternalIP addresses', async () => {
    await submit(worker1, 'serving-external-ip', subject('worker-1'), [
      'DNS:worker-1',
      'IP:10.0.0.1',
      'IP:203.0.113.9',
    ]);
    expect(await decision('serving-external-ip')).toMatchObject(
      denied('IP addresses in CSR do not match InternalIP addresses in node object'),
    );
  });

  it('leaves CSRs of other signers alone', async () => {
    const { csr } = request('/O=system:nodes/CN=system:node:worker-1');
    await worker1.create({
      apiVersion: 'certificates.k8s.io/v1',
      kind: 'CertificateSigningRequest',
      metadata: { name: 'client-other' },
      spec: {
        request: b64(csr),
        signerName: 'kubernetes.io/kube-apiserver-client-kubelet',
        usages: ['digital signature', 'client auth'],
      },
    });
    // A kubelet-serving request submitted afterwards is decided; the other one stays undecided.
    await submit(worker1, 'serving-after', subject('worker-1'), ['DNS:worker-1', 'IP:10.0.0.1']);
    await decision('serving-after');
    expect((await land.tgt.get(CSR, { name: 'client-other' })).status?.conditions ?? []).toEqual([]);
  });
});
