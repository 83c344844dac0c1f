// The seed reconciliation flow (Gardener's seed "main" reconciler flow, the parts gardener-ts has): check the seed's
// Kubernetes version, deploy the system namespaces, PriorityClasses and CRDs, wait for the CRDs, deploy the seed's
// own gardener-resource-manager. Tasks run on @gardener-ts/flow; the cluster is behind `SeedSystem`.
import { Graph, type Flow } from '@gardener-ts/flow';
import type { KubernetesObject } from '@gardener-ts/controller-runtime';
import { checkMinimumKubernetesVersion, priorityClasses, seedNamespaces } from './components.js';

/** The operations the flow needs on the seed cluster. */
export interface SeedSystem {
  /** `gitVersion` of the seed API server. */
  kubernetesVersion(): Promise<string>;
  /** Server-side applies the objects (namespaced ones without a namespace go to `garden`). */
  apply(objects: readonly KubernetesObject[], signal?: AbortSignal): Promise<void>;
  /** The seed CRDs to deploy. */
  crds(): Promise<KubernetesObject[]>;
  /** Throws unless every named CRD is Established. */
  checkEstablished(names: readonly string[]): Promise<void>;
  /** The rendered gardener-resource-manager of the seed. */
  resourceManager(): Promise<KubernetesObject[]>;
  /**
   * Whether the seed cluster is also the garden cluster: Gardener's check (a `Garden` of gardener-operator exists in
   * it), or it serves the garden's Seed `seedUID` itself (one API server for both, as in the local landscape).
   */
  isGarden(seedName: string, seedUID: string): Promise<boolean>;
  /** Deletes the objects (namespaced ones without a namespace in `garden`; CRDs confirmed first); gone ones are fine. */
  delete(objects: readonly KubernetesObject[], signal?: AbortSignal): Promise<void>;
  /** Throws naming those of the objects that still exist. */
  checkGone(objects: readonly KubernetesObject[]): Promise<void>;
  /** `namespace/name` of the ManagedResources of class `seed` (the seed's gardener-resource-manager's) in the seed. */
  seedManagedResources(): Promise<string[]>;
}

/** What a run found out. */
export interface SeedFlowResult {
  kubernetesVersion?: string;
}

/** Task names (Gardener-style sentences), exported for tests and progress readers. */
export const SeedTasks = {
  checkVersion: 'Checking the Kubernetes version of the seed cluster',
  namespaces: 'Deploying the seed system namespaces',
  priorityClasses: 'Deploying the PriorityClasses',
  crds: 'Deploying the seed CustomResourceDefinitions',
  waitCRDs: 'Waiting until the seed CustomResourceDefinitions are established',
  resourceManager: 'Deploying gardener-resource-manager',
} as const;

/** Builds the flow; `result` is filled while it runs. */
export function seedFlow(system: SeedSystem, result: SeedFlowResult, options: { crdTimeoutMs?: number } = {}): Flow {
  const g = new Graph('Seed cluster reconciliation');
  let crdNames: string[] = [];
  const version = g.add({
    name: SeedTasks.checkVersion,
    fn: async () => {
      result.kubernetesVersion = await system.kubernetesVersion();
      checkMinimumKubernetesVersion(result.kubernetesVersion);
    },
  });
  const namespaces = g.add({
    name: SeedTasks.namespaces,
    dependencies: [version],
    fn: ({ signal }) => system.apply(seedNamespaces(), signal),
  });
  const pcs = g.add({
    name: SeedTasks.priorityClasses,
    dependencies: [version],
    fn: ({ signal }) => system.apply(priorityClasses(), signal),
  });
  const crds = g.add({
    name: SeedTasks.crds,
    dependencies: [version],
    fn: async ({ signal }) => {
      const objects = await system.crds();
      crdNames = objects.map((o) => o.metadata!.name!);
      await system.apply(objects, signal);
    },
  });
  const established = g.add({
    name: SeedTasks.waitCRDs,
    dependencies: [crds],
    retryUntilTimeout: { interval: 500, timeout: options.crdTimeoutMs ?? 60_000, factor: 2, maxInterval: 5_000 },
    fn: () => system.checkEstablished(crdNames),
  });
  g.add({
    name: SeedTasks.resourceManager,
    dependencies: [namespaces, pcs, established],
    fn: async ({ signal }) => system.apply(await system.resourceManager(), signal),
  });
  return g.compile();
}
