// The kubelet's TLS bootstrap (kube's `--bootstrap-kubeconfig`, k8s.io/kubelet's bootstrap.LoadClientCert): when the
// kubeconfig given by `--kubeconfig` is missing or its client certificate has expired, the kubelet authenticates with
// the bootstrap kubeconfig (a bootstrap token), makes a key and a CertificateSigningRequest for
// kubernetes.io/kube-apiserver-client-kubelet (O=system:nodes, CN=system:node:<node>, usages digital signature and
// client auth), waits until it is approved and issued, keeps certificate and key in
// `<certDir>/kubelet-client-current.pem` (0600) and writes the kubeconfig: the bootstrap kubeconfig's server and CA,
// and that file as client certificate and key (relative to the kubeconfig when below its directory, so the node's
// view and the host's view of the paths agree). A certificate kept from an earlier run is reused while valid.
import { X509Certificate } from 'node:crypto';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import type { Logger } from '@gardener-ts/logging';
import { stringify } from 'yaml';
import { parseIssued } from '../server/serving-cert-manager.js';
import { kubeletClientRequest, newKeyPair, writeSecret } from '../server/serving-cert.js';
import { requestCertificate } from './request-certificate.js';

export const KUBELET_CLIENT_SIGNER = 'kubernetes.io/kube-apiserver-client-kubelet';
/** The file kube's kubelet keeps its current client certificate and key in, below its cert dir. */
export const CLIENT_CURRENT_FILE = 'kubelet-client-current.pem';
const PENDING_KEY_FILE = 'kubelet-client.key.tmp';

/** Options of the TLS bootstrap. */
export interface ClientBootstrapOptions {
  /** The kubeconfig the kubelet runs with (`--kubeconfig`): read when valid, written after a bootstrap. */
  kubeconfig: string;
  /** The bootstrap kubeconfig (`--bootstrap-kubeconfig`); without it nothing is bootstrapped. */
  bootstrapKubeconfig?: string;
  /** Where the client certificate is kept (`--cert-dir`, default `<root-dir>/pki`). */
  certDir: string;
  nodeName: string;
  /** How often the CSR is read while waiting for approval; default 1 s. */
  pollMs?: number;
  signal?: AbortSignal;
  log: Logger;
}

/** What the bootstrap did: nothing (the kubeconfig is valid), reused a kept certificate, or requested a new one. */
export type ClientBootstrapResult = 'valid' | 'reused' | { requested: string };

/** Makes sure `options.kubeconfig` holds valid node credentials; see the file header. */
export async function bootstrapClientCertificate(options: ClientBootstrapOptions): Promise<ClientBootstrapResult> {
  const { kubeconfig, bootstrapKubeconfig, certDir, nodeName, log } = options;
  const problem = await kubeconfigProblem(kubeconfig);
  if (problem === undefined) return 'valid';
  if (!bootstrapKubeconfig)
    throw new Error(`kubeconfig ${kubeconfig}: ${problem}, and no bootstrap kubeconfig is given`);
  log.info({ kubeconfig, reason: problem }, 'Using the bootstrap kubeconfig to get a client certificate');
  const bootstrap = new k8s.KubeConfig();
  try {
    bootstrap.loadFromFile(bootstrapKubeconfig);
  } catch (err) {
    throw new Error(`bootstrap kubeconfig ${bootstrapKubeconfig} is not usable`, { cause: err });
  }
  if (!bootstrap.getCurrentCluster())
    throw new Error(`bootstrap kubeconfig ${bootstrapKubeconfig} has no current cluster`);
  const currentFile = join(certDir, CLIENT_CURRENT_FILE);
  const kept = await readFile(currentFile, 'utf8').then(
    (pem) => {
      try {
        const issued = parseIssued(pem, nodeName);
        return issued.notAfter > Date.now() ? issued : undefined;
      } catch {
        return undefined;
      }
    },
    () => undefined,
  );
  if (kept) {
    log.info({ certificate: currentFile }, 'Reusing the kubelet client certificate issued earlier');
    await writeNodeKubeconfig(kubeconfig, bootstrap, currentFile);
    return 'reused';
  }

  await mkdir(certDir, { recursive: true, mode: 0o700 });
  const { keys, keyPem } = await newKeyPair();
  await writeSecret(join(certDir, PENDING_KEY_FILE), keyPem);
  // An ECDSA key: no key encipherment (kube's kubelet asks for it only for RSA keys).
  const { name, certPem } = await requestCertificate(bootstrap.makeApiClient(k8s.CertificatesV1Api), {
    requestPem: await kubeletClientRequest(keys, nodeName),
    signerName: KUBELET_CLIENT_SIGNER,
    usages: ['digital signature', 'client auth'],
    generateName: 'node-csr-',
    pollMs: options.pollMs,
    signal: options.signal,
    log,
    what: 'kubelet client certificate',
  });
  const issued = parseIssued(`${certPem.trimEnd()}\n${keyPem}`, nodeName);
  await writeSecret(currentFile, `${issued.certPem.trimEnd()}\n${keyPem}`);
  await rm(join(certDir, PENDING_KEY_FILE), { force: true });
  await writeNodeKubeconfig(kubeconfig, bootstrap, currentFile);
  log.info(
    { csr: name, kubeconfig, notAfter: new Date(issued.notAfter).toISOString() },
    'Kubelet client certificate issued',
  );
  return { requested: name };
}

