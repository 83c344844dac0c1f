// What this controller last wrote to each Service's slices (by generation), so a reconcile on a cache that has not
// caught up yet does nothing instead of creating a slice twice.
import type { EndpointSlice } from '../shared/kinds.js';

const DELETED = -1;

export class SliceTracker {
  private readonly written = new Map<string, Map<string, number>>();

  wrote(service: string, slice: EndpointSlice): void {
    this.slices(service).set(slice.metadata!.name!, slice.metadata?.generation ?? 0);
  }

  deleted(service: string, name: string): void {
    this.slices(service).set(name, DELETED);
  }

  /** True when the cached slices do not show every write yet; writes they show are forgotten. */
  stale(service: string, cached: EndpointSlice[]): boolean {
    const slices = this.written.get(service);
    if (!slices) return false;
    for (const [name, generation] of slices) {
      const seen = cached.find((s) => s.metadata?.name === name);
      const caughtUp = generation === DELETED ? !seen : !!seen && (seen.metadata?.generation ?? 0) >= generation;
      if (!caughtUp) return true;
      slices.delete(name);
    }
    return false;
  }

  forget(service: string): void {
    this.written.delete(service);
  }

  private slices(service: string): Map<string, number> {
    return this.written.get(service) ?? this.written.set(service, new Map()).get(service)!;
  }
}
