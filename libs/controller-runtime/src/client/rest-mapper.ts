// Maps a GVK to its REST resource from the server's discovery documents. Cached; a miss re-reads discovery,
// so kinds of CRDs created after start are found.
import { ApiError } from './api-error.js';
import { apiVersionOf, type GroupVersionKind } from './gvk.js';
import type { Transport } from './transport.js';

export interface RESTMapping {
  gvk: GroupVersionKind;
  /** Plural resource name, as in the URL path (`configmaps`). */
  resource: string;
  namespaced: boolean;
  /** Subresources the server serves for this resource (`status`, `scale`, ...). */
  subresources: string[];
}

interface APIResource {
  name: string;
  kind: string;
  namespaced: boolean;
}

/** Thrown when discovery does not know a kind, even after a refresh. */
export class NoKindMatchError extends Error {
  override readonly name = 'NoKindMatchError';
  constructor(readonly gvk: GroupVersionKind) {
    super(`no matches for kind "${gvk.kind}" in version "${apiVersionOf(gvk)}"`);
  }
}

export class RESTMapper {
  private readonly byGroupVersion = new Map<string, Map<string, RESTMapping>>();
  private readonly loading = new Map<string, Promise<void>>();

  constructor(private readonly transport: Transport) {}

  async mapping(gvk: GroupVersionKind): Promise<RESTMapping> {
    const gv = apiVersionOf(gvk);
    const cached = this.byGroupVersion.get(gv)?.get(gvk.kind);
    if (cached) return cached;
    await this.refresh(gv);
    const found = this.byGroupVersion.get(gv)?.get(gvk.kind);
    if (!found) throw new NoKindMatchError(gvk);
    return found;
  }

  /** Forgets everything learned from discovery; the next lookups re-read it. */
  reset(): void {
    this.byGroupVersion.clear();
  }

  /** Re-reads one group-version's discovery document; concurrent misses share one request. */
  private refresh(gv: string): Promise<void> {
    let pending = this.loading.get(gv);
    if (!pending) {
      pending = this.load(gv).finally(() => this.loading.delete(gv));
      this.loading.set(gv, pending);
    }
    return pending;
  }

  private async load(gv: string): Promise<void> {
    const path = gv.includes('/') ? `/apis/${gv}` : `/api/${gv}`;
    let list: { resources?: APIResource[] };
    try {
      list = await this.transport.request<{ resources?: APIResource[] }>({ method: 'GET', path });
    } catch (err) {
      // An unknown group-version is simply a miss, reported by the caller as NoKindMatchError.
      if (err instanceof ApiError && err.code === 404) {
        this.byGroupVersion.delete(gv);
        return;
      }
      throw err;
    }
    const [group, version] = gv.includes('/') ? gv.split('/') : ['', gv];
    const kinds = new Map<string, RESTMapping>();
    const subresources = new Map<string, string[]>();
    for (const r of list.resources ?? []) {
      const slash = r.name.indexOf('/');
      if (slash >= 0) {
        const parent = r.name.slice(0, slash);
        subresources.set(parent, [...(subresources.get(parent) ?? []), r.name.slice(slash + 1)]);
      }
    }
    for (const r of list.resources ?? []) {
      if (r.name.includes('/')) continue;
      kinds.set(r.kind, {
        gvk: { group, version, kind: r.kind },
        resource: r.name,
        namespaced: r.namespaced,
        subresources: subresources.get(r.name) ?? [],
      });
    }
    this.byGroupVersion.set(gv, kinds);
  }
}
