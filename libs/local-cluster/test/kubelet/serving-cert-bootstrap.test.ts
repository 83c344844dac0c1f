// serverTLSBootstrap against the real local API server: the kubelet asks for its serving certificate with a
// kubelet-serving CSR under its node identity, serves it once approved and issued, keeps it across a restart, and an
// API server with kubeletCertificateAuthority proxies logs to it but not to a kubelet serving a self-signed one.
import { X509Certificate } from 'node:crypto';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type PeerCertificate } from 'node:tls';
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@gardener-ts/logging';
import { startTestCluster, waitFor, type TestCluster } from '@gardener-ts/testing';
import { nodeKubeConfig } from '../../src/cluster/node-credentials.js';
import { startControllerManager, type ControllerManager } from '../../src/controllers/controller-manager.js';
import { parseCertificateRequest } from '../../src/controllers/csrapproving-kubelet-serving/certificate-request.js';
import { ImageMap } from '../../src/images/image-map.js';
import { startKubelet, type Kubelet } from '../../src/kubelet/kubelet.js';
import type { KubeletOptions } from '../../src/kubelet/options.js';
import { FIXTURE } from './harness.js';

const logger = createLogger({ name: 'serving-cert-test', level: process.env.KUBELET_TEST_LOG ? 'debug' : 'silent' });
const WAIT = { timeoutMs: 30_000, intervalMs: 200 };

let cluster: TestCluster;
let admin: k8s.KubeConfig;
let certificates: k8s.CertificatesV1Api;
let core: k8s.CoreV1Api;
const dirs: string[] = [];
const running: Kubelet[] = [];

beforeAll(async () => {
  cluster = await startTestCluster({ kubeletCertificateAuthority: true });
  admin = new k8s.KubeConfig();
  admin.loadFromFile(cluster.kubeconfigPath);
  certificates = admin.makeApiClient(k8s.CertificatesV1Api);
  core = admin.makeApiClient(k8s.CoreV1Api);
}, 60_000);

afterAll(async () => {
  await Promise.all(running.map((k) => k.stop()));
  await cluster?.stop();
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
}, 60_000);

async function kubelet(nodeName: string, dataDir: string, options: Partial<KubeletOptions> = {}): Promise<Kubelet> {
  const started = await startKubelet({
    kubeconfig: options.serverTLSBootstrap ? await nodeKubeConfig(cluster.server, nodeName) : admin,
    nodeName,
    dataDir,
    imageMap: new ImageMap([{ image: 'fixture', command: [process.execPath, FIXTURE] }]),
    port: 0,
    csrPollMs: 200,
    retryMs: 200,
    logger,
    ...options,
  });
  running.push(started);
  return started;
}

async function stopKubelet(k: Kubelet): Promise<void> {
  await k.stop();
  running.splice(running.indexOf(k), 1);
}

/** The certificate a kubelet presents (or the handshake error), verified against nothing. */
function peerCertificate(port: number): Promise<PeerCertificate> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, rejectUnauthorized: false }, () => {
      const cert = socket.getPeerCertificate();
      socket.end();
      resolve(cert);
    });
    socket.on('error', reject);
  });
}

/** Whether a client trusting only the cluster CA accepts the kubelet for 127.0.0.1 (its node's InternalIP). */
function verifiedConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, ca: cluster.server.credentials.ca.certPem }, () => {
      socket.end();
      resolve(socket.authorized);
    });
    socket.on('error', () => resolve(false));
  });
}

async function servingCSRs(nodeName: string): Promise<k8s.V1CertificateSigningRequest[]> {
  const list = await certificates.listCertificateSigningRequest();
  return list.items.filter(
    (c) => c.spec.signerName === 'kubernetes.io/kubelet-serving' && c.spec.username === `system:node:${nodeName}`,
  );
}

async function runPod(name: string, nodeName: string): Promise<void> {
  await core.createNamespacedPod({
    namespace: 'default',
    body: {
      metadata: { name },
      spec: {
        nodeName,
        terminationGracePeriodSeconds: 5,
        containers: [{ name: 'main', image: 'fixture', args: ['sleep'] }],
      },
    },
  });
  await waitFor(
    `pod ${name} running`,
    async () => {
      const pod = await core.readNamespacedPod({ name, namespace: 'default' });
      return pod.status?.containerStatuses?.[0]?.state?.running ? pod : undefined;
    },
    WAIT,
  );
}

