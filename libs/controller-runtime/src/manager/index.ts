export { Manager, type ManagerOptions, type Runnable, type LeaderElection } from './manager.js';
export { Cluster, type ClusterOptions } from './cluster.js';
