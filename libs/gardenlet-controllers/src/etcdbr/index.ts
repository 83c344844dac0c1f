// etcd-backup-restore in local mode: snapshot naming, restore plan, garbage collection and delta snapshot contents
// (pure), the Local store, the copier of a control plane migration, the data dir initialization (restore, delta replay) and the sidecar server, and the
// `etcdbrctl` command.
export * from './snapshot.js';
export {
  garbageCollect,
  DefaultMaxBackups,
  type GarbageCollectionPolicy,
  type GarbageCollectionOptions,
} from './gc.js';
export { LocalSnapStore, localStoreDirectory, compress, decompress, type SnapStore } from './store.js';
export { inspectDatabase, resetConsistentIndex, verifySnapshotHash, type DatabaseInfo } from './bbolt.js';
export { decodeDeltaSnapshot, encodeDeltaSnapshot, revisionGroups, type DeltaEvent } from './delta.js';
export { replayDeltas, DefaultEtcdBinary } from './replay.js';
export { initialize, dbPath, type InitializationResult, type InitializationOptions } from './initialize.js';
export { BackupServer, NotLeaderError, fullSnapshotDue, snapshotJSON, type BackupServerOptions } from './server.js';
export {
  runEtcdbrctl,
  runCopy,
  parseEtcdbrctlArgs,
  ETCDBRCTL_USAGE,
  type EtcdbrctlSettings,
  type CopySettings,
} from './command.js';
export {
  copyBackups,
  backupsToCopy,
  waitForFinalSnapshot,
  assertStoreExists,
  type CopyOptions,
  type CopyResult,
} from './copy.js';
