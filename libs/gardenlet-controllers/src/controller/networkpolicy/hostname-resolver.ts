// Gardener's hostname resolver for `allow-to-runtime-apiserver` (pkg/controller/networkpolicy/hostnameresolver): when
// the seed's API server is addressed by a hostname (its kubeconfig's server, else KUBERNETES_SERVICE_HOST/PORT), the
// name is resolved at start and every 30 s; its addresses are extra peers of the policy, and a change wakes every
// namespace that gets the policies. An IP address needs no resolver.
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import type { Logger } from '@gardener-ts/logging';
import type { Request, Source } from '@gardener-ts/controller-runtime';
import type { EndpointSubset } from './policies.js';

/** Gardener's resync period of the resolver. */
export const ResolveIntervalMs = 30_000;

/** The API server to resolve: a hostname and its port. */
export interface APIServerHost {
  hostname: string;
  port: number;
}

/**
 * Gardener's CreateForCluster: the server URL's hostname and port (443 when none) if it is not an IP address; else
 * `KUBERNETES_SERVICE_HOST`/`_PORT` if the host is not an IP address; else undefined (no resolver).
 */
export function apiServerHostOf(
  serverURL: string | undefined,
  env: Readonly<Record<string, string | undefined>> = process.env,
): APIServerHost | undefined {
  if (serverURL) {
    const url = new URL(serverURL);
    const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
    if (hostname && isIP(hostname) === 0) return { hostname, port: url.port ? Number(url.port) : 443 };
  }
  const [host, port] = [env['KUBERNETES_SERVICE_HOST'], env['KUBERNETES_SERVICE_PORT']];
  if (host && port && isIP(host) === 0) return { hostname: host, port: Number(port) };
  return undefined;
}

/**
 * The API server URL of a kubeconfig (`seedClientConnection.kubeconfig`; empty: `$KUBECONFIG`, `~/.kube/config` or
 * in-cluster, as the clients load it); undefined when it cannot be read.
 */
export function kubeconfigServer(kubeconfigPath: string): string | undefined {
  try {
    const kc = new KubeConfig();
    if (kubeconfigPath) kc.loadFromFile(kubeconfigPath);
    else kc.loadFromDefault();
    return kc.getCurrentCluster()?.server || undefined;
  } catch {
    return undefined;
  }
}

/** Resolves a hostname to all its addresses. */
export type LookupHost = (hostname: string) => Promise<string[]>;

const lookupAll: LookupHost = async (hostname) => (await lookup(hostname, { all: true })).map((a) => a.address);

/** Resolves the API server's hostname periodically; its addresses become Endpoints-like subsets. */
export class HostnameResolver {
  private addresses: string[] = [];

  constructor(
    private readonly host: APIServerHost,
    private readonly options: { lookup?: LookupHost; intervalMs?: number; log?: Logger } = {},
  ) {}

  /** The resolved addresses with the API server's port (none before the first successful lookup). */
  subsets(): EndpointSubset[] {
    if (this.addresses.length === 0) return [];
    return [
      {
        addresses: this.addresses.map((ip) => ({ ip })),
        ports: [{ port: this.host.port, protocol: 'TCP' }],
      },
    ];
  }

  /** Looks the hostname up once; true when the (sorted) addresses changed. A failed lookup keeps the old ones. */
  async refresh(): Promise<boolean> {
    let resolved: string[];
    try {
      resolved = [...new Set(await (this.options.lookup ?? lookupAll)(this.host.hostname))].sort();
    } catch (err) {
      this.options.log?.error({ err, hostname: this.host.hostname }, 'Could not resolve upstream hostname');
      return false;
    }
    if (resolved.length === this.addresses.length && resolved.every((a, i) => a === this.addresses[i])) return false;
    this.addresses = resolved;
    this.options.log?.info({ hostname: this.host.hostname, resolvedIPs: resolved }, 'Updated resolved addresses');
    return true;
  }

  /** A raw source: resolves at start and every interval, enqueueing `requests()` whenever the addresses change. */
  source(requests: () => Request[]): Source {
    return {
      start: (enqueue, signal) => {
        if (signal.aborted) return;
        let running = false;
        const tick = async () => {
          if (running) return; // a slow lookup never overlaps itself
          running = true;
          try {
            if ((await this.refresh()) && !signal.aborted) for (const r of requests()) enqueue(r);
          } finally {
            running = false;
          }
        };
        const timer = setInterval(() => void tick(), this.options.intervalMs ?? ResolveIntervalMs);
        timer.unref?.();
        signal.addEventListener('abort', () => clearInterval(timer), { once: true });
        return tick();
      },
    };
  }
}
