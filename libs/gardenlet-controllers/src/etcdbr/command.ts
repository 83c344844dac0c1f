// `etcdbrctl` in local mode (the program druid's etcd-backup-restore image runs): `server` is the sidecar
// (server.ts), `initialize` validates and restores the data dir before etcd starts (initialize.ts). Both take
// etcdbrctl's flags as druid renders them; the store is `Local` only (the container from `--store-container` or
// `$STORAGE_CONTAINER`, etcd-backup-restore's `default.bkp` when neither is set), other providers are refused.
// Flags of etcdbrctl without a local meaning (leases, defragmentation, embedded etcd quota, ...) are accepted and
// ignored, each named once in the log.
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { parseDuration } from '@gardener-ts/api';
import { createLogger, LOG_LEVELS, type LogLevel } from '@gardener-ts/logging';
import { connectEtcd } from './etcd.js';
import { DefaultMaxBackups, type GarbageCollectionPolicy } from './gc.js';
import { initialize } from './initialize.js';
import { BackupServer } from './server.js';
import { compressionSuffix } from './snapshot.js';
import { LocalSnapStore, localStoreDirectory } from './store.js';

/** etcdbrctl's usage in local mode. */
export const ETCDBRCTL_USAGE = `Usage: etcdbrctl (server | initialize) [flags]
  --storage-provider=Local --store-prefix=P [--store-container=DIR]   the snapshot store DIR/P/v2 ($STORAGE_CONTAINER)
  --data-dir=DIR                         etcd's data dir (validated and restored by initialize)
  --endpoints=URL[,URL] [--cacert=F --cert=F --key=F]               etcd (server)
  --schedule=CRON                        full snapshot schedule, UTC (server; default "0 */1 * * *")
  --garbage-collection-policy=Exponential|LimitBased [--max-backups=N] [--garbage-collection-period=DURATION]
  --compress-snapshots=BOOL [--compression-policy=gzip|zlib]
  --server-port=N [--server-cert=F --server-key=F]                 the HTTP(S) API (server; default 8080)
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
} as const;

/** The settings of an etcdbrctl invocation. */
export interface EtcdbrctlSettings {
  command: 'server' | 'initialize';
  storeDirectory: string;
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
  if (command !== 'server' && command !== 'initialize')
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
  const port = Number(str('server-port') ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--server-port: invalid ${str('server-port')}`);
  return {
    command,
    storeDirectory: localStoreDirectory(container, str('store-prefix') ?? ''),
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
