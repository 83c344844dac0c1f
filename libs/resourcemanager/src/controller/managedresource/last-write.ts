// What the controller remembers about each object it wrote: the desired object it wrote and the object as the API
// server returned it. "Compare before writing" cannot tell a field added by hand deep inside (e.g. a new key in spec)
// from a server default; this memory can: when the desired object is unchanged but the live object differs from what
// the server returned after our write (outside fields the server or other controllers keep changing), it drifted.
import { createHash } from 'node:crypto';

type Obj = Record<string, any>;

/** Canonical JSON: object keys sorted, so equal objects hash equally whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Obj)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** The parts of a live object a write of ours decides: everything but status and server-maintained metadata. */
export function relevantHash(obj: Obj): string {
  const { status: _status, metadata, ...rest } = obj;
  const { resourceVersion: _rv, managedFields: _mf, generation: _gen, ...meta } = (metadata ?? {}) as Obj;
  return sha256(canonical({ ...rest, metadata: meta }));
}

export const desiredHash = (desired: unknown) => sha256(canonical(desired));

interface Entry {
  desired: string;
  live: string;
  resourceVersion?: string;
}

export type Verdict = 'unchanged' | 'drifted' | 'unknown';

/** Per object key, the last write (or confirmed state) of the controller; in memory only, empty after a restart. */
export class LastWrites {
  private readonly entries = new Map<string, Entry>();

  /** Remembers `live` (as the API server returned it) as the state written for `desired`. */
  remember(key: string, desired: string, live: Obj): void {
    this.entries.set(key, { desired, live: relevantHash(live), resourceVersion: live.metadata?.resourceVersion });
  }

  forget(key: string): void {
    this.entries.delete(key);
  }

  /**
   * `unchanged`: `current` is what we wrote for this desired object (status and server-kept metadata aside);
   * `drifted`: somebody changed it since; `unknown`: nothing remembered for this desired object (restart, new desire).
   */
  check(key: string, desired: string, current: Obj): Verdict {
    const e = this.entries.get(key);
    if (!e || e.desired !== desired) return 'unknown';
    const rv = current.metadata?.resourceVersion;
    if (rv !== undefined && rv === e.resourceVersion) return 'unchanged';
    if (relevantHash(current) !== e.live) return 'drifted';
    e.resourceVersion = rv; // e.g. a status update: next time the resourceVersion alone says so
    return 'unchanged';
  }
}