describe('kubelet serverTLSBootstrap', () => {
  it('requests a kubelet-serving certificate as its node, serves it once approved, and keeps it across a restart', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'kubelet-bootstrap-'));
    dirs.push(dataDir);
    let k = await kubelet('boot-node', dataDir, { serverTLSBootstrap: true });
    expect(k.servingCertificate()).toBeUndefined();

    const [csr] = await waitFor(
      'a kubelet-serving CSR of boot-node',
      async () => ((await servingCSRs('boot-node')).length ? servingCSRs('boot-node') : undefined),
      WAIT,
    );
    expect(csr.spec.signerName).toBe('kubernetes.io/kubelet-serving');
    expect(csr.spec.groups).toContain('system:nodes');
    expect([...csr.spec.usages!].sort()).toEqual(['digital signature', 'server auth']);
    const request = parseCertificateRequest(Buffer.from(csr.spec.request, 'base64').toString('latin1'));
    expect(request).toMatchObject({
      commonName: 'system:node:boot-node',
      organizations: ['system:nodes'],
      dnsNames: ['boot-node'],
      ipAddresses: ['127.0.0.1'],
    });

    // Not approved yet: no serving certificate, so no TLS at all.
    await expect(peerCertificate(k.port)).rejects.toThrow();

    const now = new Date();
    await certificates.replaceCertificateSigningRequestApproval({
      name: csr.metadata!.name!,
      body: {
        ...csr,
        status: {
          conditions: [
            {
              type: 'Approved',
              status: 'True',
              reason: 'TestApproved',
              message: 'approved by the test',
              lastUpdateTime: now,
              lastTransitionTime: now,
            },
          ],
        },
      },
    });
    const issued = await waitFor(
      'the kubelet serving the issued certificate',
      async () => {
        const peer = await peerCertificate(k.port).catch(() => undefined);
        return peer?.issuer?.CN === 'gardener-ts-local-ca' ? peer : undefined;
      },
      WAIT,
    );
    expect(issued.subject).toMatchObject({ CN: 'system:node:boot-node', O: 'system:nodes' });
    expect(issued.subjectaltname).toContain('IP Address:127.0.0.1');
    expect(await verifiedConnect(k.port)).toBe(true);
    expect(new X509Certificate(k.servingCertificate()!).fingerprint256).toBe(issued.fingerprint256);
    // Certificate and key kept in the data dir, readable by the owner only.
    expect((await stat(join(dataDir, 'pki', 'kubelet-server-current.pem'))).mode & 0o777).toBe(0o600);

    // A restart serves the same certificate right away and asks for no new one.
    await stopKubelet(k);
    k = await kubelet('boot-node', dataDir, { serverTLSBootstrap: true });
    expect((await peerCertificate(k.port)).fingerprint256).toBe(issued.fingerprint256);
    expect(await servingCSRs('boot-node')).toHaveLength(1);
  }, 90_000);

  it('with the approver and kubeletCertificateAuthority, logs work against a bootstrapped kubelet and fail against a self-signed one', async () => {
    let manager: ControllerManager | undefined;
    try {
      manager = await startControllerManager({
        kubeConfig: admin,
        controllers: ['csrapproving-kubelet-serving'],
        logger,
      });
      const bootDir = await mkdtemp(join(tmpdir(), 'kubelet-approved-'));
      const selfDir = await mkdtemp(join(tmpdir(), 'kubelet-self-signed-'));
      dirs.push(bootDir, selfDir);
      const boot = await kubelet('approved-node', bootDir, { serverTLSBootstrap: true });
      await kubelet('self-signed-node', selfDir);
      await waitFor('approved-node serving its issued certificate', async () => boot.servingCertificate(), WAIT);
      const [csr] = await servingCSRs('approved-node');
      expect(csr.status?.conditions?.find((c) => c.type === 'Approved')).toMatchObject({
        status: 'True',
        reason: 'RequestApproved',
      });

      await runPod('verified', 'approved-node');
      await runPod('unverified', 'self-signed-node');
      const logs = await waitFor(
        'logs of pod verified',
        async () => {
          const text = await core.readNamespacedPodLog({ name: 'verified', namespace: 'default' });
          return text.includes('started') ? text : undefined;
        },
        WAIT,
      );
      expect(logs).toContain('started');

      const failure = await core.readNamespacedPodLog({ name: 'unverified', namespace: 'default' }).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(failure).toBeInstanceOf(k8s.ApiException);
      const { code, body } = failure as k8s.ApiException<string>;
      expect(code).toBe(500);
      expect(JSON.parse(body).message).toMatch(
        /^Get "https:\/\/127\.0\.0\.1:\d+\/containerLogs\/default\/unverified\/main\?": tls: failed to verify certificate: x509: certificate signed by unknown authority$/,
      );
    } finally {
      await manager?.stop();
    }
  }, 120_000);
});
