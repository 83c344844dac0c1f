// Kubeconfig files for the local cluster (admin and component users), in the format kubectl reads.
import { stringify } from 'yaml';

export interface KubeconfigUser {
  name: string;
  clientCertificatePem?: string;
  clientKeyPem?: string;
  token?: string;
}

export function kubeconfig(clusterName: string, server: string, caPem: string, user: KubeconfigUser): string {
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: clusterName, cluster: { server, 'certificate-authority-data': b64(caPem) } }],
    users: [
      {
        name: user.name,
        user: {
          ...(user.clientCertificatePem ? { 'client-certificate-data': b64(user.clientCertificatePem) } : {}),
          ...(user.clientKeyPem ? { 'client-key-data': b64(user.clientKeyPem) } : {}),
          ...(user.token ? { token: user.token } : {}),
        },
      },
    ],
    contexts: [{ name: clusterName, context: { cluster: clusterName, user: user.name } }],
    'current-context': clusterName,
    preferences: {},
  });
}
