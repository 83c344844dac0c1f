// One decision from the cache: the input, then determineSeed. A missing cloud profile is a failed decision like any
// other (reported and retried), not an exception.
import type { Shoot } from '@gardener-ts/api';
import { determineSeed } from '../determine.js';
import { SchedulingInputError } from '../errors.js';
import type { SchedulingResult } from '../types.js';
import { schedulingInput, type InputOptions } from './inputs.js';
import type { SchedulingCache } from './scheduling-cache.js';

export function decide(shoot: Shoot, cache: SchedulingCache, options: InputOptions): SchedulingResult {
  let input;
  try {
    input = schedulingInput(shoot, cache, options);
  } catch (err) {
    if (!(err instanceof SchedulingInputError)) throw err;
    return {
      candidates: [],
      rejected: [],
      strategy: shoot.spec.purpose === 'testing' ? 'SameProvider' : options.strategy,
      reason: 'CloudProfileUnavailable',
      message: err.message,
    };
  }
  return determineSeed(input);
}
