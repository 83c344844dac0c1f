// CustomResourceDefinitions for a test cluster: given as objects or as YAML/JSON files and directories (searched
// recursively), created in the API server, and waited for until every one is Established, as envtest does.
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  ApiextensionsV1Api,
  loadYaml,
  type KubeConfig,
  type V1CustomResourceDefinition,
} from '@kubernetes/client-node';
import { waitFor } from '@gardener-ts/test-support';

export type CrdSource = object | string;

export async function loadCrds(sources: readonly CrdSource[]): Promise<V1CustomResourceDefinition[]> {
  const crds: V1CustomResourceDefinition[] = [];
  for (const source of sources) {
    if (typeof source === 'string') crds.push(...(await crdsFromPath(source)));
    // Through the client's deserializer, like YAML files, so every CRD reaches the API in the client's model form.
    else crds.push(checkCrd(loadYaml(JSON.stringify(checkCrd(source, 'an object'))), 'an object'));
  }
  return crds;
}

async function crdsFromPath(path: string): Promise<V1CustomResourceDefinition[]> {
  const info = await stat(path).catch((err: NodeJS.ErrnoException) => {
    throw new Error(`CRD path ${path}: ${err.code === 'ENOENT' ? 'does not exist' : err.message}`);
  });
  if (info.isDirectory()) {
    const entries = (await readdir(path, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
    const nested = await Promise.all(
      entries
        .filter((e) => e.isDirectory() || /\.(ya?ml|json)$/.test(e.name))
        .map((e) => crdsFromPath(join(path, e.name))),
    );
    return nested.flat();
  }
  // Split at document markers ourselves: client-node's loadAllYaml fails on the empty documents "---" leaves behind.
  const documents = (await readFile(path, 'utf8')).split(/^---[ \t]*$/m);
  const crds: V1CustomResourceDefinition[] = [];
  for (const [i, text] of documents.entries()) {
    if (text.replace(/#.*$/gm, '').trim() === '') continue;
    let value: unknown;
    try {
      value = loadYaml(text);
    } catch (err) {
      throw new Error(`${path}: document ${i + 1} is not valid YAML: ${(err as Error).message}`);
    }
    crds.push(checkCrd(value, `${path} (document ${i + 1})`));
  }
  return crds;
}

function checkCrd(value: unknown, where: string): V1CustomResourceDefinition {
  const crd = value as V1CustomResourceDefinition;
  if (crd?.apiVersion !== 'apiextensions.k8s.io/v1' || crd.kind !== 'CustomResourceDefinition' || !crd.metadata?.name) {
    throw new Error(`${where} is not an apiextensions.k8s.io/v1 CustomResourceDefinition with a name`);
  }
  return crd;
}

/** Creates the CRDs and resolves once the API server reports each of them Established. */
export async function installCrds(
  kubeConfig: KubeConfig,
  crds: readonly V1CustomResourceDefinition[],
  timeoutMs = 30_000,
): Promise<void> {
  if (crds.length === 0) return;
  const api = kubeConfig.makeApiClient(ApiextensionsV1Api);
  await Promise.all(crds.map((body) => api.createCustomResourceDefinition({ body })));
  const wanted = new Set(crds.map((crd) => crd.metadata!.name!));
  await waitFor(
    `CRDs to be Established: ${[...wanted].join(', ')}`,
    async () => {
      const list = await api.listCustomResourceDefinition();
      for (const crd of list.items) {
        if (crd.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True'))
          wanted.delete(crd.metadata!.name!);
      }
      return wanted.size === 0;
    },
    { timeoutMs, intervalMs: 10 },
  );
}
