export { LeaderElector, type LeaderElectorOptions } from './elector.js';
export { leaderElectorFromConfig, type LeaderElectionConfiguration } from './config.js';
export { LeaseKind, type Lease, type LeaseSpec } from './lease.js';
