// An ApiClient that reaches the test cluster through a TcpProxy, so a test can cut it off from the API server.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TestCluster } from '@gardener-ts/testing';
import { ApiClient } from '../../src/index.js';
import { TcpProxy } from '../tcp-proxy.js';

export async function proxiedClient(cluster: TestCluster): Promise<{ client: ApiClient; proxy: TcpProxy }> {
  const proxy = await TcpProxy.start(cluster.server.port);
  const kubeconfig = join(cluster.dir, `stage-b-proxied-${proxy.port}.kubeconfig`);
  await writeFile(
    kubeconfig,
    (await readFile(cluster.kubeconfigPath, 'utf8')).replaceAll(cluster.server.url, `https://127.0.0.1:${proxy.port}`),
  );
  return { client: await ApiClient.create(kubeconfig), proxy };
}
