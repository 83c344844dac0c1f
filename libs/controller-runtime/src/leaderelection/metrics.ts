// leader_election_master_status{name}: 1 while this process leads the lock `name`, 0 otherwise (client-go's metric).
import { Gauge, type Registry } from 'prom-client';
import { perRegistry } from '../metrics/per-registry.js';

export const leaderElectionMetrics = perRegistry(
  (registry: Registry) =>
    new Gauge({
      name: 'leader_election_master_status',
      help: 'Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master.',
      labelNames: ['name'],
      registers: [registry],
    }),
);
