// gardener-node-agent's own bootstrap (Gardener's `getRESTConfig` with the node-agent authorizer's credentials, and
// `RequestAndStoreKubeconfig`): on a node without node-agent's kubeconfig, the bootstrap token from the user data
// (`/var/lib/gardener-node-agent/credentials/bootstrap-token`) authenticates a CertificateSigningRequest for signer
// `kubernetes.io/kube-apiserver-client` with subject `CN=gardener.cloud:node-agent:machine:<machine>,
// O=gardener.cloud:node-agents` (the machine name from `/var/lib/gardener-node-agent/machine-name`); once the shoot's
// gardener-resource-manager approved it and the API server signed it, node-agent writes its kubeconfig with that
// client certificate to `/var/lib/gardener-node-agent/credentials/kubeconfig`. Keys come from WebCrypto (ECDSA P-256).
import { webcrypto } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import * as x509 from '@peculiar/x509';
import { KubeConfig } from '@kubernetes/client-node';
import { stringify } from 'yaml';
import { ApiClient, kind, pollDelays, type KubernetesObject } from '@gardener-ts/controller-runtime';
import type { Logger } from '@gardener-ts/logging';
import { nodePath } from '../units/paths.js';
import { BootstrapTokenFilePath, type NodeAgentApiServer } from './kubelet.js';

/** Where the machine's name is on a Gardener node (the `<<MACHINE_NAME>>` placeholder of the user data, replaced). */
export const MachineNameFilePath = '/var/lib/gardener-node-agent/machine-name';
/** The group and user name prefix of gardener-node-agents (Gardener's constants). */
export const NodeAgentsGroup = 'gardener.cloud:node-agents';
export const NodeAgentUserNamePrefix = 'gardener.cloud:node-agent:machine:';
/** The placeholder of the machine name in user data (machine-controller-manager's). */
export const MachineNamePlaceholder = '<<MACHINE_NAME>>';

const ALG = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

interface CSRObject extends KubernetesObject {
  spec?: { request?: string; signerName?: string; usages?: string[]; expirationSeconds?: number };
  status?: {
    certificate?: string;
    conditions?: { type?: string; status?: string; reason?: string; message?: string }[];
  };
}
const CSRKind = kind<CSRObject>('certificates.k8s.io/v1', 'CertificateSigningRequest');

/** A new key and PKCS#10 request for the node-agent of `machineName`. */
export async function nodeAgentCertificateRequest(machineName: string): Promise<{ csrPem: string; keyPem: string }> {
  const keys = (await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const csr = await x509.Pkcs10CertificateRequestGenerator.create({
    name: `CN=${NodeAgentUserNamePrefix}${machineName}, O=${NodeAgentsGroup}`,
    keys: keys as unknown as Parameters<typeof x509.Pkcs10CertificateRequestGenerator.create>[0]['keys'],
    signingAlgorithm: ALG,
  });
  const pkcs8 = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey);
  return { csrPem: csr.toString('pem'), keyPem: x509.PemConverter.encode(pkcs8, 'PRIVATE KEY') };
}

/** node-agent's kubeconfig with its client certificate (Gardener names cluster, user and context `node-agent`). */
export function nodeAgentKubeconfig(apiServer: NodeAgentApiServer, certPem: string, keyPem: string): string {
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name: 'node-agent',
        cluster: {
          server: apiServer.server,
          ...(apiServer.caBundle ? { 'certificate-authority-data': apiServer.caBundle } : {}),
        },
      },
    ],
    contexts: [{ name: 'node-agent', context: { cluster: 'node-agent', user: 'node-agent' } }],
    'current-context': 'node-agent',
    users: [{ name: 'node-agent', user: { 'client-certificate-data': b64(certPem), 'client-key-data': b64(keyPem) } }],
  });
}

