// kube-apiserver's --kubelet-client-certificate/--kubelet-client-key against the real local API server and kubelet: a
// kubelet that trusts only its own client CA (a shoot's kubelet: `authentication.x509.clientCAFile`) serves logs to an
// API server presenting a certificate of that CA, and refuses the one presenting its own admin certificate.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@gardener-ts/logging';
import { createCA, issueCertificate, type KeyPair } from '@gardener-ts/local-apiserver';
import { startTestCluster, waitFor, type TestCluster } from '@gardener-ts/testing';
import { ImageMap } from '../../src/images/image-map.js';
import { startKubelet, type Kubelet } from '../../src/kubelet/kubelet.js';
import { FIXTURE } from './harness.js';

const logger = createLogger({ name: 'kubelet-client-cert-test', level: 'silent' });
const WAIT = { timeoutMs: 30_000, intervalMs: 200 };
const dirs: string[] = [];
const kubelets: Kubelet[] = [];
const clusters: TestCluster[] = [];
let clientCAFile: string;
let apiServerKubeletClient: KeyPair;

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'kubelet-client-ca-'));
  dirs.push(dir);
  // The shoot's client CA, and the certificate Gardener gives the kube-apiserver for kubelets (apiserver-kubelet).
  const ca = await createCA('ca-client');
  clientCAFile = join(dir, 'ca.crt');
  await writeFile(clientCAFile, ca.certPem);
  apiServerKubeletClient = await issueCertificate(ca, {
    commonName: 'system:kube-apiserver:kubelet',
    organizations: ['system:masters'],
    usage: 'client',
  });
});

afterAll(async () => {
  await Promise.all(kubelets.map((k) => k.stop()));
  await Promise.all(clusters.map((c) => c.stop()));
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
}, 60_000);

/** A cluster whose one node's kubelet trusts only the client CA; the log of a Pod running there, or the error. */
async function podLog(kubeletClientCertificate: KeyPair | undefined): Promise<string | k8s.ApiException<string>> {
  const cluster = await startTestCluster(kubeletClientCertificate ? { kubeletClientCertificate } : {});
  clusters.push(cluster);
  const admin = new k8s.KubeConfig();
  admin.loadFromFile(cluster.kubeconfigPath);
  const core = admin.makeApiClient(k8s.CoreV1Api);
  const dataDir = await mkdtemp(join(tmpdir(), 'kubelet-'));
  dirs.push(dataDir);
  kubelets.push(
    await startKubelet({
      kubeconfig: admin,
      nodeName: 'node-a',
      dataDir,
      clientCaFile: clientCAFile,
      imageMap: new ImageMap([{ image: 'fixture', command: [process.execPath, FIXTURE] }]),
      port: 0,
      logger,
    }),
  );
  await core.createNamespacedPod({
    namespace: 'default',
    body: {
      metadata: { name: 'p' },
      spec: { nodeName: 'node-a', containers: [{ name: 'main', image: 'fixture', args: ['sleep'] }] },
    },
  });
  await waitFor(
    'pod p running',
    async () =>
      (await core.readNamespacedPod({ name: 'p', namespace: 'default' })).status?.containerStatuses?.[0]?.state
        ?.running,
    WAIT,
  );
  return waitFor(
    'the log of pod p, or an error',
    async () => {
      try {
        const text = await core.readNamespacedPodLog({ name: 'p', namespace: 'default' });
        return text.includes('started') ? text : undefined;
      } catch (err) {
        return err as k8s.ApiException<string>;
      }
    },
    WAIT,
  );
}

describe('the API server authenticating to kubelets', () => {
  it('with --kubelet-client-certificate of the kubelets’ client CA, reads their Pods’ logs', async () => {
    expect(await podLog(apiServerKubeletClient)).toContain('started');
  }, 60_000);

  it('without it, presents its own admin certificate, which such a kubelet refuses', async () => {
    const failure = await podLog(undefined);
    expect(failure).toBeInstanceOf(k8s.ApiException);
    expect((failure as k8s.ApiException<string>).code).toBeGreaterThanOrEqual(500);
  }, 60_000);
});
