// The life of every gardener-ts process: arguments, configuration, logs, probes, metrics, signals.
import { parseArgs } from 'node:util';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { ConfigError, loadComponentConfig, type ComponentConfigSpec } from '@gardener-ts/component-config';
import { createLogger, type Logger } from '@gardener-ts/logging';
import { Checks } from './health.js';
import { closeServers, healthHandlers, metricsHandlers, startServers, type ServedEndpoints } from './http-servers.js';
import { VERSION } from '../version.js';

/** What a component's setup gets: its configuration and the shared runtime pieces. */
export interface ComponentContext<T> {
  config: T;
  log: Logger;
  metrics: Registry;
  /** Liveness checks (`/healthz`). */
  health: Checks;
  /** Readiness checks (`/readyz`). */
  ready: Checks;
  /** Where the probes and metrics ended up listening (ports resolved). */
  endpoints: ServedEndpoints;
  /** Aborted when the component is asked to stop. */
  signal: AbortSignal;
  /**
   * Ends the component because its work cannot go on (e.g. leadership lost): stops it as on SIGTERM, then exits 1.
   * Ignored while already stopping.
   */
  fail?: (err: unknown) => void;
}

export interface ComponentDefinition<T> {
  spec: ComponentConfigSpec<T>;
  /** Starts the component's work; the returned function stops it. */
  setup: (ctx: ComponentContext<T>) => Promise<(() => Promise<void>) | void>;
}

export interface RunOptions {
  argv?: string[];
  /** Called instead of process.exit, for tests. */
  exit?: (code: number) => void;
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream;
}

const USAGE = (name: string) =>
  `Usage: ${name} --config FILE\n\n  --config FILE   component configuration file (YAML or JSON)\n  --version       print the version and exit\n  --help          print this help and exit\n`;

/**
 * Runs a component until SIGTERM or SIGINT: exits 0 after a graceful shutdown, 1 on a bad configuration or a
 * failed start. A second signal during shutdown exits at once.
 */
export async function runComponent<T>(definition: ComponentDefinition<T>, options: RunOptions = {}): Promise<void> {
  const { spec } = definition;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;

  let args: { config?: string; version?: boolean; help?: boolean };
  try {
    args = parseArgs({
      args: options.argv ?? process.argv.slice(2),
      options: { config: { type: 'string' }, version: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
    }).values;
  } catch (err) {
    stderr.write(`${(err as Error).message}\n${USAGE(spec.component)}`);
    return exit(2);
  }
  if (args.help) {
    stdout.write(USAGE(spec.component));
    return exit(0);
  }
  if (args.version) {
    stdout.write(`${spec.component} ${VERSION}\n`);
    return exit(0);
  }
  if (!args.config) {
    stderr.write(`--config is required\n${USAGE(spec.component)}`);
    return exit(2);
  }

  let loaded;
  try {
    loaded = await loadComponentConfig(spec, args.config);
  } catch (err) {
    stderr.write(`${spec.component}: ${err instanceof ConfigError ? err.message : String(err)}\n`);
    return exit(1);
  }
  const settings = spec.runtime(loaded.config);
  const log = createLogger({
    name: spec.component,
    level: settings.logLevel,
    format: settings.logFormat,
    destination: stderr,
  });
  if (loaded.ignoredFields.length > 0) {
    log.warn({ fields: loaded.ignoredFields }, 'Ignoring configuration fields that are not supported yet');
  }

  const metrics = new Registry();
  collectDefaultMetrics({ register: metrics });
  const health = new Checks();
  const ready = new Checks();
  health.add('ping', () => true);
  let started = false;
  ready.add('started', () => started);
  const abort = new AbortController();

  let servers;
  try {
    servers = await startServers(
      { healthProbes: settings.healthProbes, metrics: settings.metrics },
      { healthProbes: healthHandlers(health, ready), metrics: metricsHandlers(metrics) },
    );
  } catch (err) {
    log.error({ err }, 'Failed to start the health and metrics servers');
    return exit(1);
  }

  let stopWork: (() => Promise<void>) | void = undefined;
  let stopping = false;
  const shutdown = async (signal: string, code = 0) => {
    if (stopping) {
      log.error({ signal }, 'Second signal received, exiting immediately');
      return exit(1);
    }
    stopping = true;
    log.info({ signal }, 'Shutting down');
    abort.abort();
    try {
      await stopWork?.();
    } catch (err) {
      log.error({ err }, 'Error while stopping');
    }
    await closeServers(servers.servers);
    log.info('Stopped');
    log.flush();
    exit(code);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  try {
    stopWork = await definition.setup({
      config: loaded.config,
      log,
      metrics,
      health,
      ready,
      endpoints: servers.addresses,
      signal: abort.signal,
      fail: (err) => {
        if (stopping) return;
        log.error({ err }, 'Component failed, shutting down');
        void shutdown('failure', 1);
      },
    });
  } catch (err) {
    log.error({ err }, 'Failed to start');
    await closeServers(servers.servers);
    return exit(1);
  }
  started = true;
  log.info(
    { version: VERSION, healthProbes: servers.addresses.healthProbes, metrics: servers.addresses.metrics },
    'Started',
  );
}
