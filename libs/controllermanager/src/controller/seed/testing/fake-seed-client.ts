// Test support for the seed check reconcilers: an in-memory fake of the client calls they make (get a Seed, list a
// kind, merge-patch the Seed status), plus small builders. Only tests import it.
import type { BackupBucket, ControllerInstallation, Seed } from '@gardener-ts/api';
import {
  ApiError,
  type Client,
  type Condition,
  type KubernetesObject,
  type ReconcileContext,
  type WallClock,
} from '@gardener-ts/controller-runtime';
import { createLogger } from '@gardener-ts/logging';

export const T = '2026-01-01T00:00:00Z';
export const ctx: ReconcileContext = {
  signal: new AbortController().signal,
  log: createLogger({ name: 'test', level: 'silent' }),
  controller: 'test',
};

/** Seeds by name plus any listed objects; merge patches of the status are applied and recorded. */
export class FakeSeedClient implements Pick<Client, 'get' | 'list' | 'patch'> {
  readonly patches: { name: string; conditions: Condition[]; resourceVersion: string }[] = [];
  constructor(
    public seeds: Map<string, Seed>,
    public items: KubernetesObject[],
  ) {}
  get = (async (_kind: unknown, key: { name: string }) => {
    const seed = this.seeds.get(key.name);
    if (!seed) throw new ApiError(404, 'NotFound', `seed ${key.name} not found`);
    return structuredClone(seed);
  }) as Client['get'];
  list = (async (kind: { kind: string }) => ({
    items: this.items.filter((i) => i.kind === kind.kind).map((i) => structuredClone(i)),
  })) as unknown as Client['list'];
  patch = (async (_kind: unknown, key: { name: string }, patch: { patch: Record<string, any> }) => {
    const seed = this.seeds.get(key.name)!;
    const p = patch.patch;
    this.patches.push({
      name: key.name,
      conditions: p.status.conditions,
      resourceVersion: p.metadata.resourceVersion,
    });
    seed.status = { ...seed.status, conditions: p.status.conditions };
    seed.metadata!.resourceVersion = String(Number(seed.metadata!.resourceVersion) + 1);
    return seed;
  }) as unknown as Client['patch'];
}

export const seed = (name: string, conditions: Condition[] = []): Seed =>
  ({
    kind: 'Seed',
    metadata: { name, resourceVersion: '1' },
    spec: {},
    status: { conditions },
  }) as unknown as Seed;

export const installation = (name: string, seedName: string, healthy: 'True' | 'False'): ControllerInstallation => ({
  kind: 'ControllerInstallation',
  metadata: { name },
  spec: { registrationRef: { name: 'r' }, seedRef: { name: seedName } },
  status: {
    conditions: (
      [
        ['Valid', 'True'],
        ['Installed', 'True'],
        ['Healthy', healthy],
        ['Progressing', 'False'],
      ] as const
    ).map(([type, status]) => ({
      type,
      status,
      reason: 'R',
      message: `${type} is ${status}`,
      lastTransitionTime: T,
      lastUpdateTime: T,
    })),
  },
});

export const bucket = (name: string, seedName: string, error?: string): BackupBucket => ({
  kind: 'BackupBucket',
  metadata: { name },
  spec: { provider: { type: 'local', region: 'local' }, seedName },
  status: error ? { lastError: { description: error } } : {},
});

/** A wall clock tests move by hand. */
export function manualClock(start = T): WallClock & { advance(ms: number): void } {
  let now = Date.parse(start);
  return { now: () => new Date(now), advance: (ms) => (now += ms) };
}
export const gardenletReady: Condition = {
  type: 'GardenletReady',
  status: 'True',
  reason: 'GardenletReady',
  message: 'ok',
  lastTransitionTime: T,
  lastUpdateTime: T,
};
