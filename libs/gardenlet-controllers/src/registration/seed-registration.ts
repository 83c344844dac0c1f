// Seed registration (Gardener's gardenlet start-up with `seedConfig`): the Seed is created in the garden from the
// template in the configuration — or brought in line with it — labelled gardener.cloud/role=seed and with the
// seed.gardener.cloud/provider and /region labels Gardener derives from the spec.
import type { GardenletConfiguration } from '@gardener-ts/component-config';
import { ApiError, pollDelays, type ApiClient, type KubernetesObject } from '@gardener-ts/controller-runtime';
import { FIELD_MANAGER } from '../constants.js';
import { SEED_API_VERSION } from '../seed-kind.js';

type SeedConfig = NonNullable<GardenletConfiguration['seedConfig']>;

/** The Seed object the gardenlet applies for its `seedConfig`. */
export function seedFromConfig(seedConfig: SeedConfig): KubernetesObject & { spec: Record<string, unknown> } {
  const meta = seedConfig.metadata as {
    name: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  const provider = (seedConfig.spec.provider ?? {}) as { type?: string; region?: string };
  return {
    apiVersion: SEED_API_VERSION,
    kind: 'Seed',
    metadata: {
      name: meta.name,
      labels: {
        'gardener.cloud/role': 'seed',
        ...(provider.type ? { 'seed.gardener.cloud/provider': provider.type } : {}),
        ...(provider.region ? { 'seed.gardener.cloud/region': provider.region } : {}),
        ...meta.labels,
      },
      ...(meta.annotations ? { annotations: meta.annotations } : {}),
    },
    spec: structuredClone(seedConfig.spec),
  };
}

/**
 * Creates or updates the Seed (server-side apply as the gardenlet). An answer the garden may give differently a moment
 * later (a 5xx such as a webhook without endpoints while the garden's admission Pod starts, 429, no answer) is tried
 * again, from 100 ms, doubling up to 2 s, for `timeoutMs` (60 s): a gardenlet that starts beside the garden (a
 * resumed landscape) would otherwise exit and wait out its restart back-off. Other errors end the start at once.
 */
export async function registerSeed(
  garden: Pick<ApiClient, 'apply'>,
  seedConfig: SeedConfig,
  options: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<KubernetesObject> {
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  const delays = pollDelays(2_000);
  for (;;) {
    try {
      return await garden.apply(seedFromConfig(seedConfig), { fieldManager: FIELD_MANAGER, force: true });
    } catch (err) {
      if (!transient(err) || Date.now() >= deadline || options.signal?.aborted)
        throw new Error(`registering Seed ${seedConfig.metadata.name} from seedConfig`, { cause: err });
      await new Promise((r) => setTimeout(r, delays.next().value));
    }
  }
}

function transient(err: unknown): boolean {
  return err instanceof ApiError && (err.code === 0 || err.code === 429 || err.code >= 500);
}
