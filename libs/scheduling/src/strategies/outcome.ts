// What a strategy leaves to choose from: the candidates (all at the same, minimal distance) and why the others lost.
import type { Seed } from '@gardener-ts/api';
import type { AppliedStrategy } from '../types.js';

export interface StrategyOutcome {
  strategy: AppliedStrategy;
  candidates: { seed: Seed; distance: number }[];
  rejected: { seed: Seed; reason: string }[];
}
