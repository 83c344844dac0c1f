// The decision for one shoot, step by step as Gardener's scheduler makes it:
//  1. usable seeds (not deleting, visible, ready);
//  2. the CloudProfile's and the Shoot's seed selectors, the provider types, three zones for a zonal control plane,
//     pinned zones and enforced zone selection, access restrictions — each step fails the decision if no seed is left;
//  3. per seed: networks, the default-domain scheme, tolerated taints, free capacity;
//  4. the strategy (SameRegion, MinimalDistance; SameProvider for testing shoots) keeps the nearest seeds;
//  5. seeds whose zone selection places the control plane in a worker zone of the shoot are preferred, then the least
//     used wins (ties: the first by name).
// Self-hosted shoots are never scheduled.
// Pure and synchronous: everything comes in `input`, so concurrent decisions can count each other's bindings.
import type { Seed } from '@gardener-ts/api';
import { describeRejections } from './decision/describe.js';
import { SchedulingInputError } from './errors.js';
import { unsupportedAccessRestrictions } from './filters/access-restrictions.js';
import { noCapacity } from './filters/capacity.js';
import { defaultDomainMismatch } from './filters/default-domain.js';
import { tooFewZones } from './filters/high-availability.js';
import { networkCheck } from './filters/networks.js';
import { providerMismatch } from './filters/provider.js';
import { isSelfHostedShoot } from './filters/self-hosted.js';
import { compileSeedSelector, seedSelectorMismatch } from './filters/seed-selector.js';
import { untoleratedTaints } from './filters/taints.js';
import { unusableReason } from './filters/usable.js';
import {
  enforcedZonesMissing,
  pinnedZones,
  pinnedZonesMissing,
  placesInWorkerZone,
  workerZones,
} from './filters/zones.js';
import { applyStrategy } from './strategies/apply.js';
import type { RankedCandidate, Rejection, SchedulingInput, SchedulingResult, Stage } from './types.js';

type SeedCheck = (seed: Seed) => string | undefined;

interface FilterStep {
  stage: Stage;
  /** The failure reason when no seed passes. */
  code: string;
  checks: SeedCheck[];
  noneFits: (total: number) => string;
}

function filterSteps(input: SchedulingInput): FilterStep[] {
  const { shoot, cloudProfile, usage } = input;
  const cloudProfileSelector = compileSeedSelector(cloudProfile.spec.seedSelector, 'CloudProfile');
  const shootSelector = compileSeedSelector(shoot.spec.seedSelector, 'Shoot');
  const networks = networkCheck(shoot, { allowIPv4Overlap: input.allowIPv4Overlap ?? true });
  const steps: (FilterStep | false)[] = [
    {
      stage: 'Usable',
      code: 'NoUsableSeed',
      checks: [unusableReason],
      noneFits: (n) => `none of the ${n} seeds is valid for scheduling (not deleting, visible and ready)`,
    },
    !!cloudProfileSelector && {
      stage: 'CloudProfileSeedSelector',
      code: 'SeedSelectorMismatch',
      checks: [(seed) => seedSelectorMismatch(seed, cloudProfileSelector, 'CloudProfile')],
      noneFits: (n) =>
        `none out of the ${n} seeds has the matching labels required by seed selector of 'CloudProfile' (selector: '${cloudProfileSelector.text}')`,
    },
    !!shootSelector && {
      stage: 'ShootSeedSelector',
      code: 'SeedSelectorMismatch',
      checks: [(seed) => seedSelectorMismatch(seed, shootSelector, 'Shoot')],
      noneFits: (n) =>
        `none out of the ${n} seeds has the matching labels required by seed selector of 'Shoot' (selector: '${shootSelector.text}')`,
    },
    {
      stage: 'Provider',
      code: 'NoMatchingProvider',
      checks: [(seed) => providerMismatch(seed, shoot, cloudProfile)],
      noneFits: (n) => `none out of the ${n} seeds has a matching provider for "${shoot.spec.provider.type}"`,
    },
    {
      stage: 'HighAvailability',
      code: 'TooFewZones',
      checks: [(seed) => tooFewZones(seed, shoot)],
      noneFits: (n) =>
        `none of the ${n} seeds has at least 3 zones for hosting a shoot control plane with failure tolerance type 'zone'`,
    },
    {
      stage: 'ZonePinning',
      code: 'PinnedZonesUnavailable',
      checks: [(seed) => pinnedZonesMissing(seed, shoot)],
      noneFits: (n) =>
        `none of the ${n} seeds has all the zones [${pinnedZones(shoot).join(', ')}] the shoot's control plane is pinned to`,
    },
    {
      stage: 'ZoneSelection',
      code: 'WorkerZonesUnavailable',
      checks: [(seed) => enforcedZonesMissing(seed, shoot)],
      noneFits: (n) =>
        `none of the ${n} seeds has any zone of the shoot's worker pools [${workerZones(shoot).join(', ')}] to place the control plane in (zone selection mode 'Enforce')`,
    },
    {
      stage: 'AccessRestrictions',
      code: 'AccessRestrictionsUnsupported',
      checks: [(seed) => unsupportedAccessRestrictions(seed, shoot)],
      noneFits: (n) => `none of the ${n} seeds supports the access restrictions configured in the shoot specification`,
    },
    {
      stage: 'Candidates',
      code: 'NoEligibleSeed',
      checks: [
        networks,
        (seed) => defaultDomainMismatch(seed, shoot, input.projectName),
        (seed) => untoleratedTaints(seed, shoot),
        (seed) => noCapacity(seed, usage),
      ],
      noneFits: (n) => `0/${n} seed cluster candidate(s) are eligible for scheduling`,
    },
  ];
  return steps.filter((s): s is FilterStep => s !== false);
}

