// gardener-node-agent's bootstrap on a local machine against the local API server playing the shoot: the user data
// carries only what the gardenlet's provision OSC carries (node-agent's unit and configuration, the bootstrap token,
// the `<<MACHINE_NAME>>` placeholder) — no kubeconfig. node-agent requests its client certificate with the bootstrap
// token (the test approves the CSR as the shoot's gardener-resource-manager does), writes its kubeconfig, and then works
// as the node-agents group under Gardener's RBAC: it applies the OSC of its Secret and annotates its Node.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { X509Certificate } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { ApiClient, Kinds, kind } from '@gardener-ts/controller-runtime';
import { createLogger } from '@gardener-ts/logging';
import { kubectl, startTestEnvironment, waitFor, type TestEnvironment } from '@gardener-ts/testing';
import { LocalMachine } from '../src/machine/machine.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const machineName = 'shoot--local--local-local-z1-5b8c4-x7k2p';
const nodeName = `machine-${machineName}`;
const secretName = 'gardener-node-agent-local-3f1a2';
const token = 'b0t5tr.0123456789abcdef';

let env: TestEnvironment;
let client: ApiClient;
let root: string;
let machine: LocalMachine | undefined;
const stopApprover = new AbortController();
let approver: Promise<void> | undefined;

// What the gardenlet puts into the shoot for node-agents (its RBAC without a node-agent authorizer) and the bootstrap.
const shootResources = `
apiVersion: v1
kind: Secret
metadata: {name: bootstrap-token-b0t5tr, namespace: kube-system}
type: bootstrap.kubernetes.io/token
stringData:
  token-id: b0t5tr
  token-secret: 0123456789abcdef
  usage-bootstrap-authentication: "true"
  expiration: "${new Date(Date.now() + 3600_000).toISOString().replace(/\.\d{3}Z$/, 'Z')}"
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: system:node-bootstrapper}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: system:node-bootstrapper}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: Group, name: system:bootstrappers}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: gardener-node-agent}
rules:
- {apiGroups: [""], resources: [nodes, nodes/status], verbs: [get, list, watch, patch, update]}
- {apiGroups: [""], resources: [pods], verbs: [get, list, watch, patch, update, delete]}
- {apiGroups: [""], resources: [events], verbs: [get, list, watch, create, patch, update]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: gardener-node-agent}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: gardener-node-agent}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: Group, name: "gardener.cloud:node-agents"}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: gardener-node-agent, namespace: kube-system}
rules:
- {apiGroups: [""], resources: [secrets], resourceNames: [${secretName}], verbs: [get, list, watch]}
- {apiGroups: [coordination.k8s.io], resources: [leases], verbs: [get, list, watch, create, update]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: gardener-node-agent, namespace: kube-system}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: gardener-node-agent}
subjects:
- {apiGroup: rbac.authorization.k8s.io, kind: Group, name: "system:bootstrappers"}
- {apiGroup: rbac.authorization.k8s.io, kind: Group, name: "gardener.cloud:node-agents"}
`;

function userData(): string {
  const config = stringify({
    apiVersion: 'nodeagent.config.gardener.cloud/v1alpha1',
    kind: 'NodeAgentConfiguration',
    clientConnection: { kubeconfig: '' },
    apiServer: { server: env.server.url, caBundle: b64(env.server.credentials.ca.certPem) },
    controllers: { operatingSystemConfig: { secretName, kubernetesVersion: '1.33.0' } },
  });
  const unit =
    '[Unit]\nDescription=Gardener Node Agent\n[Service]\nRestart=always\nRestartSec=5\nExecStart=/opt/bin/gardener-node-agent --config=/var/lib/gardener-node-agent/config.yaml\n';
  // As provider-local renders the provision OSC: the token and machine name unencoded, the rest base64.
  return `#cloud-config
write_files:
  - {path: /var/lib/gardener-node-agent/credentials/bootstrap-token, permissions: "0640", content: "${token}"}
  - {path: /var/lib/gardener-node-agent/machine-name, permissions: "0640", content: "<<MACHINE_NAME>>"}
  - {path: /var/lib/gardener-node-agent/config.yaml, permissions: "0600", encoding: b64, content: ${b64(config)}}
  - {path: /etc/systemd/system/gardener-node-agent.service, permissions: "0644", encoding: b64, content: ${b64(unit)}}
runcmd:
  - systemctl daemon-reload
  - systemctl enable 'gardener-node-agent.service'
  - systemctl start 'gardener-node-agent.service'
`;
}

interface CSR {
  metadata: { name: string };
  spec: { signerName: string; username: string; request: string };
  status?: { certificate?: string; conditions?: { type: string }[] };
}

