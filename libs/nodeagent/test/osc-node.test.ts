// node-agent's OperatingSystemConfig controller against the local API server: the OSC is applied before the kubelet
// registered the machine's Node, and the Node gets the OSC's checksum as soon as it is registered, not at the next
// requeue after "Waiting for Node to get registered" (5 s; here longer than the test waits).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { ApiClient, Kinds, Manager } from '@gardener-ts/controller-runtime';
import { startTestEnvironment, waitFor, type TestEnvironment } from '@gardener-ts/testing';
import { addOperatingSystemConfigController } from '../src/controller/operatingsystemconfig/add.js';
import { LocalUnitRunner } from '../src/units/runner.js';

let env: TestEnvironment;
let client: ApiClient;
let mgr: Manager;
let root: string;
const nodeName = 'machine-registers-late';
const secretName = 'gardener-node-agent-local';
const checksum = 'a1b2c3';

beforeAll(async () => {
  env = await startTestEnvironment();
  client = await ApiClient.create(env.kubeconfigPath);
  root = await mkdtemp(join(tmpdir(), 'osc-node-'));
  const osc = {
    apiVersion: 'extensions.gardener.cloud/v1alpha1',
    kind: 'OperatingSystemConfig',
    metadata: {},
    spec: { files: [{ path: '/etc/motd', permissions: 0o644, content: { inline: { data: 'hello' } } }] },
  };
  await client.create({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: secretName, namespace: 'kube-system', annotations: { 'checksum/data-script': checksum } },
    data: { 'osc.yaml': Buffer.from(stringify(osc)).toString('base64') },
  });
  mgr = await Manager.create({
    clusters: { shoot: { kubeConfig: env.kubeconfigPath } },
    gracefulShutdownTimeoutMs: 0,
  });
  addOperatingSystemConfigController(mgr, {
    secretName,
    nodeName,
    rootDir: root,
    units: new LocalUnitRunner({ rootDir: root, programs: {}, stopTimeoutMs: 1000 }),
    // A requeue far longer than the test waits: only the Node's creation can bring the annotation in time.
    nodeRegistrationRequeueMs: 600_000,
  });
  await mgr.start();
}, 60_000);

afterAll(async () => {
  await mgr?.stop();
  client?.close();
  await env?.stop();
  if (root) await rm(root, { recursive: true, force: true });
});

describe("node-agent's OperatingSystemConfig controller", () => {
  it('annotates the Node with the checksum as soon as the kubelet registers it', async () => {
    // Applied before the Node exists: the file is written, the controller waits for the Node.
    await waitFor(
      'the OSC file on the machine',
      () => readFile(join(root, 'etc/motd'), 'utf8').catch(() => undefined),
      {
        timeoutMs: 10_000,
      },
    );
    await client.create({ apiVersion: 'v1', kind: 'Node', metadata: { name: nodeName } });
    const annotation = await waitFor(
      "the OSC's checksum on the Node",
      async () =>
        (await client.get(Kinds.Node, { namespace: '', name: nodeName })).metadata?.annotations?.[
          'checksum/cloud-config-data'
        ],
      { timeoutMs: 10_000 },
    );
    expect(annotation).toBe(checksum);
  });
});
