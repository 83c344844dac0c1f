// Kubeconfigs of the gardenlet's garden connection, as Gardener's bootstrap package builds them: the cluster (server
// and CA) taken from the bootstrap kubeconfig (or gardenClientConnection.gardenClusterAddress/-CACert), the user a
// client certificate with its key. Pure: text in, text out.
import { KubeConfig } from '@kubernetes/client-node';
import { stringify } from 'yaml';

/** The garden cluster a kubeconfig points at. */
export interface ClusterInfo {
  server: string;
  /** PEM; empty when the kubeconfig trusts the system CAs. */
  caPem: string;
  /** Only for clusters that are reached without verifying the server certificate. */
  insecureSkipTLSVerify?: boolean;
}

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const unb64 = (s: string) => Buffer.from(s, 'base64').toString('utf8');

/** Parses kubeconfig text; throws with the reason when it has no current cluster. */
export function parseKubeconfig(text: string): KubeConfig {
  const kc = new KubeConfig();
  try {
    kc.loadFromString(text);
  } catch (err) {
    throw new Error('invalid kubeconfig', { cause: err });
  }
  if (!kc.getCurrentCluster())
    throw new Error('kubeconfig has no current cluster (current-context missing or dangling)');
  return kc;
}

/** The current cluster of a kubeconfig; `caData` inline only (files are not read). */
export function clusterOf(text: string): ClusterInfo {
  const cluster = parseKubeconfig(text).getCurrentCluster()!;
  return {
    server: cluster.server,
    caPem: cluster.caData ? unb64(cluster.caData) : '',
    ...(cluster.skipTLSVerify ? { insecureSkipTLSVerify: true } : {}),
  };
}

/** The client certificate (PEM) of the current user, if the kubeconfig has one inline. */
export function clientCertificateOf(text: string): string | undefined {
  const user = parseKubeconfig(text).getCurrentUser();
  return user?.certData ? unb64(user.certData) : undefined;
}

/** A kubeconfig for `cluster` authenticating with a client certificate (context and names: `gardenlet`). */
export function certificateKubeconfig(cluster: ClusterInfo, certPem: string, keyPem: string): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    'current-context': 'gardenlet',
    clusters: [
      {
        name: 'garden',
        cluster: {
          server: cluster.server,
          ...(cluster.caPem ? { 'certificate-authority-data': b64(cluster.caPem) } : {}),
          ...(cluster.insecureSkipTLSVerify ? { 'insecure-skip-tls-verify': true } : {}),
        },
      },
    ],
    contexts: [{ name: 'gardenlet', context: { cluster: 'garden', user: 'gardenlet' } }],
    users: [{ name: 'gardenlet', user: { 'client-certificate-data': b64(certPem), 'client-key-data': b64(keyPem) } }],
  });
}

/** The garden cluster: `gardenClusterAddress`/`gardenClusterCACert` (base64 PEM, as Gardener) override the bootstrap kubeconfig's. */
export function gardenCluster(
  bootstrapKubeconfig: string,
  overrides: { gardenClusterAddress?: string; gardenClusterCACert?: string },
): ClusterInfo {
  const fromBootstrap = clusterOf(bootstrapKubeconfig);
  return {
    ...fromBootstrap,
    ...(overrides.gardenClusterAddress ? { server: overrides.gardenClusterAddress } : {}),
    ...(overrides.gardenClusterCACert ? { caPem: unb64(overrides.gardenClusterCACert) } : {}),
  };
}
