// Node, PersistentVolume, Endpoints, EndpointSlice, Event (core/v1 and events.k8s.io/v1) and StorageClass created
// with `application/vnd.kubernetes.protobuf` bodies against the running server, then read back with the real
// kubectl. No kubectl command sends these kinds as protobuf (its generators do not cover them; `create -f` and
// `create --raw -f` send `Content-Type: application/json`, checked with kubectl v1.35 -v=8), so the bodies are what client-go's typed clients send: `k8s\0` + runtime.Unknown, encoded with the
// hand-written .proto fixtures (from k8s.io/api generated.proto v1.35), independent of the server's message tables.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectl, runKubectl } from '@gardener-ts/test-support';
import { kubeProtobufBodyFromJson } from '../../src/http/protobuf-schema/testdata/independent-protos.js';
import {
  CORE_EVENT,
  ENDPOINT_SLICE,
  ENDPOINTS,
  EVENTS_EVENT,
  NODE,
  STORAGE_CLASS,
} from '../../src/http/protobuf-schema/testdata/objects.js';
import { startTestCluster, type TestCluster } from '../../src/index.js';
import { rawClient } from './raw-client.js';

const PROTOBUF = 'application/vnd.kubernetes.protobuf';

let cluster: TestCluster;
let api: ReturnType<typeof rawClient>;
let k: (args: string[]) => Promise<string>;

beforeAll(async () => {
  cluster = await startTestCluster();
  api = rawClient(cluster.server);
  k = (args) => kubectl(cluster.kubeconfigPath, args);
});
afterAll(async () => cluster?.stop());

/** POSTs `object` as kube protobuf, like client-go's typed Create. */
async function createProtobuf(path: string, typeName: string, object: Record<string, unknown>) {
  const body = kubeProtobufBodyFromJson(typeName, object);
  return api.send('POST', path, body, { 'content-type': PROTOBUF, accept: 'application/json' });
}

const getJson = async (args: string[]) => JSON.parse(await k(['get', ...args, '-o', 'json']));

/** A PersistentVolume the way a CSI provisioner creates it. */
const PV = {
  apiVersion: 'v1',
  kind: 'PersistentVolume',
  metadata: { name: 'pvc-0a1b', annotations: { 'pv.kubernetes.io/provisioned-by': 'ebs.csi.aws.com' } },
  spec: {
    capacity: { storage: '10Gi' },
    csi: {
      driver: 'ebs.csi.aws.com',
      volumeHandle: 'vol-0abc',
      fsType: 'ext4',
      volumeAttributes: { 'storage.kubernetes.io/csiProvisionerIdentity': '1700000000000-8081-ebs.csi.aws.com' },
      nodeExpandSecretRef: { name: 'expand', namespace: 'kube-system' },
    },
    accessModes: ['ReadWriteOnce'],
    claimRef: { kind: 'PersistentVolumeClaim', namespace: 'default', name: 'data', apiVersion: 'v1' },
    persistentVolumeReclaimPolicy: 'Delete',
    storageClassName: 'fast',
    mountOptions: ['noatime'],
    volumeMode: 'Filesystem',
    nodeAffinity: {
      required: {
        nodeSelectorTerms: [
          { matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['eu-1a'] }] },
        ],
      },
    },
  },
};

/** The fixtures with the values kube validation would refuse (port 0) replaced. */
const endpoints = {
  ...ENDPOINTS,
  subsets: [
    {
      ...ENDPOINTS.subsets[0],
      notReadyAddresses: [{ ip: '10.0.1.12' }],
      ports: [ENDPOINTS.subsets[0].ports[0], { name: 'dns', port: 53, protocol: 'UDP' }],
    },
  ],
};
const endpointSlice = { ...ENDPOINT_SLICE, ports: [ENDPOINT_SLICE.ports[0]] };

