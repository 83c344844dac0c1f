// The deletion of a Seed (Gardener's pkg/gardenlet/controller/seed/seed/reconciler_delete.go), the parts gardener-ts
// deploys: who still holds on to the seed (Shoots, BackupBuckets, ControllerInstallations, as pure functions), and the
// "Seed deletion" flow — once no ControllerInstallation is left, the machine, extension and etcd CRDs, then the system
// resources (the PriorityClasses), then, once no ManagedResource of class `seed` is left, the seed's
// gardener-resource-manager. The namespace `garden` is never deleted (Gardener keeps it: the gardenlet runs there).
// When the seed cluster is also the garden cluster, what Gardener leaves to gardener-operator stays too.
import { Graph, type Flow } from '@gardener-ts/flow';
import type { KubernetesObject } from '@gardener-ts/controller-runtime';
import { priorityClasses } from './components.js';
import type { SeedSystem } from './flow.js';

/** How long the gardenlet waits before it looks again for Shoots on a Seed being deleted (Gardener: a minute). */
export const REQUEUE_SHOOTS_MS = 60_000;
/** How long the gardenlet waits before it looks again for BackupBuckets of a Seed being deleted (Gardener: 5 s). */
export const REQUEUE_BACKUP_BUCKETS_MS = 5_000;
/** The reason of the Event naming what still references a Seed being deleted (Gardener's `ResourceReferenced`). */
export const EventResourceReferenced = 'ResourceReferenced';
/** Gardener's opening of that Event's message. */
export const StillReferencedMessage = "Can't delete Seed, because the following objects are still referencing it:";

/** Task names of the deletion flow (Gardener's sentences). */
export const SeedDeleteTasks = {
  controllerInstallations: 'Ensuring all ControllerInstallations are gone',
  machineCRDs: 'Destroying machine-controller-manager custom resource definitions',
  extensionCRDs: 'Destroying extensions-related custom resource definitions',
  etcdCRDs: 'Destroying ETCD-related custom resource definitions',
  systemResources: 'Destroying system resources',
  managedResources: 'Ensuring all ManagedResources are gone',
  resourceManager: 'Destroying gardener-resource-manager',
} as const;

/** The API group of the CRDs each CRD task destroys. */
export const CRDGroups = {
  machine: 'machine.sapcloud.io',
  extensions: 'extensions.gardener.cloud',
  etcd: 'druid.gardener.cloud',
} as const;

interface ShootLike {
  metadata?: { namespace?: string; name?: string };
  spec?: { seedName?: string };
  status?: { seedName?: string };
}

/**
 * `namespace/name` of the Shoots scheduled on the seed (`spec.seedName`, Gardener's check) or whose control plane still
 * runs on it (`status.seedName`: a shoot migrating away until its migration is done).
 */
export function shootsAssociatedTo(shoots: readonly ShootLike[], seedName: string): string[] {
  return shoots
    .filter((s) => s.spec?.seedName === seedName || s.status?.seedName === seedName)
    .map((s) => `${s.metadata?.namespace}/${s.metadata?.name}`)
    .sort();
}

/** Names of the BackupBuckets bound to the seed (`spec.seedName`). */
export function backupBucketsAssociatedTo(
  buckets: readonly { metadata?: { name?: string }; spec?: { seedName?: string } }[],
  seedName: string,
): string[] {
  return buckets
    .filter((b) => b.spec?.seedName === seedName)
    .map((b) => b.metadata?.name ?? '')
    .sort();
}

/** Names of the ControllerInstallations of the seed (`spec.seedRef.name`). */
export function controllerInstallationsAssociatedTo(
  installations: readonly { metadata?: { name?: string }; spec?: { seedRef?: { name?: string } } }[],
  seedName: string,
): string[] {
  return installations
    .filter((i) => i.spec?.seedRef?.name === seedName)
    .map((i) => i.metadata?.name ?? '')
    .sort();
}

