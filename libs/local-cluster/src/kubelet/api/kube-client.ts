// The kubelet's API clients, built from one kubeconfig.
import * as k8s from '@kubernetes/client-node';

export interface KubeClients {
  config: k8s.KubeConfig;
  core: k8s.CoreV1Api;
  coordination: k8s.CoordinationV1Api;
  /** The API server's URL, for programs that talk to it (KUBERNETES_SERVICE_HOST/PORT). */
  server: URL;
}

export function kubeClients(kubeconfig: string | k8s.KubeConfig): KubeClients {
  let config = kubeconfig as k8s.KubeConfig;
  if (typeof kubeconfig === 'string') {
    config = new k8s.KubeConfig();
    config.loadFromFile(kubeconfig);
  }
  const cluster = config.getCurrentCluster();
  if (!cluster) throw new Error('kubeconfig has no current cluster');
  return {
    config,
    core: config.makeApiClient(k8s.CoreV1Api),
    coordination: config.makeApiClient(k8s.CoordinationV1Api),
    server: new URL(cluster.server),
  };
}

export const MERGE_PATCH = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);

export function statusCode(err: unknown): number | undefined {
  return err instanceof k8s.ApiException ? err.code : undefined;
}

export const isNotFound = (err: unknown) => statusCode(err) === 404;
export const isConflict = (err: unknown) => statusCode(err) === 409;