const byName = (a: Seed, b: Seed) => {
  const x = a.metadata?.name ?? '';
  const y = b.metadata?.name ?? '';
  return x < y ? -1 : x > y ? 1 : 0;
};

function rejection(seed: Seed, stage: Stage, reason: string): Rejection {
  return { seed: seed.metadata?.name ?? '', region: seed.spec.provider.region, stage, reason };
}

export function determineSeed(input: SchedulingInput): SchedulingResult {
  const { shoot, strategy } = input;
  const rejected: Rejection[] = [];
  const failed = (
    reason: string,
    message: string,
    applied = strategy as SchedulingResult['strategy'],
  ): SchedulingResult => ({
    candidates: [],
    rejected,
    strategy: shoot.spec.purpose === 'testing' ? 'SameProvider' : applied,
    reason,
    message: rejected.length > 0 ? `${message}: ${describeRejections(rejected)}` : message,
  });

  if (isSelfHostedShoot(shoot)) {
    return failed(
      'SelfHostedShoot',
      'the shoot is self-hosted (a worker pool hosts its control plane), it is not scheduled to a seed',
    );
  }
  let seeds = [...input.seeds].sort(byName);
  try {
    for (const step of filterSteps(input)) {
      const kept: Seed[] = [];
      for (const seed of seeds) {
        let reason: string | undefined;
        for (const check of step.checks) if ((reason = check(seed)) !== undefined) break;
        if (reason === undefined) kept.push(seed);
        else rejected.push(rejection(seed, step.stage, reason));
      }
      if (kept.length === 0) return failed(step.code, step.noneFits(seeds.length));
      seeds = kept;
    }

    const outcome = applyStrategy(seeds, shoot, strategy, input.regionConfig);
    for (const r of outcome.rejected) rejected.push(rejection(r.seed, 'Strategy', r.reason));
    if (outcome.candidates.length === 0) {
      const cloudProfileName = shoot.spec.cloudProfile?.name ?? shoot.spec.cloudProfileName ?? '';
      return failed(
        'NoCandidateForStrategy',
        `no matching seed candidate found for Configuration (Cloud Profile '${cloudProfileName}', Region '${shoot.spec.region}', SeedDeterminationStrategy '${strategy}')`,
        outcome.strategy,
      );
    }
    // Seeds placing the control plane in a worker zone first (zone selection), then least used; the stable sort keeps
    // the name order between equal seeds.
    const preferred = (seed: Seed) => (placesInWorkerZone(seed, shoot) ? 0 : 1);
    const candidates: RankedCandidate[] = outcome.candidates
      .map(({ seed, distance }) => ({ seed, distance, shoots: input.usage.get(seed.metadata?.name ?? '') ?? 0 }))
      .sort((a, b) => preferred(a.seed) - preferred(b.seed) || a.shoots - b.shoots);
    const winner = candidates[0].seed;
    return {
      seed: winner,
      candidates,
      rejected,
      strategy: outcome.strategy,
      reason: outcome.strategy,
      message: `Scheduled to seed '${winner.metadata?.name}'`,
    };
  } catch (err) {
    if (err instanceof SchedulingInputError) return failed('InvalidInput', err.message);
    throw err;
  }
}
