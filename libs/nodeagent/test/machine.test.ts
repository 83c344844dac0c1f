// A local machine against the local API server playing the shoot: its user data (a cloud-config as provider-local
// renders it) installs gardener-node-agent's configuration, kubeconfig and unit; node-agent runs in the machine and
// applies the OSC from its Secret in kube-system (a kubelet unit, a file), sets the Node's checksum annotation, applies
// an OSC change without restarting the unaffected kubelet, restarts it when the Node asks, and a killed kubelet comes
// back (Restart=always); node-agent renews its Lease.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { ApiClient, Kinds } from '@gardener-ts/controller-runtime';
import { createLogger } from '@gardener-ts/logging';
import { startTestEnvironment, waitFor, type TestEnvironment } from '@gardener-ts/testing';
import { LocalMachine } from '../src/machine/machine.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const secretName = 'gardener-node-agent-worker';
const nodeName = 'machine-shoot--local--local-worker-z1-abcde';

let env: TestEnvironment;
let client: ApiClient;
let root: string;
let machine: LocalMachine;

const nodeAgentConfig = `apiVersion: nodeagent.config.gardener.cloud/v1alpha1
kind: NodeAgentConfiguration
clientConnection:
  kubeconfig: /var/lib/gardener-node-agent/credentials/kubeconfig
apiServer:
  server: https://api.local.local.internal.local.gardener.cloud
controllers:
  operatingSystemConfig:
    secretName: ${secretName}
    kubernetesVersion: "1.33.0"
server:
  healthProbes: { bindAddress: 127.0.0.1, port: 0 }
  metrics: { bindAddress: 127.0.0.1, port: 0 }
`;

function userData(kubeconfig: string): string {
  return `#cloud-config
write_files:
  - path: /var/lib/gardener-node-agent/config.yaml
    permissions: "0600"
    encoding: b64
    content: ${b64(nodeAgentConfig)}
  - path: /var/lib/gardener-node-agent/credentials/kubeconfig
    permissions: "0600"
    encoding: b64
    content: ${b64(kubeconfig)}
  - path: /etc/systemd/system/gardener-node-agent.service
    permissions: "0644"
    encoding: b64
    content: ${b64('[Unit]\nDescription=Gardener Node Agent\n[Service]\nRestart=always\nExecStart=/opt/bin/gardener-node-agent --config=/var/lib/gardener-node-agent/config.yaml\n')}
runcmd:
  - systemctl daemon-reload
  - systemctl enable gardener-node-agent.service
  - systemctl start gardener-node-agent.service
`;
}

const kubeletUnit = {
  name: 'kubelet.service',
  command: 'start',
  enable: true,
  content:
    '[Service]\nRestart=always\nRestartSec=100ms\nExecStart=/opt/bin/kubelet --config=/var/lib/kubelet/config/kubelet\n',
};
const kubeletConfigFile = {
  path: '/var/lib/kubelet/config/kubelet',
  permissions: 0o644,
  content: { inline: { encoding: 'b64', data: b64('kind: KubeletConfiguration\nfailSwapOn: false\n') } },
};

async function writeOSC(files: unknown[], checksum: string): Promise<void> {
  const osc = {
    apiVersion: 'extensions.gardener.cloud/v1alpha1',
    kind: 'OperatingSystemConfig',
    metadata: { name: 'worker-original', namespace: 'kube-system' },
    spec: { type: 'local', purpose: 'reconcile', units: [kubeletUnit], files },
  };
  await client.patch(
    Kinds.Secret,
    { namespace: 'kube-system', name: secretName },
    {
      type: 'apply',
      patch: {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: secretName, namespace: 'kube-system', annotations: { 'checksum/data-script': checksum } },
        data: { 'osc.yaml': b64(stringify(osc)) },
      },
      fieldManager: 'gardenlet',
      force: true,
    },
  );
}

const nodeChecksum = async () =>
  (await client.get(Kinds.Node, { namespace: '', name: nodeName })).metadata?.annotations?.[
    'checksum/cloud-config-data'
  ];