describe('typed protobuf creates of Node, PersistentVolume, Endpoints, EndpointSlice, Event and StorageClass', () => {
  it('creates a Node from protobuf and kubectl reads it back', async () => {
    const res = await createProtobuf('/api/v1/nodes', 'k8s.io.api.core.v1.Node', NODE);
    expect(res.status, res.body).toBe(201);
    const node = await getJson(['node', 'node-1']);
    expect(node.metadata.labels).toMatchObject(NODE.metadata.labels);
    expect(node.spec).toEqual(NODE.spec);
  });

  it('creates a PersistentVolume with a CSI source (inlined in spec) and node affinity', async () => {
    const res = await createProtobuf('/api/v1/persistentvolumes', 'k8s.io.api.core.v1.PersistentVolume', PV);
    expect(res.status, res.body).toBe(201);
    const pv = await getJson(['pv', 'pvc-0a1b']);
    expect(pv.spec).toMatchObject(PV.spec);
    expect(pv.metadata.annotations).toMatchObject(PV.metadata.annotations);
  });

  it('creates Endpoints', async () => {
    const res = await createProtobuf('/api/v1/namespaces/default/endpoints', 'k8s.io.api.core.v1.Endpoints', endpoints);
    expect(res.status, res.body).toBe(201);
    expect((await getJson(['endpoints', 'web', '-n', 'default'])).subsets).toEqual(endpoints.subsets);
  });

  it('creates an EndpointSlice (discovery.k8s.io/v1)', async () => {
    const res = await createProtobuf(
      '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices',
      'k8s.io.api.discovery.v1.EndpointSlice',
      endpointSlice,
    );
    expect(res.status, res.body).toBe(201);
    const slice = await getJson(['endpointslices.discovery.k8s.io', 'web-abc12', '-n', 'default']);
    expect(slice).toMatchObject({
      addressType: 'IPv4',
      endpoints: endpointSlice.endpoints,
      ports: endpointSlice.ports,
    });
  });

  it('creates core/v1 and events.k8s.io/v1 Events with MicroTime eventTime', async () => {
    const core = await createProtobuf('/api/v1/namespaces/default/events', 'k8s.io.api.core.v1.Event', CORE_EVENT);
    expect(core.status, core.body).toBe(201);
    const ev = await getJson(['events.v1.', CORE_EVENT.metadata.name, '-n', 'default']);
    const { metadata: _m, apiVersion: _a, kind: _k, ...coreFields } = CORE_EVENT;
    expect(ev).toMatchObject(coreFields);

    const modern = await createProtobuf(
      '/apis/events.k8s.io/v1/namespaces/default/events',
      'k8s.io.api.events.v1.Event',
      EVENTS_EVENT,
    );
    expect(modern.status, modern.body).toBe(201);
    const got = await getJson(['events.v1.events.k8s.io', EVENTS_EVENT.metadata.name, '-n', 'default']);
    const { metadata: _m2, apiVersion: _a2, kind: _k2, ...eventFields } = EVENTS_EVENT;
    expect(got).toMatchObject(eventFields);
  });

  it('creates a StorageClass with allowedTopologies', async () => {
    const res = await createProtobuf(
      '/apis/storage.k8s.io/v1/storageclasses',
      'k8s.io.api.storage.v1.StorageClass',
      STORAGE_CLASS,
    );
    expect(res.status, res.body).toBe(201);
    const sc = await getJson(['storageclass', 'fast']);
    const { metadata: _m, apiVersion: _a, kind: _k, ...fields } = STORAGE_CLASS;
    expect(sc).toMatchObject(fields);
  });

  it('answers a served kind that has no message table (coordination.k8s.io Lease) with a clear 415', async () => {
    // A protobuf envelope naming Lease; its raw bytes never get looked at.
    const body = kubeProtobufBodyFromJson('k8s.io.api.core.v1.EventSource', {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      component: 'x',
    });
    const res = await api.send('POST', '/apis/coordination.k8s.io/v1/namespaces/default/leases', body, {
      'content-type': PROTOBUF,
    });
    expect(res.status).toBe(415);
    expect(res.json()).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'UnsupportedMediaType', code: 415 });
    expect(res.json().message).toMatch(/application\/json/);
    expect((await runKubectl(cluster.kubeconfigPath, ['get', 'lease', 'x', '-n', 'default'])).code).not.toBe(0);
  });
});
