// Synchronous reads of what a decision needs, straight from the informers' stores. Synchronous on purpose: a decision
// and the assumption of its binding happen without yielding, so concurrent reconciles never see each other half-done.
import type { CloudProfile, NamespacedCloudProfile, Seed, Shoot } from '@gardener-ts/api';
import {
  ConfigMapKind,
  type ConfigMap,
  type InformerCache,
  type SharedInformer,
} from '@gardener-ts/controller-runtime';
import { isPendingShoot } from './pending.js';
import { CloudProfileKind, NamespacedCloudProfileKind, SeedKind, ShootKind } from './kinds.js';

export interface SchedulingCache {
  shoot(namespace: string, name: string): Shoot | undefined;
  shoots(): Shoot[];
  /** Shoots this scheduler still has to place. */
  pendingShoots(): Shoot[];
  seeds(): Seed[];
  cloudProfile(name: string): CloudProfile | undefined;
  namespacedCloudProfile(namespace: string, name: string): NamespacedCloudProfile | undefined;
  /** The region-config ConfigMaps (the informer is scoped to them). */
  regionConfigMaps(): ConfigMap[];
}

export const PENDING_INDEX = 'scheduling.gardener-ts.io/pending';

export interface SchedulingInformers {
  shoots: SharedInformer<Shoot>;
  seeds: SharedInformer<Seed>;
  cloudProfiles: SharedInformer<CloudProfile>;
  namespacedCloudProfiles: SharedInformer<NamespacedCloudProfile>;
  configMaps: SharedInformer<ConfigMap>;
}

/** The informers of a cache the scheduler reads (ConfigMaps: scope the cache to the region configs, see schedulerCacheScopes). */
export function schedulingInformers(cache: InformerCache): SchedulingInformers {
  const shoots = cache.informerFor(ShootKind);
  if (!shoots.store.hasIndex(PENDING_INDEX))
    shoots.addIndex(PENDING_INDEX, (shoot) => (isPendingShoot(shoot) ? ['true'] : []));
  return {
    shoots,
    seeds: cache.informerFor(SeedKind),
    cloudProfiles: cache.informerFor(CloudProfileKind),
    namespacedCloudProfiles: cache.informerFor(NamespacedCloudProfileKind),
    configMaps: cache.informerFor(ConfigMapKind),
  };
}

export function informerSchedulingCache(informers: SchedulingInformers): SchedulingCache {
  const key = (namespace: string, name: string) => (namespace ? `${namespace}/${name}` : name);
  return {
    shoot: (namespace, name) => informers.shoots.store.get(key(namespace, name)),
    shoots: () => informers.shoots.store.list(),
    pendingShoots: () => informers.shoots.store.byIndex(PENDING_INDEX, 'true'),
    seeds: () => informers.seeds.store.list(),
    cloudProfile: (name) => informers.cloudProfiles.store.get(name),
    namespacedCloudProfile: (namespace, name) => informers.namespacedCloudProfiles.store.get(key(namespace, name)),
    regionConfigMaps: () => informers.configMaps.store.list(),
  };
}

/** An in-memory SchedulingCache over fixed objects: for previews in tests and tools. */
export function staticSchedulingCache(objects: {
  shoots?: Shoot[];
  seeds?: Seed[];
  cloudProfiles?: CloudProfile[];
  namespacedCloudProfiles?: NamespacedCloudProfile[];
  configMaps?: ConfigMap[];
}): SchedulingCache {
  const shoots = objects.shoots ?? [];
  return {
    shoot: (namespace, name) => shoots.find((s) => s.metadata?.namespace === namespace && s.metadata?.name === name),
    shoots: () => shoots,
    pendingShoots: () => shoots.filter(isPendingShoot),
    seeds: () => objects.seeds ?? [],
    cloudProfile: (name) => objects.cloudProfiles?.find((c) => c.metadata?.name === name),
    namespacedCloudProfile: (namespace, name) =>
      objects.namespacedCloudProfiles?.find((c) => c.metadata?.namespace === namespace && c.metadata?.name === name),
    regionConfigMaps: () => objects.configMaps ?? [],
  };
}
