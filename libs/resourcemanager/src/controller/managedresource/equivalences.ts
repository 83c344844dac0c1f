// Cross-API-group equivalences (Gardener's equivalences.go/objectindex.go): GroupKinds that are the same object served
// in another group, e.g. extensions/Ingress and networking.k8s.io/Ingress. When an object listed in `.status.resources`
// reappears in the Secrets under an equivalent GroupKind, the old entry counts as found, so it is not deleted as stale.

export interface GroupKind {
  group: string;
  kind: string;
}

export interface ObjectRef {
  apiVersion?: string;
  kind?: string;
  namespace?: string;
  name?: string;
}

export const groupOf = (apiVersion: string | undefined) => (apiVersion?.includes('/') ? apiVersion.split('/')[0] : '');

const gkKey = (gk: GroupKind) => `${gk.group}/${gk.kind}`;

/** Objects are identified by group, kind, namespace and name: a new version of the same kind is the same object. */
export function objectKey(
  group: string,
  kind: string | undefined,
  namespace: string | undefined,
  name: string | undefined,
): string {
  return `${group}/${kind}/${namespace ?? ''}/${name}`;
}

export const refKey = (r: ObjectRef) => objectKey(groupOf(r.apiVersion), r.kind, r.namespace, r.name);

const sameKindIn = (kind: string, ...groups: string[]): GroupKind[] => groups.map((group) => ({ group, kind }));

/** Always on, whatever the ManagedResource says (Gardener's defaults). */
export const DEFAULT_EQUIVALENCES: GroupKind[][] = [
  sameKindIn('Deployment', 'extensions', 'apps'),
  sameKindIn('DaemonSet', 'extensions', 'apps'),
  sameKindIn('ReplicaSet', 'extensions', 'apps'),
  sameKindIn('StatefulSet', 'extensions', 'apps'),
  sameKindIn('Ingress', 'extensions', 'networking.k8s.io'),
  sameKindIn('NetworkPolicy', 'extensions', 'networking.k8s.io'),
];

/** Which GroupKinds are equivalent to which: the defaults plus a ManagedResource's `.spec.equivalences`. */
export class Equivalences {
  private readonly sets = new Map<string, Map<string, GroupKind>>();

  constructor(additional: readonly (readonly GroupKind[])[] = []) {
    for (const list of [...DEFAULT_EQUIVALENCES, ...additional]) this.add(list);
  }

  /** A list joins the set of the first of its GroupKinds that already has one (as Gardener does), else a new set. */
  private add(list: readonly GroupKind[]): void {
    let set: Map<string, GroupKind> | undefined;
    for (const gk of list) {
      set = this.sets.get(gkKey(gk));
      if (set) break;
    }
    set ??= new Map();
    for (const gk of list) {
      set.set(gkKey(gk), { group: gk.group, kind: gk.kind });
      this.sets.set(gkKey(gk), set);
    }
  }

  /** The GroupKinds equivalent to `gk` (itself included), empty when it has none. */
  equivalentTo(gk: GroupKind): GroupKind[] {
    return [...(this.sets.get(gkKey(gk))?.values() ?? [])];
  }

  /** The keys `ref` would have under each equivalent GroupKind. */
  equivalentKeys(ref: ObjectRef): string[] {
    return this.equivalentTo({ group: groupOf(ref.apiVersion), kind: ref.kind ?? '' }).map((gk) =>
      objectKey(gk.group, gk.kind, ref.namespace, ref.name),
    );
  }
}

/** The references of `.status.resources`, looked up by the objects of this reconciliation; the rest is stale. */
export class ObjectIndex<R extends ObjectRef> {
  private readonly index = new Map<string, R>();
  private readonly found = new Set<string>();

  constructor(
    references: readonly R[],
    private readonly equivalences?: Equivalences,
  ) {
    for (const r of references) this.index.set(refKey(r), r);
  }

  /** The old reference of `ref` (same GroupKind first, then an equivalent one); marks it as found. */
  lookup(ref: ObjectRef): R | undefined {
    for (const key of [refKey(ref), ...(this.equivalences?.equivalentKeys(ref) ?? [])]) {
      const old = this.index.get(key);
      if (old) {
        this.found.add(key);
        return old;
      }
    }
    return undefined;
  }

  /** References no object of this reconciliation was found for. */
  notFound(): R[] {
    return [...this.index].filter(([key]) => !this.found.has(key)).map(([, r]) => r);
  }
}
