// The order in which a ManagedResource's objects are applied and deleted. Applying: CRDs and Namespaces first, so
// that the objects in them can be created in the same pass. Deleting: in waves, each waiting for the previous one to
// be gone — everything else first (workloads, custom resources, ...), then Namespaces, then CRDs last, so no
// custom resource loses its definition and no Namespace is torn down under objects that are still being finalized.

export interface GroupKindRef {
  apiVersion?: string;
  kind?: string;
}

const groupOf = (apiVersion: string | undefined) => (apiVersion?.includes('/') ? apiVersion.split('/')[0] : '');

const isCRD = (r: GroupKindRef) =>
  groupOf(r.apiVersion) === 'apiextensions.k8s.io' && r.kind === 'CustomResourceDefinition';
const isNamespace = (r: GroupKindRef) => groupOf(r.apiVersion) === '' && r.kind === 'Namespace';

/** 0 for CRDs, 1 for Namespaces, 2 for everything else. */
export function applyPriority(r: GroupKindRef): number {
  if (isCRD(r)) return 0;
  if (isNamespace(r)) return 1;
  return 2;
}

/** 0 for most objects, 1 for Namespaces, 2 for CRDs. */
export function deletionWave(r: GroupKindRef): number {
  if (isCRD(r)) return 2;
  if (isNamespace(r)) return 1;
  return 0;
}

/** Groups references into deletion waves, in order; empty waves are left out. */
export function deletionWaves<T extends GroupKindRef>(refs: readonly T[]): T[][] {
  const waves: T[][] = [[], [], []];
  for (const r of refs) waves[deletionWave(r)].push(r);
  return waves.filter((w) => w.length > 0);
}

/** Objects sorted for applying (stable within a priority). */
export function sortForApply<T extends GroupKindRef>(objects: readonly T[]): T[] {
  return objects
    .map((o, i) => ({ o, i }))
    .sort((a, b) => applyPriority(a.o) - applyPriority(b.o) || a.i - b.i)
    .map((x) => x.o);
}

/** API groups whose objects are deleted with foreground propagation (their dependents go first). */
export const FOREGROUND_DELETION_GROUPS = new Set(['apps', 'extensions', 'batch']);
export function deletionPropagation(r: GroupKindRef): 'Foreground' | undefined {
  return FOREGROUND_DELETION_GROUPS.has(groupOf(r.apiVersion)) ? 'Foreground' : undefined;
}
