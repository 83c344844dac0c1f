// `etcdbrctl` in local mode (the program druid's etcd-backup-restore image runs): `server` is the sidecar
// (server.ts), `initialize` validates and restores the data dir before etcd starts (initialize.ts), `copy` copies the
// snapshots of a source store into the store (copy.ts; druid's EtcdCopyBackupsTask Job, the source from the
// `--source-*` flags and `$SOURCE_STORAGE_CONTAINER`). All take etcdbrctl's flags as druid renders them; the store is
// `Local` only (the container from `--store-container` or `$STORAGE_CONTAINER`, etcd-backup-restore's `default.bkp`
// when neither is set), other providers are refused.
// Flags of etcdbrctl without a local meaning (leases, defragmentation, embedded etcd quota, ...) are accepted and
// ignored, each named once in the log.
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { parseDuration } from '@gardener-ts/api';
import { createLogger, LOG_LEVELS, type LogLevel } from '@gardener-ts/logging';
import { assertStoreExists, copyBackups, waitForFinalSnapshot } from './copy.js';
import { connectEtcd } from './etcd.js';
import { DefaultMaxBackups, type GarbageCollectionPolicy } from './gc.js';
import { initialize } from './initialize.js';
import { BackupServer } from './server.js';
import { compressionSuffix } from './snapshot.js';
import { LocalSnapStore, localStoreDirectory } from './store.js';

/** etcdbrctl's usage in local mode. */
export const ETCDBRCTL_USAGE = `Usage: etcdbrctl (server | initialize | copy) [flags]
  --storage-provider=Local --store-prefix=P [--store-container=DIR]   the snapshot store DIR/P/v2 ($STORAGE_CONTAINER)
  --data-dir=DIR                         etcd's data dir (validated and restored by initialize)
  --endpoints=URL[,URL] [--cacert=F --cert=F --key=F]               etcd (server)
  --schedule=CRON                        full snapshot schedule, UTC (server; default "0 */1 * * *")
  --garbage-collection-policy=Exponential|LimitBased [--max-backups=N] [--garbage-collection-period=DURATION]
  --compress-snapshots=BOOL [--compression-policy=gzip|zlib]
  --server-port=N [--server-cert=F --server-key=F]                 the HTTP(S) API (server; default 8080)
  --source-storage-provider=Local --source-store-prefix=P [--source-store-container=DIR]
                                         the store copy reads ($SOURCE_STORAGE_CONTAINER)
  --max-backups-to-copy=N --max-backup-age=DAYS                    what copy copies (default: everything)
  --wait-for-final-snapshot=BOOL [--wait-for-final-snapshot-timeout=DURATION]
`;

const OPTIONS = {
  'storage-provider': { type: 'string' },
  'store-prefix': { type: 'string' },
  'store-container': { type: 'string' },
  'data-dir': { type: 'string' },
  endpoints: { type: 'string' },
  cacert: { type: 'string' },
  cert: { type: 'string' },
  key: { type: 'string' },
  schedule: { type: 'string' },
  'delta-snapshot-period': { type: 'string' },
  'garbage-collection-policy': { type: 'string' },
  'max-backups': { type: 'string' },
  'garbage-collection-period': { type: 'string' },
  'compress-snapshots': { type: 'string' },
  'compression-policy': { type: 'string' },
  'server-port': { type: 'string' },
  'server-cert': { type: 'string' },
  'server-key': { type: 'string' },
  'etcd-snapshot-timeout': { type: 'string' },
  'log-level': { type: 'string' },
  'source-storage-provider': { type: 'string' },
  'source-store-prefix': { type: 'string' },
  'source-store-container': { type: 'string' },
  'max-backups-to-copy': { type: 'string' },
  'max-backup-age': { type: 'string' },
  'wait-for-final-snapshot': { type: 'string' },
  'wait-for-final-snapshot-timeout': { type: 'string' },
} as const;

/** What `copy` copies from where (etcdbrctl copy's flags). */
export interface CopySettings {
  /** The source store's directory `<source container>/<source prefix>/v2`. */
  sourceStoreDirectory: string;
  /** The source container (the bucket's directory), which must exist. */
  sourceContainer: string;
  /** `--max-backups-to-copy`: the latest full snapshots copied; undefined: all. */
  maxBackups?: number;
  /** `--max-backup-age` in days; undefined: any age. */
  maxBackupAgeDays?: number;
  waitForFinalSnapshot: boolean;
  /** `--wait-for-final-snapshot-timeout`; 0: forever. */
  waitForFinalSnapshotTimeoutMs: number;
}

/** The settings of an etcdbrctl invocation. */
export interface EtcdbrctlSettings {
  command: 'server' | 'initialize' | 'copy';
  storeDirectory: string;
  /** The source of `copy`. */
  copy?: CopySettings;
  dataDir: string;
  endpoints: string[];
  caFile?: string;
  certFile?: string;
  keyFile?: string;
  schedule: string;
  deltaSnapshotPeriodMs: number;
  garbageCollectionPolicy: GarbageCollectionPolicy;
  maxBackups: number;
  garbageCollectionPeriodMs: number;
  compressionSuffix: string;
  port: number;
  serverCertFile?: string;
  serverKeyFile?: string;
  snapshotTimeoutMs: number;
  /** `--log-level` (info by default). */
  logLevel: LogLevel;
  /** Flags accepted without effect. */
  ignored: string[];
}

