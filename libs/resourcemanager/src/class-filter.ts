// Which ManagedResources this resource-manager is responsible for: those of its `resourceClass` (the default class
// also takes ManagedResources without `.spec.class`). Each class has its own finalizer, so a change of class hands a
// ManagedResource over: the old class deletes its objects and removes its finalizer, then the new class applies.
import { DefaultResourceClass, FinalizerName } from './constants.js';

interface MRLike {
  metadata?: { finalizers?: string[] };
  spec?: { class?: string };
}

export class ClassFilter {
  readonly resourceClass: string;
  readonly finalizer: string;

  constructor(resourceClass: string | undefined) {
    this.resourceClass = resourceClass || DefaultResourceClass;
    this.finalizer =
      this.resourceClass === DefaultResourceClass ? FinalizerName : `${FinalizerName}-${this.resourceClass}`;
  }

  responsible(mr: MRLike): boolean {
    const c = mr.spec?.class ?? '';
    return c === this.resourceClass || (c === '' && this.resourceClass === DefaultResourceClass);
  }

  /** Not ours any more, but our finalizer is still there: our objects must be deleted. */
  isTransferringResponsibility(mr: MRLike): boolean {
    return !this.responsible(mr) && (mr.metadata?.finalizers ?? []).includes(this.finalizer);
  }

  /** Ours, but another class still has its finalizer on it: wait until that class has cleaned up. */
  isWaitForCleanupRequired(mr: MRLike): boolean {
    return (
      this.responsible(mr) &&
      (mr.metadata?.finalizers ?? []).some((f) => f.startsWith(FinalizerName) && f !== this.finalizer)
    );
  }
}
