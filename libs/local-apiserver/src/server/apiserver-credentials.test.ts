// The API server with credentials it is given, as a shoot's kube-apiserver gets them from Gardener's secrets manager
// (--tls-cert-file, --client-ca-file, --advertise-address, --bind-address): it serves the given certificate, trusts
// client certificates of the given client CA only, and advertises the given address in default/kubernetes.
import { request } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCA, issueCertificate, type KeyPair } from '../pki/certs.js';
import { LocalApiServer } from './apiserver.js';

let server: LocalApiServer;
let clusterCA: string;
let alice: KeyPair;

function call(path: string, client: Partial<KeyPair>, body?: unknown): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: server.port,
        path,
        method: body ? 'POST' : 'GET',
        ca: clusterCA,
        servername: 'kube-apiserver',
        agent: false,
        headers: { 'content-type': 'application/json' },
        cert: client.certPem,
        key: client.keyPem,
      },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : undefined }));
      },
    );
    req.on('error', reject);
    req.end(body ? JSON.stringify(body) : undefined);
  });
}

const review = { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' };

beforeAll(async () => {
  const [cluster, client] = await Promise.all([createCA('kubernetes'), createCA('kubernetes-client')]);
  clusterCA = cluster.certPem;
  const serving = await issueCertificate(cluster, {
    commonName: 'kube-apiserver',
    dnsNames: ['kube-apiserver'],
    usage: 'server',
  });
  alice = await issueCertificate(client, { commonName: 'alice', organizations: ['system:masters'], usage: 'client' });
  server = await LocalApiServer.start({
    storage: 'memory',
    host: '0.0.0.0',
    advertiseAddress: '10.1.2.3',
    servingCertificate: serving,
    clientCA: client.certPem,
  });
});
afterAll(() => server?.stop());

describe('an API server with given serving certificate and client CA', () => {
  it('serves the given certificate (verified against its CA under its DNS name)', async () => {
    expect(await call('/version', {})).toMatchObject({ status: 200, body: { major: '1' } });
  });

  it('authenticates client certificates of the client CA: CN the user, O the groups', async () => {
    const res = await call('/apis/authentication.k8s.io/v1/selfsubjectreviews', alice, review);
    expect(res.status).toBe(201);
    expect(res.body.status.userInfo).toMatchObject({
      username: 'alice',
      groups: expect.arrayContaining(['system:masters', 'system:authenticated']),
    });
  });

  it("refuses its own data dir CA's admin certificate with 401, and writes no kubeconfig for it", async () => {
    const res = await call('/apis/authentication.k8s.io/v1/selfsubjectreviews', server.credentials.admin, review);
    expect(res.status).toBe(401);
    expect(server.kubeconfig).toBe('');
  });

  it('advertises the given address in default/kubernetes and names a reachable URL when bound to all addresses', async () => {
    const endpoints = await call('/api/v1/namespaces/default/endpoints/kubernetes', alice);
    expect(endpoints.body.subsets[0].addresses).toEqual([{ ip: '10.1.2.3' }]);
    expect(server.url).toBe(`https://127.0.0.1:${server.port}`);
  });

  it('names what stops a start: encryption without etcd, half an etcd key pair, a broken certificate, a used port', async () => {
    await expect(
      LocalApiServer.start({ storage: 'memory', encryptionConfig: 'kind: EncryptionConfiguration' }),
    ).rejects.toThrow('encryption at rest needs etcd storage, not memory');
    await expect(
      LocalApiServer.start({
        storage: 'etcd',
        etcdServers: ['https://127.0.0.1:1'],
        etcdTLS: { certPem: alice.certPem },
      }),
    ).rejects.toThrow('etcd TLS needs both a client certificate and its key');
    await expect(
      LocalApiServer.start({ storage: 'memory', servingCertificate: { certPem: 'garbage', keyPem: alice.keyPem } }),
    ).rejects.toThrow(/^serving certificate, key or client CA: /);
    await expect(LocalApiServer.start({ storage: 'memory', port: server.port })).rejects.toThrow(
      `listening on 127.0.0.1:${server.port}: listen EADDRINUSE`,
    );
  });
});