/** A Go duration flag in milliseconds; throws naming the flag when it is no duration. */
function duration(flag: string, value: string): number {
  const ms = parseDuration(value);
  if (ms === undefined) throw new Error(`--${flag}: invalid duration ${JSON.stringify(value)}`);
  return ms;
}

function logLevel(value: string): LogLevel {
  if (!(LOG_LEVELS as readonly string[]).includes(value))
    throw new Error(`--log-level: unknown level ${JSON.stringify(value)}`);
  return value as LogLevel;
}

const bool = (value: string | undefined, fallback: boolean) => (value === undefined ? fallback : value === 'true');

/** Parses etcdbrctl's argv (pure but for `env`); throws on what local mode cannot do. */
export function parseEtcdbrctlArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): EtcdbrctlSettings {
  const [command, ...rest] = argv;
  if (command !== 'server' && command !== 'initialize' && command !== 'copy')
    throw new Error(`unknown command ${JSON.stringify(command ?? '')}\n${ETCDBRCTL_USAGE}`);
  const { values, tokens } = parseArgs({ args: rest, options: OPTIONS, strict: false, tokens: true });
  const ignored = tokens
    .filter((t) => t.kind === 'option' && !(t.name in OPTIONS))
    .map((t) => `--${(t as { name: string }).name}`);
  const str = (name: keyof typeof OPTIONS) => values[name] as string | undefined;
  const provider = str('storage-provider') ?? 'Local';
  if (provider !== 'Local' && provider !== 'local')
    throw new Error(`storage provider ${JSON.stringify(provider)} is not supported in local mode (only Local)`);
  const container = str('store-container') || env.STORAGE_CONTAINER || 'default.bkp';
  const policy = str('garbage-collection-policy') ?? 'Exponential';
  if (policy !== 'Exponential' && policy !== 'LimitBased')
    throw new Error(`unknown garbage collection policy ${JSON.stringify(policy)}`);
  const maxBackups = Number(str('max-backups') ?? DefaultMaxBackups);
  if (!Number.isInteger(maxBackups) || maxBackups < 1) throw new Error(`--max-backups: invalid ${str('max-backups')}`);
  const copy = command === 'copy' ? copySettings(str, env) : undefined;
  const port = Number(str('server-port') ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--server-port: invalid ${str('server-port')}`);
  return {
    command,
    storeDirectory: localStoreDirectory(container, str('store-prefix') ?? ''),
    ...(copy ? { copy } : {}),
    dataDir: str('data-dir') ?? 'default.etcd',
    endpoints: (str('endpoints') ?? 'http://localhost:2379').split(',').filter(Boolean),
    ...(str('cacert') ? { caFile: str('cacert') } : {}),
    ...(str('cert') ? { certFile: str('cert') } : {}),
    ...(str('key') ? { keyFile: str('key') } : {}),
    schedule: str('schedule') ?? '0 */1 * * *',
    deltaSnapshotPeriodMs: duration('delta-snapshot-period', str('delta-snapshot-period') ?? '20s'),
    garbageCollectionPolicy: policy,
    maxBackups,
    garbageCollectionPeriodMs: duration('garbage-collection-period', str('garbage-collection-period') ?? '1m'),
    compressionSuffix: compressionSuffix(bool(str('compress-snapshots'), false), str('compression-policy') ?? 'gzip'),
    port,
    ...(str('server-cert') ? { serverCertFile: str('server-cert') } : {}),
    ...(str('server-key') ? { serverKeyFile: str('server-key') } : {}),
    snapshotTimeoutMs: duration('etcd-snapshot-timeout', str('etcd-snapshot-timeout') ?? '15m'),
    logLevel: logLevel(str('log-level') ?? 'info'),
    ignored,
  };
}

/** A non-negative integer flag (undefined when not set); throws naming the flag otherwise. */
function count(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${flag}: invalid ${JSON.stringify(value)}`);
  return n;
}

