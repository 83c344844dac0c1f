// What the apply and delete steps use of the target cluster: a narrow view of `TargetObjects` (kinds, cached and live
// reads, the API client for writes, the cache for HPAs), so both run against plain fakes in their unit tests.
import type { Client, Reader } from '@gardener-ts/controller-runtime';
import type { TargetObjects } from '../../target.js';

/** The target cluster as the apply and delete steps see it; `TargetObjects` is one. */
export interface TargetAccess extends Pick<TargetObjects, 'kindInfo' | 'watch' | 'get' | 'getLive'> {
  cluster: { api: Client; cache: Pick<Reader, 'list'> };
}