/** The Event message naming what still references the seed, as Gardener words it (`Shoots=[a b]`). */
export function stillReferencedMessage(what: 'Shoots' | 'BackupBuckets', names: readonly string[]): string {
  return `${StillReferencedMessage} ${what}=[${names.join(' ')}]`;
}

/** The CRDs of one API group among `crds`. */
export function crdsOfGroup(crds: readonly KubernetesObject[], group: string): KubernetesObject[] {
  return crds.filter((c) => (c as { spec?: { group?: string } }).spec?.group === group);
}

/** What the deletion flow needs besides the seed cluster. */
export interface SeedDeleteOptions {
  /** The seed cluster is also the garden cluster: CRDs and components gardener-operator would own are kept. */
  seedIsGarden: boolean;
  /** Names of the ControllerInstallations still referencing the seed (read in the garden). */
  controllerInstallations: () => Promise<string[]>;
  /** Deadline of each destroy-and-wait task (default one minute). */
  waitTimeoutMs?: number;
}

/** Builds the "Seed deletion" flow. */
export function seedDeleteFlow(system: SeedSystem, options: SeedDeleteOptions): Flow {
  const g = new Graph('Seed deletion');
  const retry = { interval: 500, timeout: options.waitTimeoutMs ?? 60_000, factor: 2, maxInterval: 5_000 };
  // Gardener's OpDestroyAndWait: delete (again, on every attempt: deleting what is gone is fine), then wait.
  const destroyAndWait =
    (objects: () => Promise<KubernetesObject[]>) =>
    async ({ signal }: { signal: AbortSignal }) => {
      const list = await objects();
      await system.delete(list, signal);
      await system.checkGone(list);
    };
  const crdsOf = (group: string) => async () => crdsOfGroup(await system.crds(), group);

  const noControllerInstallations = g.add({
    name: SeedDeleteTasks.controllerInstallations,
    fn: async () => {
      const left = await options.controllerInstallations();
      if (left.length > 0) {
        throw new Error(
          `can't continue with Seed deletion, because the following objects are still referencing it: ControllerInstallations=[${left.join(' ')}]`,
        );
      }
    },
  });
  const crds = [
    g.add({
      name: SeedDeleteTasks.machineCRDs,
      dependencies: [noControllerInstallations],
      retryUntilTimeout: retry,
      fn: destroyAndWait(crdsOf(CRDGroups.machine)),
    }),
    g.add({
      name: SeedDeleteTasks.extensionCRDs,
      dependencies: [noControllerInstallations],
      skipIf: options.seedIsGarden,
      retryUntilTimeout: retry,
      fn: destroyAndWait(crdsOf(CRDGroups.extensions)),
    }),
    g.add({
      name: SeedDeleteTasks.etcdCRDs,
      dependencies: [noControllerInstallations],
      skipIf: options.seedIsGarden,
      retryUntilTimeout: retry,
      fn: destroyAndWait(crdsOf(CRDGroups.etcd)),
    }),
  ];
  const systemResources = g.add({
    name: SeedDeleteTasks.systemResources,
    dependencies: crds,
    retryUntilTimeout: retry,
    fn: destroyAndWait(async () => priorityClasses()),
  });
  const noManagedResources = g.add({
    name: SeedDeleteTasks.managedResources,
    dependencies: [systemResources],
    skipIf: options.seedIsGarden,
    fn: async () => {
      const left = await system.seedManagedResources();
      if (left.length > 0) {
        throw new Error(
          `at least one ManagedResource still exists, cannot delete gardener-resource-manager: ${left.join(', ')}`,
        );
      }
    },
  });
  g.add({
    name: SeedDeleteTasks.resourceManager,
    dependencies: [noManagedResources],
    skipIf: options.seedIsGarden,
    retryUntilTimeout: retry,
    // The objects in reverse order: the Deployment before the RBAC it runs with.
    fn: destroyAndWait(async () => (await system.resourceManager()).reverse()),
  });
  return g.compile();
}
