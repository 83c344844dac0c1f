// One cluster a manager talks to: its API client, informer cache and the cache-backed client controllers use.
import type { KubeConfig } from '@kubernetes/client-node';
import type { Logger } from '@gardener-ts/logging';
import { CachedClient } from '../cache/cached-client.js';
import { InformerCache, type CacheOptions } from '../cache/cache.js';
import { ApiClient } from '../client/client.js';
import type { ClientRateLimit } from '../client/rate-limit.js';
import type { GroupVersionKind } from '../client/gvk.js';

export interface ClusterOptions {
  /** A KubeConfig, or the path of a kubeconfig file. */
  kubeConfig: KubeConfig | string;
  cache?: Omit<CacheOptions, 'log'>;
  /** Kinds the client reads from the API server instead of the cache (e.g. Secrets you never want cached). */
  uncachedKinds?: GroupVersionKind[];
  /** Client-side rate limit of the cluster's API client (client-go's QPS and burst; watches are not limited). */
  rateLimit?: ClientRateLimit;
}

export class Cluster {
  private constructor(
    readonly name: string,
    /** Live reads and writes. */
    readonly api: ApiClient,
    readonly cache: InformerCache,
    /** Reads from the cache, writes to the API: what reconcilers use. */
    readonly client: CachedClient,
  ) {}

  static async create(name: string, options: ClusterOptions, log?: Logger): Promise<Cluster> {
    const api = await ApiClient.create(options.kubeConfig, {
      rateLimit: options.rateLimit,
      log: log?.child({ cluster: name }),
    });
    const cache = new InformerCache(api, { ...options.cache, log: log?.child({ cluster: name }) });
    return new Cluster(name, api, cache, new CachedClient(cache, api, options.uncachedKinds));
  }

  start(signal: AbortSignal): void {
    this.cache.start(signal);
  }

  async stop(): Promise<void> {
    await this.cache.stop();
    this.api.close();
  }
}
