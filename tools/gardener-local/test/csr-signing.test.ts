// `gardener-local controller-manager` signs CSRs with the cluster's CAs, as a shoot's kube-controller-manager does with
// Gardener's --cluster-signing-* flags: the API server runs with the shoot's client CA (--client-ca-file) and so does
// not sign itself; a client certificate requested with kubectl (an openssl request, as gardener-node-agent's TLS
// bootstrap sends one) and approved gets a certificate from that CA, and kubectl with it is authenticated as the
// request's subject (`kubectl auth whoami`).
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { LocalApiServer } from '@gardener-ts/local-apiserver';
import {
  generateKeyPair,
  issueCertificate,
  privateKeyPem,
  verifyCertificate,
  type CertificateAuthority,
} from '@gardener-ts/secrets-manager';
import {
  kubectl,
  startProcess,
  stopAllProcesses,
  waitFor,
  workspaceRoot,
  type RunningProcess,
} from '@gardener-ts/testing';

const source = join(workspaceRoot(), 'tools', 'gardener-local', 'src', 'cli.ts');
const run = promisify(execFile);
let dir: string;
let server: LocalApiServer;
let clusterCA: CertificateAuthority;
let clientCA: CertificateAuthority;
let admin: string;
let controllerManager: RunningProcess;

async function makeCA(commonName: string): Promise<CertificateAuthority> {
  const keys = await generateKeyPair({ algorithm: 'RSA', bits: 2048 });
  const now = Date.now();
  const certificate = await issueCertificate({
    commonName,
    certType: 'ca',
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + 86400_000),
    keys,
  });
  return { certificate, certificatePem: certificate.toString('pem'), keys };
}

/** A kubeconfig for the server with a client certificate. */
async function kubeconfigFor(name: string, certPem: string, keyPem: string): Promise<string> {
  const path = join(dir, `${name}.kubeconfig`);
  await writeFile(
    path,
    stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [
        {
          name: 'shoot',
          cluster: {
            server: server.url,
            'certificate-authority-data': Buffer.from(clusterCA.certificatePem).toString('base64'),
          },
        },
      ],
      users: [
        {
          name,
          user: {
            'client-certificate-data': Buffer.from(certPem).toString('base64'),
            'client-key-data': Buffer.from(keyPem).toString('base64'),
          },
        },
      ],
      contexts: [{ name: 'shoot', context: { cluster: 'shoot', user: name } }],
      'current-context': 'shoot',
    }),
  );
  return path;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gardener-local-csrsigning-'));
  [clusterCA, clientCA] = await Promise.all([makeCA('kubernetes'), makeCA('kubernetes-client')]);
  const now = Date.now();
  const servingKeys = await generateKeyPair({ algorithm: 'ECDSA' });
  const serving = await issueCertificate({
    commonName: 'kube-apiserver',
    ipAddresses: ['127.0.0.1'],
    certType: 'server',
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + 86400_000),
    keys: servingKeys,
    signingCA: clusterCA,
  });
  server = await LocalApiServer.start({
    storage: 'memory',
    servingCertificate: { certPem: serving.toString('pem'), keyPem: privateKeyPem(servingKeys.keyObject) },
    clientCA: clientCA.certificatePem,
  });
  const adminKeys = await generateKeyPair({ algorithm: 'ECDSA' });
  const adminCert = await issueCertificate({
    commonName: 'admin',
    organization: ['system:masters'],
    certType: 'client',
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + 86400_000),
    keys: adminKeys,
    signingCA: clientCA,
  });
  admin = await kubeconfigFor('admin', adminCert.toString('pem'), privateKeyPem(adminKeys.keyObject));
  // The shoot's ca-client as Gardener mounts it into kube-controller-manager: ca.crt and a PKCS#1 ca.key.
  await writeFile(join(dir, 'ca.crt'), clientCA.certificatePem);
  await writeFile(join(dir, 'ca.key'), privateKeyPem(clientCA.keys.keyObject));
}, 60_000);

afterAll(async () => {
  await stopAllProcesses();
  await server?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('gardener-local controller-manager with --cluster-signing-* files', () => {
  it("signs an approved client CSR with the cluster's client CA, and the certificate authenticates", async () => {
    controllerManager = startProcess(
      process.execPath,
      [
        ...['--conditions=@gardener-ts/source', '--import', 'tsx', source, 'controller-manager'],
        ...['--kubeconfig', admin, '--controllers', 'csrsigning', '--no-leader-elect'],
        ...['--secure-port', '0', '--bind-address', '127.0.0.1', '--cluster-signing-duration', '720h'],
        ...['--cluster-signing-kube-apiserver-client-cert-file', join(dir, 'ca.crt')],
        ...['--cluster-signing-kube-apiserver-client-key-file', join(dir, 'ca.key')],
      ],
      { cwd: workspaceRoot() },
    );
    // A client key and request made with openssl, as a user (or node-agent's bootstrap) makes them.
    await run('openssl', [
      ...['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'],
      ...['-subj', '/O=gardener.cloud:node-agents/CN=gardener.cloud:node-agent:machine-0'],
      ...['-keyout', join(dir, 'node-agent.key'), '-out', join(dir, 'node-agent.csr')],
    ]);
    const request = await readFile(join(dir, 'node-agent.csr'));
    await kubectl(admin, ['apply', '-f', '-'], {
      input: stringify({
        apiVersion: 'certificates.k8s.io/v1',
        kind: 'CertificateSigningRequest',
        metadata: { name: 'node-agent-csr' },
        spec: {
          request: request.toString('base64'),
          signerName: 'kubernetes.io/kube-apiserver-client',
          expirationSeconds: 3600,
          usages: ['digital signature', 'client auth'],
        },
      }),
    });
    await kubectl(admin, ['certificate', 'approve', 'node-agent-csr']);
    const certificate = await waitFor(
      'the CSR to get its certificate',
      async () => {
        if (controllerManager.child.exitCode !== null)
          throw new Error(`controller-manager exited: ${controllerManager.output()}`);
        const b64 = await kubectl(admin, ['get', 'csr', 'node-agent-csr', '-o', 'jsonpath={.status.certificate}']);
        return b64 ? Buffer.from(b64, 'base64').toString('utf8') : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    expect(await verifyCertificate(certificate, clientCA.certificatePem)).toBe(true);

    const nodeAgent = await kubeconfigFor(
      'node-agent',
      certificate,
      await readFile(join(dir, 'node-agent.key'), 'utf8'),
    );
    const whoami = JSON.parse(await kubectl(nodeAgent, ['auth', 'whoami', '-o', 'json']));
    expect(whoami.status.userInfo.username).toBe('gardener.cloud:node-agent:machine-0');
    expect(whoami.status.userInfo.groups).toEqual(
      expect.arrayContaining(['gardener.cloud:node-agents', 'system:authenticated']),
    );
  }, 90_000);

  it('refuses a cert file without its key file', async () => {
    const proc = startProcess(
      process.execPath,
      [
        ...['--conditions=@gardener-ts/source', '--import', 'tsx', source, 'controller-manager'],
        ...['--kubeconfig', admin, '--cluster-signing-cert-file', join(dir, 'ca.crt')],
      ],
      { cwd: workspaceRoot() },
    );
    expect(await proc.exited).toBe(2);
    expect(proc.output()).toContain('--cluster-signing-cert-file and --cluster-signing-key-file go together');
  }, 90_000);
});
