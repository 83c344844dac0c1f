// Shared test fixtures: a local API server with an ApiClient, and a CRD with a status subresource.
import { afterAll, beforeAll } from 'vitest';
import { startTestCluster, waitFor, type TestCluster } from '@gardener-ts/testing';
import { ApiClient, isNotFound, kind, type ConfigMap, type KubernetesObject } from '../src/index.js';

export interface Widget extends KubernetesObject {
  spec?: { size?: number; color?: string };
  status?: { observed?: number };
}

export const WidgetKind = kind<Widget>('example.gardener-ts.io/v1', 'Widget');

export async function startClusterWithClient(
  options: Parameters<typeof startTestCluster>[0] = {},
): Promise<{ cluster: TestCluster; client: ApiClient }> {
  const cluster = await startTestCluster(options);
  const client = await ApiClient.create(cluster.kubeconfigPath);
  return { cluster, client };
}

/** One cluster and client for a whole test file: started before its tests, stopped after them. */
export function useTestCluster(): { readonly cluster: TestCluster; readonly client: ApiClient } {
  let started: { cluster: TestCluster; client: ApiClient } | undefined;
  beforeAll(async () => {
    started = await startClusterWithClient();
  });
  afterAll(async () => {
    started?.client.close();
    await started?.cluster.stop();
  });
  return {
    get cluster() {
      return started!.cluster;
    },
    get client() {
      return started!.client;
    },
  };
}

/** Creates the Widget CRD (namespaced, with a status subresource) and waits until it is served. */
export async function installWidgetCRD(client: ApiClient): Promise<void> {
  await client.create({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.gardener-ts.io' },
    spec: {
      group: 'example.gardener-ts.io',
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          subresources: { status: {} },
          schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        },
      ],
    },
  } as KubernetesObject);
  await waitFor('the Widget CRD to be served', async () => {
    try {
      await client.list(WidgetKind, { namespace: 'default', limit: 1 });
      return true;
    } catch (err) {
      if (isNotFound(err) || (err as Error).name === 'NoKindMatchError') return false;
      throw err;
    }
  });
}

export function configMap(
  name: string,
  data: Record<string, string> = {},
  labels: Record<string, string> = {},
  namespace = 'default',
): ConfigMap {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace, labels }, data };
}