/** Why a kubeconfig cannot be used as is (missing, unreadable, its client certificate expired); undefined if it can. */
async function kubeconfigProblem(path: string): Promise<string | undefined> {
  const config = new k8s.KubeConfig();
  try {
    config.loadFromFile(path);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT'
      ? 'it does not exist'
      : `it is not readable (${(err as Error).message})`;
  }
  if (!config.getCurrentCluster()) return 'it has no current cluster';
  const user = config.getCurrentUser();
  let certPem: string | undefined;
  try {
    certPem = user?.certData
      ? Buffer.from(user.certData, 'base64').toString('utf8')
      : user?.certFile
        ? await readFile(user.certFile, 'utf8')
        : undefined;
  } catch {
    return `its client certificate ${user?.certFile} is missing`;
  }
  if (certPem === undefined) return undefined; // token or other credentials: used as they are
  try {
    // The first certificate of the file (kube keeps certificate and key in one file).
    const first = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/.exec(certPem)?.[0] ?? certPem;
    if (Date.parse(new X509Certificate(first).validTo) <= Date.now()) return 'its client certificate has expired';
  } catch {
    return 'its client certificate is not a certificate';
  }
  return undefined;
}

/** The kubeconfig kube's kubelet writes after a bootstrap: the bootstrap's server and CA, the certificate file. */
async function writeNodeKubeconfig(path: string, bootstrap: k8s.KubeConfig, certFile: string): Promise<void> {
  const cluster = bootstrap.getCurrentCluster()!;
  const caData =
    cluster.caData ?? (cluster.caFile ? Buffer.from(await readFile(cluster.caFile)).toString('base64') : undefined);
  const fromKubeconfig = relative(dirname(resolve(path)), certFile);
  const certPath = !fromKubeconfig.startsWith('..') && !isAbsolute(fromKubeconfig) ? fromKubeconfig : resolve(certFile);
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name: 'default-cluster',
        cluster: {
          server: cluster.server,
          ...(caData ? { 'certificate-authority-data': caData } : {}),
          ...(cluster.skipTLSVerify ? { 'insecure-skip-tls-verify': true } : {}),
        },
      },
    ],
    contexts: [
      { name: 'default-context', context: { cluster: 'default-cluster', namespace: 'default', user: 'default-auth' } },
    ],
    'current-context': 'default-context',
    users: [{ name: 'default-auth', user: { 'client-certificate': certPath, 'client-key': certPath } }],
  };
  await mkdir(dirname(resolve(path)), { recursive: true });
  await writeSecret(path, stringify(config));
}