/** Options of {@link bootstrapNodeAgentKubeconfig}. */
export interface NodeAgentBootstrapOptions {
  /** The machine's root directory. */
  rootDir: string;
  /** Where the kubeconfig goes (node path). */
  kubeconfigPath: string;
  apiServer: NodeAgentApiServer;
  log: Logger;
  signal?: AbortSignal;
  /** How often the CSR is read at most while waiting for its certificate (from 100 ms, doubling); 1 s by default. */
  pollMs?: number;
}

/**
 * Requests node-agent's client certificate with the bootstrap token and writes its kubeconfig; see the file header.
 * Throws when the node has no bootstrap token or machine name, or the CSR is denied or fails.
 */
export async function bootstrapNodeAgentKubeconfig(options: NodeAgentBootstrapOptions): Promise<void> {
  const { rootDir, apiServer, log } = options;
  const read = async (path: string) => {
    try {
      return (await readFile(nodePath(rootDir, path), 'utf8')).trim();
    } catch (err) {
      throw new Error(`unable to bootstrap gardener-node-agent: ${path} cannot be read`, { cause: err });
    }
  };
  const token = await read(BootstrapTokenFilePath);
  const machineName = await read(MachineNameFilePath);
  if (!machineName || machineName === MachineNamePlaceholder) {
    throw new Error(`unable to bootstrap gardener-node-agent: ${MachineNameFilePath} names no machine`);
  }
  log.info(
    { path: BootstrapTokenFilePath },
    'Kubeconfig file does not exist, using the bootstrap token to request a certificate',
  );

  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [
      {
        name: 'bootstrap',
        server: apiServer.server,
        ...(apiServer.caBundle ? { caData: apiServer.caBundle } : {}),
        skipTLSVerify: false,
      },
    ],
    users: [{ name: 'bootstrap', token }],
    contexts: [{ name: 'bootstrap', cluster: 'bootstrap', user: 'bootstrap' }],
    currentContext: 'bootstrap',
  });
  const client = await ApiClient.create(kc);
  try {
    const { csrPem, keyPem } = await nodeAgentCertificateRequest(machineName);
    const created = await client.create<CSRObject>({
      apiVersion: 'certificates.k8s.io/v1',
      kind: 'CertificateSigningRequest',
      metadata: { generateName: 'node-agent-csr-' },
      spec: {
        request: Buffer.from(csrPem).toString('base64'),
        signerName: 'kubernetes.io/kube-apiserver-client',
        usages: ['digital signature', 'key encipherment', 'client auth'],
        expirationSeconds: 720 * 3600,
      },
    });
    const name = created.metadata!.name!;
    log.info(
      { csr: name, machine: machineName },
      'Requested the gardener-node-agent client certificate; waiting for approval',
    );
    let certPem: string | undefined;
    // Read soon after the request (the approver and the signer answer within a fraction of a second), then at most
    // every `pollMs`.
    const delays = pollDelays(options.pollMs ?? 1000);
    while (!certPem) {
      options.signal?.throwIfAborted();
      const csr = await client.get(CSRKind, { name });
      if (csr.status?.certificate) {
        certPem = Buffer.from(csr.status.certificate, 'base64').toString('utf8');
        break;
      }
      const final = csr.status?.conditions?.find(
        (c) => (c.type === 'Denied' || c.type === 'Failed') && c.status !== 'False',
      );
      if (final) {
        throw new Error(
          `certificate signing request ${name} is ${final.type?.toLowerCase()}: ${final.reason ?? ''} ${final.message ?? ''}`.trim(),
        );
      }
      await new Promise((resolve) => setTimeout(resolve, delays.next().value));
    }
    const target = nodePath(rootDir, options.kubeconfigPath);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, nodeAgentKubeconfig(apiServer, certPem, keyPem), { mode: 0o600 });
    log.info({ path: options.kubeconfigPath }, 'Wrote the gardener-node-agent kubeconfig');
  } finally {
    client.close();
  }
}
