// Which ready endpoint a new connection (TCP) or flow (UDP) of a Service port goes to — the one place for it, shared
// by both forwarders. Round robin over the ready endpoints; with `sessionAffinity: ClientIP` a client address sticks
// to the endpoint it got, as kube-proxy's "recent" match does: the affinity lasts `timeoutSeconds` from the client's
// last new connection (each one refreshes it), and goes as soon as its endpoint leaves the ready set or refuses.

export interface Backend {
  host: string;
  port: number;
}

/** kube-proxy's default `sessionAffinityConfig.clientIP.timeoutSeconds`; the API allows 1..86400. */
export const DEFAULT_AFFINITY_TIMEOUT_SECONDS = 10_800;
export const MAX_AFFINITY_TIMEOUT_SECONDS = 86_400;

interface Affinity {
  backend: string;
  lastUsed: number;
}

export class BackendPicker {
  private backends: Backend[] = [];
  private next = 0;
  private affinityMs: number | undefined;
  private readonly affinities = new Map<string, Affinity>();
  private lastSweep: number;

  /** `now`: the clock (injected by tests). */
  constructor(private readonly now: () => number = Date.now) {
    this.lastSweep = now();
  }

  /**
   * The ready endpoints and the affinity timeout (undefined: no affinity). Affinities to endpoints that are no longer
   * ready go now, so their clients move on even if the endpoint comes back later.
   */
  update(backends: Backend[], affinityMs?: number): void {
    this.backends = backends;
    if (affinityMs !== this.affinityMs) this.affinities.clear();
    this.affinityMs = affinityMs;
    const ready = new Set(backends.map(backendKey));
    for (const [client, affinity] of this.affinities) if (!ready.has(affinity.backend)) this.affinities.delete(client);
  }

  has(backend: Backend): boolean {
    const key = backendKey(backend);
    return this.backends.some((b) => backendKey(b) === key);
  }

  /**
   * The endpoint for a new connection from `client` (an address): the client's affinity while it holds, otherwise the
   * next in round robin (which becomes the client's affinity). `tried`: endpoints that already refused this connection.
   * Undefined when no ready endpoint is left.
   */
  pick(client: string, tried: ReadonlySet<string> = new Set()): Backend | undefined {
    const now = this.now();
    this.sweep(now);
    const affinity = this.affinityMs === undefined ? undefined : this.affinities.get(client);
    if (affinity && now - affinity.lastUsed <= this.affinityMs! && !tried.has(affinity.backend)) {
      const backend = this.backends.find((b) => backendKey(b) === affinity.backend);
      if (backend) {
        affinity.lastUsed = now;
        return backend;
      }
    }
    for (let i = 0; i < this.backends.length; i++) {
      const backend = this.backends[this.next++ % this.backends.length];
      if (tried.has(backendKey(backend))) continue;
      if (this.affinityMs !== undefined) this.affinities.set(client, { backend: backendKey(backend), lastUsed: now });
      return backend;
    }
    return undefined;
  }

  /** The endpoint refused `client`'s connection: the client's affinity to it goes. */
  failed(client: string, backend: Backend): void {
    if (this.affinities.get(client)?.backend === backendKey(backend)) this.affinities.delete(client);
  }

  /** Expired affinities are dropped now and then, so that clients that went away do not pile up. */
  private sweep(now: number): void {
    if (this.affinityMs === undefined || now - this.lastSweep < Math.min(this.affinityMs, 60_000)) return;
    this.lastSweep = now;
    for (const [client, affinity] of this.affinities)
      if (now - affinity.lastUsed > this.affinityMs) this.affinities.delete(client);
  }
}

export function backendKey(backend: Backend): string {
  return `${backend.host}:${backend.port}`;
}

/** The affinity timeout in ms of a Service's `sessionAffinity`/`sessionAffinityConfig`; undefined for `None`. */
export function affinityTimeoutMs(
  spec: { sessionAffinity?: string; sessionAffinityConfig?: { clientIP?: { timeoutSeconds?: number } } } | undefined,
): number | undefined {
  if (spec?.sessionAffinity !== 'ClientIP') return undefined;
  const seconds = spec.sessionAffinityConfig?.clientIP?.timeoutSeconds;
  // The API server rejects other values; a stored object from elsewhere falls back to the default.
  const valid =
    seconds !== undefined && Number.isInteger(seconds) && seconds > 0 && seconds <= MAX_AFFINITY_TIMEOUT_SECONDS;
  return (valid ? seconds : DEFAULT_AFFINITY_TIMEOUT_SECONDS) * 1000;
}
