export {
  Manager,
  type ManagerOptions,
  type Runnable,
  type LeaderElection,
  type LeaderElectionHooks,
} from './manager.js';
export { Cluster, type ClusterOptions } from './cluster.js';
