// Two local API servers (source with the ManagedResource CRD, target without) and the built resource-manager
// started on them with Gardener's example configuration, plus helpers the end-to-end tests share.
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import { ApiClient, isNotFound, kind, type Kind, type KubernetesObject } from '@gardener-ts/controller-runtime';
import {
  appBundle,
  gardenerAsset,
  runKubectl,
  startProcess,
  startTestEnvironment,
  waitFor,
  type RunningProcess,
  type TestEnvironment,
} from '@gardener-ts/testing';

export const MR = kind<KubernetesObject & { spec?: any; status?: any }>(
  'resources.gardener.cloud/v1alpha1',
  'ManagedResource',
);
export const ConfigMapK = kind<KubernetesObject & { data?: Record<string, string> }>('v1', 'ConfigMap');
export const SecretK = kind<KubernetesObject & { data?: Record<string, string> }>('v1', 'Secret');
export const DeploymentK = kind<KubernetesObject & { spec?: any; status?: any }>('apps/v1', 'Deployment');
export const NamespaceK = kind('v1', 'Namespace');
export const PodK = kind<KubernetesObject & { spec?: any }>('v1', 'Pod');

export interface Landscape {
  source: TestEnvironment;
  target: TestEnvironment;
  src: ApiClient;
  tgt: ApiClient;
  configPath: string;
  app?: RunningProcess;
  start(): Promise<void>;
  stop(): Promise<void>;
}

const fixture = fileURLToPath(new URL('./fixtures/config.yaml', import.meta.url));

/** Gardener's example config with the two kubeconfigs and test-friendly periods filled in. */
export async function startLandscape(overrides: (config: any) => void = () => undefined): Promise<Landscape> {
  const [source, target] = await Promise.all([
    startTestEnvironment({ crds: [gardenerAsset('crds', '10-crd-resources.gardener.cloud_managedresources.yaml')] }),
    startTestEnvironment(),
  ]);
  const config = YAML.parse(await readFile(fixture, 'utf8'));
  config.sourceClientConnection.kubeconfig = source.kubeconfigPath;
  config.targetClientConnection = { kubeconfig: target.kubeconfigPath };
  config.controllers.managedResource = { syncPeriod: '15s', concurrentSyncs: 5, managedByLabelValue: 'gardener' };
  config.controllers.health = { syncPeriod: '15s', concurrentSyncs: 5 };
  config.controllers.garbageCollector = { enabled: true, syncPeriod: '15s', minimumObjectLifetime: '0s' };
  overrides(config);
  const configPath = join(tmpdir(), `rm-config-${process.pid}-${Date.now()}.yaml`);
  await writeFile(configPath, YAML.stringify(config));
  const land: Landscape = {
    source,
    target,
    src: await ApiClient.create(source.kubeconfigPath),
    tgt: await ApiClient.create(target.kubeconfigPath),
    configPath,
    async start() {
      land.app = startProcess(process.execPath, [appBundle('resource-manager'), '--config', configPath]);
      await waitFor(
        'resource-manager to start',
        () => land.app!.output().includes('Resource manager started') || land.app!.child.exitCode !== null,
        { timeoutMs: 20_000 },
      );
      if (land.app.child.exitCode !== null) throw new Error(`resource-manager exited:\n${land.app.output()}`);
    },
    async stop() {
      await land.app?.stop();
      land.src.close();
      land.tgt.close();
      await Promise.all([source.stop(), target.stop()]);
    },
  };
  return land;
}

export const b64 = (s: string) => Buffer.from(s).toString('base64');

export async function getOrUndefined<T extends KubernetesObject>(
  c: ApiClient,
  k: Kind<T>,
  namespace: string | undefined,
  name: string,
): Promise<T | undefined> {
  try {
    return await c.get(k, { namespace, name });
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

export function condition(
  mr: { status?: any } | undefined,
  type: string,
): { status: string; reason: string; message: string } | undefined {
  return mr?.status?.conditions?.find((c: { type: string }) => c.type === type);
}

/** Write requests (create, update, patch, delete, deletecollection) an API server has served, from its /metrics. */
export async function writeRequests(kubeconfig: string, exclude: string[] = ['leases', 'events']): Promise<number> {
  const result = await runKubectl(kubeconfig, ['get', '--raw', '/metrics']);
  const text = result.stdout;
  let total = 0;
  for (const line of String(text).split('\n')) {
    if (!line.startsWith('apiserver_request_total{')) continue;
    const verb = /verb="([^"]*)"/.exec(line)?.[1] ?? '';
    const resource = /resource="([^"]*)"/.exec(line)?.[1] ?? '';
    if (
      !['POST', 'PUT', 'PATCH', 'DELETE', 'create', 'update', 'patch', 'delete', 'deletecollection', 'apply'].includes(
        verb,
      )
    )
      continue;
    if (exclude.includes(resource)) continue;
    total += Number(line.split(' ').pop());
  }
  return total;
}

export { waitFor };