// The source of `copy`: Local only, its container from the flag or $SOURCE_STORAGE_CONTAINER (druid's variable).
function copySettings(str: (name: keyof typeof OPTIONS) => string | undefined, env: NodeJS.ProcessEnv): CopySettings {
  const provider = str('source-storage-provider') ?? 'Local';
  if (provider !== 'Local' && provider !== 'local')
    throw new Error(`source storage provider ${JSON.stringify(provider)} is not supported in local mode (only Local)`);
  const container = str('source-store-container') || env.SOURCE_STORAGE_CONTAINER;
  if (!container)
    throw new Error('copy needs the source container: --source-store-container or $SOURCE_STORAGE_CONTAINER');
  const maxBackups = count('max-backups-to-copy', str('max-backups-to-copy'));
  const maxBackupAgeDays = count('max-backup-age', str('max-backup-age'));
  const timeout = str('wait-for-final-snapshot-timeout');
  return {
    sourceStoreDirectory: localStoreDirectory(container, str('source-store-prefix') ?? ''),
    sourceContainer: container,
    ...(maxBackups !== undefined ? { maxBackups } : {}),
    ...(maxBackupAgeDays !== undefined ? { maxBackupAgeDays } : {}),
    waitForFinalSnapshot: bool(str('wait-for-final-snapshot'), false),
    waitForFinalSnapshotTimeoutMs:
      timeout === undefined || timeout === '0' ? 0 : duration('wait-for-final-snapshot-timeout', timeout),
  };
}

/** Runs `etcdbrctl copy` (see copy.ts); resolves with the exit code. */
export async function runCopy(
  settings: EtcdbrctlSettings,
  log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void },
  options: { finalSnapshotIntervalMs?: number } = {},
): Promise<number> {
  const copy = settings.copy!;
  try {
    await assertStoreExists(copy.sourceContainer, 'the source store container');
    await assertStoreExists(copy.sourceStoreDirectory, 'the source store');
    const source = new LocalSnapStore(copy.sourceStoreDirectory);
    if (copy.waitForFinalSnapshot) {
      log.info({ timeoutMs: copy.waitForFinalSnapshotTimeoutMs }, 'Waiting for the final full snapshot');
      const final = await waitForFinalSnapshot(source, {
        timeoutMs: copy.waitForFinalSnapshotTimeoutMs,
        ...(options.finalSnapshotIntervalMs !== undefined ? { intervalMs: options.finalSnapshotIntervalMs } : {}),
      });
      log.info({}, final ? 'Final full snapshot found' : 'Timed out waiting for the final full snapshot: copying');
    }
    const result = await copyBackups(source, new LocalSnapStore(settings.storeDirectory), {
      ...(copy.maxBackups !== undefined ? { maxBackups: copy.maxBackups } : {}),
      ...(copy.maxBackupAgeDays !== undefined ? { maxBackupAgeDays: copy.maxBackupAgeDays } : {}),
      log,
    });
    log.info({ copied: result.copied.length, skipped: result.skipped.length }, 'Backups copied');
    return 0;
  } catch (err) {
    const cause = (err as Error).cause as Error | undefined;
    log.error(
      { err: (err as Error).message, ...(cause ? { cause: cause.message } : {}) },
      'Copying the backups failed',
    );
    return 1;
  }
}

/** Runs etcdbrctl; resolves with the exit code (`server` runs until SIGTERM or SIGINT). */
export async function runEtcdbrctl(argv: string[]): Promise<number> {
  let settings: EtcdbrctlSettings;
  try {
    settings = parseEtcdbrctlArgs(argv);
  } catch (err) {
    process.stderr.write(`etcdbrctl: ${(err as Error).message}\n`);
    return 2;
  }
  const log = createLogger({ name: 'etcdbrctl', level: settings.logLevel });
  if (settings.ignored.length) log.info({ flags: settings.ignored }, 'Flags without a local meaning are ignored');
  if (settings.command === 'copy') return runCopy(settings, log);
  const store = new LocalSnapStore(settings.storeDirectory);
  if (settings.command === 'initialize') {
    try {
      const result = await initialize(settings.dataDir, store, log, {
        ...(process.env.POD_IP ? { host: process.env.POD_IP } : {}),
      });
      log.info({ result }, 'Initialization succeeded');
      return 0;
    } catch (err) {
      log.error({ err: (err as Error).message }, 'Initialization failed');
      return 1;
    }
  }
  const etcd = await connectEtcd({
    endpoints: settings.endpoints,
    ...(settings.caFile ? { caFile: settings.caFile } : {}),
    ...(settings.certFile ? { certFile: settings.certFile } : {}),
    ...(settings.keyFile ? { keyFile: settings.keyFile } : {}),
    ...(process.env.POD_IP ? { localAddress: process.env.POD_IP } : {}),
  });
  const tls =
    settings.serverCertFile && settings.serverKeyFile
      ? { cert: await readFile(settings.serverCertFile), key: await readFile(settings.serverKeyFile) }
      : undefined;
  const server = new BackupServer({
    store,
    etcd,
    schedule: settings.schedule,
    garbageCollectionPolicy: settings.garbageCollectionPolicy,
    maxBackups: settings.maxBackups,
    garbageCollectionPeriodMs: settings.garbageCollectionPeriodMs,
    deltaSnapshotPeriodMs: settings.deltaSnapshotPeriodMs,
    compressionSuffix: settings.compressionSuffix,
    snapshotTimeoutMs: settings.snapshotTimeoutMs,
    port: settings.port,
    ...(tls ? { tls } : {}),
    log,
  });
  await server.start();
  await new Promise<void>((resolve) => {
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
  });
  await server.stop();
  return 0;
}
