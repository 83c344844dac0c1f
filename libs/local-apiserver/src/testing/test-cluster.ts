// An in-process local API server for a test file, like envtest: a fresh cluster with an admin kubeconfig on disk.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalApiServer, type LocalApiServerOptions } from '../server/apiserver.js';

export interface TestCluster {
  server: LocalApiServer;
  /** Path of an admin kubeconfig file. */
  kubeconfigPath: string;
  dir: string;
  stop(): Promise<void>;
}

export async function startTestCluster(options: LocalApiServerOptions = {}): Promise<TestCluster> {
  const dir = await mkdtemp(join(tmpdir(), 'gardener-ts-test-'));
  const server = await LocalApiServer.start({ storage: 'memory', ...options });
  const kubeconfigPath = server.kubeconfigPath ?? join(dir, 'kubeconfig');
  if (!server.kubeconfigPath) await writeFile(kubeconfigPath, server.kubeconfig, { mode: 0o600 });
  return {
    server,
    kubeconfigPath,
    dir,
    async stop() {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
