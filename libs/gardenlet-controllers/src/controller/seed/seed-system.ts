// The seed cluster behind the seed flows' `SeedSystem`: server-side applies with the gardenlet's field manager,
// the CRDs read from the vendored Gardener CRD files, gardener-resource-manager rendered from its chart with helm;
// for the deletion: deletes (CRDs confirmed first, as Gardener's deletion protection wants), waits and the checks.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { Annotations } from '@gardener-ts/api';
import {
  gvkOf,
  isNotFound,
  kind,
  Kinds,
  NoKindMatchError,
  type ApiClient,
  type KubernetesObject,
} from '@gardener-ts/controller-runtime';
import type { HelmRenderer } from '../../charts/helm.js';
import { FIELD_MANAGER, GARDEN_NAMESPACE } from '../../constants.js';
import { withEtcdCRD } from '../etcd/crd.js';
import { resourceManagerValues, seedCRDs } from './components.js';
import { ManagedResourceKind } from '../seedcare/reconciler.js';

const GardenKind = kind('operator.gardener.cloud/v1alpha1', 'Garden');
const GardenSeedKind = kind('core.gardener.cloud/v1beta1', 'Seed');
/** Not served by the cluster (an unknown kind) or not there. */
const absent = (err: unknown) => err instanceof NoKindMatchError || isNotFound(err);
import type { SeedSystem } from './flow.js';

export interface SeedSystemOptions {
  /** Live client of the seed cluster. */
  seed: ApiClient;
  /** Directories with CRD YAML files (Gardener's vendored CRDs). */
  crdDirs: readonly string[];
  helm: HelmRenderer;
  /** Image of the seed's gardener-resource-manager (chart default: gardener-ts/resource-manager:<appVersion>). */
  resourceManagerImage?: { repository?: string; tag?: string };
}

/** Reads every CRD document of the YAML files in `dirs` (not recursive). */
export async function readCRDFiles(dirs: readonly string[]): Promise<KubernetesObject[]> {
  const out: KubernetesObject[] = [];
  for (const dir of dirs) {
    const files = (await readdir(dir)).filter((f) => f.endsWith('.yaml') || f.endsWith('.yml')).sort();
    for (const file of files) {
      for (const doc of parseAllDocuments(await readFile(join(dir, file), 'utf8'))) {
        const obj = doc.toJSON() as KubernetesObject | null;
        if (obj?.kind === 'CustomResourceDefinition') out.push(obj);
      }
    }
  }
  return out;
}

/** `SeedSystem` on a real seed cluster. */
export class ClusterSeedSystem implements SeedSystem {
  private crdCache?: Promise<KubernetesObject[]>;

  constructor(private readonly options: SeedSystemOptions) {}

  async kubernetesVersion(): Promise<string> {
    const version = await this.options.seed.transport.request<{ gitVersion?: string }>({
      method: 'GET',
      path: '/version',
    });
    return version.gitVersion ?? '';
  }

  async apply(objects: readonly KubernetesObject[], signal?: AbortSignal): Promise<void> {
    const seed = this.options.seed;
    for (const object of objects) {
      if (signal?.aborted) throw signal.reason;
      const obj = structuredClone(object);
      const mapping = await seed.mapping(gvkOf(obj));
      if (mapping.namespaced)
        obj.metadata = { ...obj.metadata, namespace: obj.metadata?.namespace ?? GARDEN_NAMESPACE };
      await seed.apply(obj, { fieldManager: FIELD_MANAGER, force: true });
    }
  }

  crds(): Promise<KubernetesObject[]> {
    // etcd-druid's Etcd CRD is not among Gardener's vendored CRDs: ours is added (controller/etcd/crd.ts).
    this.crdCache ??= readCRDFiles(this.options.crdDirs).then((crds) => withEtcdCRD(seedCRDs(crds)));
    this.crdCache.catch(() => (this.crdCache = undefined));
    return this.crdCache;
  }

  async checkEstablished(names: readonly string[]): Promise<void> {
    const pending: string[] = [];
    for (const name of names) {
      const crd = (await this.options.seed.get(Kinds.CustomResourceDefinition, { name })) as {
        status?: { conditions?: { type: string; status: string }[] };
      };
      if (!crd.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True')) pending.push(name);
    }
    if (pending.length > 0) throw new Error(`CustomResourceDefinitions not established yet: ${pending.join(', ')}`);
  }

  resourceManager(): Promise<KubernetesObject[]> {
    return this.options.helm.render(
      'resource-manager',
      'gardener-resource-manager',
      GARDEN_NAMESPACE,
      resourceManagerValues(this.options.resourceManagerImage),
    );
  }

  async isGarden(seedName: string, seedUID: string): Promise<boolean> {
    const seed = this.options.seed;
    try {
      if ((await seed.list(GardenKind, { limit: 1 })).items.length > 0) return true;
    } catch (err) {
      if (!absent(err)) throw err;
    }
    try {
      return (await seed.get(GardenSeedKind, { name: seedName })).metadata?.uid === seedUID;
    } catch (err) {
      if (absent(err)) return false;
      throw err;
    }
  }

  async delete(objects: readonly KubernetesObject[], signal?: AbortSignal): Promise<void> {
    const seed = this.options.seed;
    for (const obj of objects) {
      if (signal?.aborted) throw signal.reason;
      const k = kind(obj.apiVersion ?? 'v1', obj.kind ?? '');
      const key = await this.keyOf(obj);
      try {
        if (obj.kind === 'CustomResourceDefinition') {
          await seed.patch(k, key, {
            type: 'merge',
            patch: { metadata: { annotations: { [Annotations.ConfirmationDeletion]: 'true' } } },
          });
        }
        await seed.delete(k, key);
      } catch (err) {
        if (!absent(err)) throw err;
      }
    }
  }

  async checkGone(objects: readonly KubernetesObject[]): Promise<void> {
    const left: string[] = [];
    for (const obj of objects) {
      const key = await this.keyOf(obj);
      try {
        await this.options.seed.get(kind(obj.apiVersion ?? 'v1', obj.kind ?? ''), key);
        left.push(`${obj.kind} ${key.namespace ? `${key.namespace}/` : ''}${key.name}`);
      } catch (err) {
        if (!absent(err)) throw err;
      }
    }
    if (left.length > 0) throw new Error(`still waiting for the deletion of ${left.join(', ')}`);
  }

  async seedManagedResources(): Promise<string[]> {
    try {
      const list = await this.options.seed.list(ManagedResourceKind);
      return list.items
        .filter((mr) => (mr as { spec?: { class?: string } }).spec?.class === 'seed')
        .map((mr) => `${mr.metadata?.namespace}/${mr.metadata?.name}`);
    } catch (err) {
      if (absent(err)) return [];
      throw err;
    }
  }

  private async keyOf(obj: KubernetesObject): Promise<{ namespace?: string; name: string }> {
    const name = obj.metadata?.name ?? '';
    try {
      const mapping = await this.options.seed.mapping(gvkOf(obj));
      return mapping.namespaced ? { namespace: obj.metadata?.namespace ?? GARDEN_NAMESPACE, name } : { name };
    } catch (err) {
      // A kind the cluster no longer serves (its CRD is gone): nothing of it is left.
      if (err instanceof NoKindMatchError) return { name };
      throw err;
    }
  }
}
