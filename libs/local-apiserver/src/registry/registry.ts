// The set of resources the server serves right now: built-ins plus the versions of established CRDs.
import type { ResourceDefinition } from './types.js';

export interface GroupInfo {
  name: string;
  /** Served versions, preferred first. */
  versions: string[];
}

type Listener = () => void;

export class Registry {
  private readonly byPath = new Map<string, ResourceDefinition>();
  private readonly listeners = new Set<Listener>();
  private changeCounter = 0;

  constructor(builtins: ResourceDefinition[] = []) {
    for (const d of builtins) this.byPath.set(key(d.group, d.version, d.resource), d);
  }

  get(group: string, version: string, resource: string): ResourceDefinition | undefined {
    return this.byPath.get(key(group, version, resource));
  }

  all(): ResourceDefinition[] {
    return [...this.byPath.values()];
  }

  /** The definition for a kind in a group-version (for ownerReferences and apply by kind). */
  byKind(group: string, version: string, kind: string): ResourceDefinition | undefined {
    return this.all().find((d) => d.group === group && d.version === version && d.kind === kind);
  }

  /** Every served version of the same resource (e.g. all versions of a CRD, autoscaling v1 and v2). */
  versionsOf(group: string, resource: string): ResourceDefinition[] {
    return this.all().filter((d) => d.group === group && d.resource === resource);
  }

  /** Groups with their served versions, preferred version first; the core group is "". */
  groups(): GroupInfo[] {
    const groups = new Map<string, Set<string>>();
    for (const d of this.byPath.values()) {
      if (!d.served) continue;
      const set = groups.get(d.group) ?? new Set<string>();
      set.add(d.version);
      groups.set(d.group, set);
    }
    return [...groups.entries()].map(([name, versions]) => ({ name, versions: sortVersions([...versions]) }));
  }

  /** Replaces all definitions of one (group, resource), e.g. when a CRD changes; `[]` removes it. */
  setResource(group: string, resource: string, definitions: ResourceDefinition[]): void {
    for (const d of this.versionsOf(group, resource)) this.byPath.delete(key(d.group, d.version, d.resource));
    for (const d of definitions) this.byPath.set(key(d.group, d.version, d.resource), d);
    this.changeCounter++;
    for (const l of this.listeners) l();
  }

  /** Increments whenever the set changes (discovery and OpenAPI caches key on it). */
  get generation(): number {
    return this.changeCounter;
  }

  onChange(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

function key(group: string, version: string, resource: string): string {
  return `${group}/${version}/${resource}`;
}

/** Kube's version priority: GA > beta > alpha, higher numbers first (v2 > v1 > v1beta2 > v1beta1 > v1alpha1). */
export function sortVersions(versions: string[]): string[] {
  const rank = (v: string) => {
    const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
    if (!m) return [3, 0, 0, v] as const;
    const stability = m[2] === undefined ? 0 : m[2] === 'beta' ? 1 : 2;
    return [stability, -Number(m[1]), -Number(m[3] ?? 0), v] as const;
  };
  return versions.sort((a, b) => {
    const ra = rank(a);
    const rb = rank(b);
    for (let i = 0; i < 3; i++) if (ra[i] !== rb[i]) return (ra[i] as number) - (rb[i] as number);
    return a.localeCompare(b);
  });
}