beforeAll(async () => {
  env = await startTestEnvironment();
  client = await ApiClient.create(env.kubeconfigPath);
  await client.create({ apiVersion: 'v1', kind: 'Node', metadata: { name: nodeName } }).catch(() => undefined);
  root = await mkdtemp(join(tmpdir(), 'machine-'));
}, 60_000);

afterAll(async () => {
  await machine?.shutdown();
  client?.close();
  await env?.stop();
  if (root) await rm(root, { recursive: true, force: true });
});

describe('a local machine running gardener-node-agent', () => {
  it('applies the OSC from the shoot and keeps its units running', async () => {
    await writeOSC([kubeletConfigFile], 'sum-1');
    machine = new LocalMachine({
      rootDir: root,
      nodeName,
      userData: userData(await readFile(env.kubeconfigPath, 'utf8')),
      log: createLogger({ name: 'machine', level: 'error' }),
      programs: {
        '/opt/bin/kubelet': () => ({ command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] }),
      },
      stopTimeoutMs: 2000,
    });
    await machine.boot();
    expect(machine.units.status('gardener-node-agent.service')).toMatchObject({ activeState: 'active', enabled: true });
    expect(await readFile(join(root, 'etc/hostname'), 'utf8')).toBe(`${nodeName}\n`);

    await waitFor(
      'the Node to carry the OSC checksum',
      async () => ((await nodeChecksum()) === 'sum-1' ? true : undefined),
      {
        timeoutMs: 20_000,
      },
    );
    const lease = await waitFor('node-agent to renew its Lease', () =>
      client
        .get(Kinds.Lease, { namespace: 'kube-system', name: `gardener-node-agent-${nodeName}` })
        .catch(() => undefined),
    );
    expect(lease.spec).toMatchObject({ holderIdentity: nodeName, leaseDurationSeconds: 40 });
    expect(lease.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'Node', name: nodeName });
    const kubelet = machine.units.status('kubelet.service');
    expect(kubelet).toMatchObject({ activeState: 'active', enabled: true });
    expect(await readFile(join(root, 'var/lib/kubelet/config/kubelet'), 'utf8')).toContain('failSwapOn: false');

    // A new file: written, the kubelet (which does not name it) keeps running.
    await writeOSC(
      [kubeletConfigFile, { path: '/etc/motd', content: { inline: { encoding: '', data: 'welcome\n' } } }],
      'sum-2',
    );
    await waitFor('the new OSC to be applied', async () => ((await nodeChecksum()) === 'sum-2' ? true : undefined), {
      timeoutMs: 20_000,
    });
    expect(await readFile(join(root, 'etc/motd'), 'utf8')).toBe('welcome\n');
    expect(machine.units.status('kubelet.service').pid).toBe(kubelet.pid);

    // The Node asks for a restart of the kubelet.
    await client.patch(
      Kinds.Node,
      { namespace: '', name: nodeName },
      {
        type: 'merge',
        patch: { metadata: { annotations: { 'worker.gardener.cloud/restart-systemd-services': 'kubelet' } } },
      },
    );
    const restarted = await waitFor(
      'the kubelet to be restarted and the annotation removed',
      async () => {
        const node = await client.get(Kinds.Node, { namespace: '', name: nodeName });
        const status = machine.units.status('kubelet.service');
        return !node.metadata?.annotations?.['worker.gardener.cloud/restart-systemd-services'] &&
          status.activeState === 'active' &&
          status.pid !== kubelet.pid
          ? status
          : undefined;
      },
      { timeoutMs: 20_000 },
    );

    // A killed kubelet comes back.
    process.kill(restarted.pid!, 'SIGKILL');
    await waitFor(
      'the killed kubelet to run again',
      () => {
        const s = machine.units.status('kubelet.service');
        return s.activeState === 'active' && s.pid !== restarted.pid ? s : undefined;
      },
      { timeoutMs: 20_000 },
    );
  }, 90_000);
});
