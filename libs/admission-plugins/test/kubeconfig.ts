// Kubeconfigs the integration tests use to act as someone else against the same test API server.
import { writeFile } from 'node:fs/promises';
import { KubeConfig } from '@kubernetes/client-node';

/** A kubeconfig for the same API server that authenticates with a bearer token. */
export async function tokenKubeconfig(admin: string, token: string, file: string): Promise<string> {
  const kc = new KubeConfig();
  kc.loadFromFile(admin);
  const cluster = kc.getCurrentCluster()!;
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'c', cluster: { server: cluster.server, 'certificate-authority-data': cluster.caData } }],
    users: [{ name: 'u', user: { token } }],
    contexts: [{ name: 'c', context: { cluster: 'c', user: 'u' } }],
    'current-context': 'c',
  };
  await writeFile(file, JSON.stringify(config), { mode: 0o600 });
  return file;
}
