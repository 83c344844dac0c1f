// Expectations: what a controller has asked the API server to create or delete and has not yet seen in its cache.
// While any are outstanding the controller does not act on the cached pods again, so a slow cache never makes it
// create (or delete) twice. Entries expire, as in kube, so a lost watch event cannot block a controller forever.
import type { SharedInformer } from '@gardener-ts/controller-runtime';
import type { KubernetesObject } from '@gardener-ts/controller-runtime';
import { controllerOf } from './owner.js';

const EXPECTATIONS_TTL_MS = 5 * 60_000;

interface Entry {
  creations: number;
  deletions: Set<string>;
  at: number;
}

export class Expectations {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly now: () => number = Date.now) {}

  /** True when nothing is outstanding for the controller `key` (`namespace/name`). */
  satisfied(key: string): boolean {
    const e = this.entries.get(key);
    if (!e) return true;
    if (e.creations <= 0 && e.deletions.size === 0) return true;
    return this.now() - e.at > EXPECTATIONS_TTL_MS;
  }

  /** Replaces what is outstanding: `creations` objects to appear, and the objects (`namespace/name`) to go. */
  expect(key: string, creations: number, deletions: string[] = []): void {
    this.entries.set(key, { creations, deletions: new Set(deletions), at: this.now() });
  }

  creationObserved(key: string): void {
    const e = this.entries.get(key);
    if (e) e.creations--;
  }

  deletionObserved(key: string, objectKey: string): void {
    this.entries.get(key)?.deletions.delete(objectKey);
  }

  forget(key: string): void {
    this.entries.delete(key);
  }
}

/**
 * Lowers the expectations of the controllers of `ownerKind` as their objects show up in (or leave) the informer:
 * an object's controller ownerReference says whose expectation it fulfils.
 */
export function observeOwnedObjects(
  informer: SharedInformer<any>,
  ownerKind: string,
  expectations: Expectations,
): () => void {
  const ownerKey = (obj: KubernetesObject) => {
    const ref = controllerOf(obj);
    return ref?.kind === ownerKind ? `${obj.metadata?.namespace}/${ref.name}` : undefined;
  };
  const objectKey = (obj: KubernetesObject) => `${obj.metadata?.namespace}/${obj.metadata?.name}`;
  return informer.addEventHandler({
    onAdd(obj, initialList) {
      const owner = ownerKey(obj);
      if (!owner || initialList) return;
      if (obj.metadata?.deletionTimestamp) expectations.deletionObserved(owner, objectKey(obj));
      else expectations.creationObserved(owner);
    },
    onUpdate(oldObj, obj) {
      const owner = ownerKey(obj);
      if (owner && obj.metadata?.deletionTimestamp && !oldObj.metadata?.deletionTimestamp)
        expectations.deletionObserved(owner, objectKey(obj));
    },
    onDelete(obj) {
      const owner = ownerKey(obj);
      if (owner) expectations.deletionObserved(owner, objectKey(obj));
    },
  });
}
