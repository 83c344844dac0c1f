// The scheduler's vocabulary: what a decision is made from and what it says.
import type { CloudProfile, Seed, Shoot } from '@gardener-ts/api';
import type { SeedUsage } from './seeds/usage.js';

export const STRATEGIES = ['SameRegion', 'MinimalDistance'] as const;
/** SchedulerConfiguration's schedulers.shoot.candidateDeterminationStrategy. */
export type Strategy = (typeof STRATEGIES)[number];

export type CloudProfileSpec = CloudProfile['spec'];

/** The cloud profile a shoot uses: a CloudProfile, or a NamespacedCloudProfile's merged status.cloudProfileSpec. */
export interface CloudProfileView {
  kind: 'CloudProfile' | 'NamespacedCloudProfile';
  name: string;
  spec: CloudProfileSpec;
}

/** A region-config ConfigMap's data: shoot region → YAML map of seed region → distance. */
export interface RegionConfig {
  /** namespace/name, for messages. */
  source: string;
  data: Record<string, string>;
}

/** Everything one decision needs; all of it in memory, so a decision never waits. */
export interface SchedulingInput {
  shoot: Shoot;
  /** Every seed; the order breaks ties between equally used seeds. */
  seeds: readonly Seed[];
  /** Shoots per seed. */
  usage: SeedUsage;
  cloudProfile: CloudProfileView;
  regionConfig?: RegionConfig;
  strategy: Strategy;
  /**
   * Whether IPv4 shoot networks may overlap the seed's networks. Gardener allows it since the VPN maps overlapping
   * ranges with double NAT (IPv6 networks and the reserved ranges must still be disjoint). Default true.
   */
  allowIPv4Overlap?: boolean;
  /** The project of the shoot's namespace, for the default-domain scheme; default: derived from `garden-<project>`. */
  projectName?: string;
}

/** Which step of the algorithm ruled a seed out (or failed the whole decision). */
export type Stage =
  | 'Usable'
  | 'CloudProfileSeedSelector'
  | 'ShootSeedSelector'
  | 'Provider'
  | 'HighAvailability'
  | 'ZonePinning'
  | 'ZoneSelection'
  | 'AccessRestrictions'
  | 'Candidates'
  | 'Strategy';

export interface Rejection {
  seed: string;
  region: string;
  stage: Stage;
  reason: string;
}

export interface RankedCandidate {
  seed: Seed;
  /** Shoots already on the seed. */
  shoots: number;
  /** Region distance under MinimalDistance, 0 otherwise. */
  distance: number;
}

/** The strategy that ranked the candidates; testing shoots ignore regions ("SameProvider"). */
export type AppliedStrategy = Strategy | 'SameProvider';

export interface SchedulingResult {
  /** The chosen seed; absent when no seed fits. */
  seed?: Seed;
  /** The seeds the strategy leaves to choose from, best first (least used, then by name). */
  candidates: RankedCandidate[];
  /** Every other seed and why it was ruled out. */
  rejected: Rejection[];
  strategy: AppliedStrategy;
  /** Machine-readable: the strategy on success, the failing step otherwise (e.g. "NoMatchingProvider"). */
  reason: string;
  /** What the scheduler reports: "Scheduled to seed 'x'", or why no seed fits, naming each seed's reason. */
  message: string;
}