// The shoot's gardener-resource-manager's CSR approver for node-agents: a bootstrap token's CSR for an existing machine.
async function approveNodeAgentCSRs(signal: AbortSignal): Promise<void> {
  while (!signal.aborted) {
    const csrs = JSON.parse(await kubectl(env.kubeconfigPath, ['get', 'csr', '-o', 'json'])).items as CSR[];
    for (const csr of csrs) {
      if (csr.spec.signerName !== 'kubernetes.io/kube-apiserver-client' || csr.status?.conditions?.length) continue;
      if (!csr.spec.username.startsWith('system:bootstrap:')) continue;
      await kubectl(env.kubeconfigPath, ['certificate', 'approve', csr.metadata.name]);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  env = await startTestEnvironment();
  client = await ApiClient.create(env.kubeconfigPath);
  await kubectl(env.kubeconfigPath, ['apply', '-f', '-'], { input: shootResources });
  await client.create({ apiVersion: 'v1', kind: 'Node', metadata: { name: nodeName } });
  const osc = {
    apiVersion: 'extensions.gardener.cloud/v1alpha1',
    kind: 'OperatingSystemConfig',
    metadata: {},
    spec: {
      files: [
        { path: '/etc/gardener/hello', permissions: 0o644, content: { inline: { encoding: 'b64', data: b64('hi') } } },
      ],
    },
  };
  await kubectl(env.kubeconfigPath, ['apply', '-f', '-'], {
    input: stringify({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: secretName, namespace: 'kube-system', annotations: { 'checksum/data-script': 'c1' } },
      data: { 'osc.yaml': b64(stringify(osc)) },
    }),
  });
  root = await mkdtemp(join(tmpdir(), 'machine-bootstrap-'));
  approver = approveNodeAgentCSRs(stopApprover.signal);
}, 60_000);

afterAll(async () => {
  stopApprover.abort();
  // A round in flight finishes before the API server goes (an error of it would otherwise surface as unhandled).
  await approver?.catch(() => undefined);
  await machine?.shutdown();
  client?.close();
  await env?.stop();
  if (root) await rm(root, { recursive: true, force: true });
});

describe('gardener-node-agent bootstrap', () => {
  it('exchanges the bootstrap token for its client certificate and runs as the node-agents group', async () => {
    machine = new LocalMachine({
      rootDir: root,
      nodeName,
      machineName,
      userData: userData(),
      log: createLogger({ name: 'machine', level: 'warn' }),
    });
    await machine.boot();

    expect(await readFile(join(root, 'var/lib/gardener-node-agent/machine-name'), 'utf8')).toBe(machineName);
    const kubeconfigPath = join(root, 'var/lib/gardener-node-agent/credentials/kubeconfig');
    const kubeconfig = await waitFor(
      'node-agent kubeconfig',
      () => readFile(kubeconfigPath, 'utf8').catch(() => undefined),
      {
        timeoutMs: 30_000,
      },
    );
    const user = (parse(kubeconfig) as { users: { user: Record<string, string> }[] }).users[0]!.user;
    const cert = new X509Certificate(Buffer.from(user['client-certificate-data']!, 'base64'));
    expect(cert.subject).toContain(`CN=gardener.cloud:node-agent:machine:${machineName}`);
    expect(cert.subject).toContain('O=gardener.cloud:node-agents');
    expect(cert.verify(new X509Certificate(env.server.credentials.ca.certPem).publicKey)).toBe(true);

    // The CSR came from the bootstrap token's user.
    const csrs = JSON.parse(await kubectl(env.kubeconfigPath, ['get', 'csr', '-o', 'json'])).items as CSR[];
    expect(csrs.find((c) => c.spec.signerName === 'kubernetes.io/kube-apiserver-client')?.spec.username).toBe(
      'system:bootstrap:b0t5tr',
    );

    // With its own credentials node-agent applies the OSC and annotates its Node.
    await waitFor('the OSC file', () => readFile(join(root, 'etc/gardener/hello'), 'utf8').catch(() => undefined), {
      timeoutMs: 30_000,
    });
    await waitFor(
      'the Node checksum',
      async () => {
        const n = await client.get(Kinds.Node, { name: nodeName });
        return n.metadata?.annotations?.['checksum/cloud-config-data'] === 'c1' ? n : undefined;
      },
      { timeoutMs: 30_000 },
    );
    const lease = await waitFor(
      'the node-agent Lease',
      () =>
        client
          .get(kind('coordination.k8s.io/v1', 'Lease'), {
            namespace: 'kube-system',
            name: `gardener-node-agent-${nodeName}`,
          })
          .catch(() => undefined),
      { timeoutMs: 30_000 },
    );
    expect(lease).toBeDefined();
  }, 90_000);
});
