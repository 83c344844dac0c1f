// `gardener-local cluster up|down|list|run`: whole local clusters (API server, controller manager, kubelet, service
// proxy) side by side under one data dir. `up` starts `run` as a detached supervisor and returns once it is ready.
import { createWriteStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { API_AUDIENCES } from '@gardener-ts/local-apiserver';
import { createLogger } from '@gardener-ts/logging';
import { Checklist } from './landscape/checklist.js';
import { setUpGarden, type Garden } from './landscape/garden.js';
import { landscapePort } from './landscape/port.js';
import { seedNameError, setUpSeed, stopSeed } from './landscape/seed.js';
import {
  clusterDown,
  clusterLayout,
  clusterList,
  clusterUp,
  runCluster,
  defaultComponents,
  readSettings,
  resolveNodeSettings,
  type NodeRequest,
} from '@gardener-ts/local-cluster';

export async function clusterCommand(args: string[], usage: string): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      ...NODE_OPTIONS,
      'data-dir': { type: 'string' },
      'image-map': { type: 'string' },
      'log-level': { type: 'string' },
    },
    allowPositionals: true,
    strict: true,
  });
  const [verb, name] = positionals;
  const dataDir = resolve(values['data-dir'] ?? '.local/clusters');
  const needsName = verb === 'up' || verb === 'down' || verb === 'run';
  if (!verb || !['up', 'down', 'list', 'run'].includes(verb) || (needsName && !name)) {
    process.stderr.write(usage);
    return 2;
  }
  const nodes = nodeRequest(values);
  switch (verb) {
    case 'up': {
      // Refused here, before anything starts, if the cluster exists with other nodes or zones.
      resolveNodeSettings(name, readSettings(clusterLayout(dataDir, name)), nodes);
      const passThrough = [
        ...(values['image-map'] ? ['--image-map', resolve(values['image-map'])] : []),
        ...(nodes.nodes !== undefined ? ['--nodes', String(nodes.nodes)] : []),
        ...(nodes.zones !== undefined ? ['--zones', nodes.zones.join(',')] : []),
      ];
      const result = await clusterUp({
        dataDir,
        name,
        supervisorCommand: [
          process.execPath,
          process.argv[1],
          'cluster',
          'run',
          name,
          '--data-dir',
          dataDir,
          ...passThrough,
        ],
      });
      process.stdout.write(
        `cluster ${name} ${result.alreadyRunning ? 'is already running' : 'is ready'} (pid ${result.pid})\n  export KUBECONFIG=${result.layout.kubeconfig}\n`,
      );
      return 0;
    }
    case 'down': {
      const { wasRunning } = await clusterDown(dataDir, name);
      process.stdout.write(`cluster ${name} ${wasRunning ? 'stopped' : 'was not running'}\n`);
      return 0;
    }
    case 'list': {
      const rows = clusterList(dataDir).map((c) => [
        c.name,
        c.ready ? 'Ready' : c.running ? 'Starting' : 'Stopped',
        c.server ?? '',
        c.kubeconfig,
      ]);
      const table = [['NAME', 'STATUS', 'SERVER', 'KUBECONFIG'], ...rows];
      const widths = table[0].map((_, i) => Math.max(...table.map((r) => r[i].length)));
      process.stdout.write(
        table
          .map((r) =>
            r
              .map((cell, i) => cell.padEnd(widths[i]))
              .join('   ')
              .trimEnd(),
          )
          .join('\n') + '\n',
      );
      return 0;
    }
    default:
      return runSupervisor(
        dataDir,
        name,
        values['image-map'],
        (values['log-level'] ?? 'info') as 'info',
        undefined,
        nodes,
      );
  }
}

const NODE_OPTIONS = { nodes: { type: 'string' }, zones: { type: 'string' } } as const;

/** `--nodes N --zones a,b,c`; left out, the cluster keeps what its first up chose. */
function nodeRequest(values: { nodes?: string; zones?: string }): NodeRequest {
  const request: NodeRequest = {};
  if (values.nodes !== undefined) {
    if (!/^\d+$/.test(values.nodes))
      throw new Error(`--nodes must be a whole number; got ${JSON.stringify(values.nodes)}`);
    request.nodes = Number(values.nodes);
  }
  if (values.zones !== undefined)
    request.zones = values.zones
      .split(',')
      .map((z) => z.trim())
      .filter(Boolean);
  return request;
}

/**
 * `gardener-local up`: the local landscape in the foreground — the runtime cluster `landscape` under `.local`
 * (kubeconfig `.local/landscape/kubeconfig`) with its API server on port 6443 unless told otherwise at the first start
 * (`landscapePort`), and on it the garden (Gardener's CRDs, the garden components from their charts, the local project); `--cluster-only` stops after
 * the cluster. The landscape prints a step checklist and logs JSON to DIR/logs/landscape.log.
 */
export async function upCommand(args: string[], usage: string): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      ...NODE_OPTIONS,
      'data-dir': { type: 'string' },
      port: { type: 'string' },
      'image-map': { type: 'string' },
      'log-level': { type: 'string' },
      'cluster-only': { type: 'boolean' },
    },
    strict: true,
  });
  const root = resolve(values['data-dir'] ?? '.local/landscape');
  const chosen = landscapePort(
    values.port,
    readSettings(clusterLayout(dirname(root), basename(root)))?.apiServerPort,
    root,
  );
  if ('error' in chosen) {
    // A malformed number gets the usage; a port the landscape cannot take gets the port to use.
    process.stderr.write(
      `gardener-local up: ${chosen.error}\n${values.port !== undefined && !/^\d+$/.test(values.port) ? usage : ''}`,
    );
    return 2;
  }
  const port = chosen.port;
  const imageMap = values['image-map'] ? resolve(values['image-map']) : undefined;
  const level = (values['log-level'] ?? 'info') as 'info';
  if (values['cluster-only'])
    return runSupervisor(dirname(root), basename(root), imageMap, level, port, nodeRequest(values));
  return runLandscape(root, imageMap, level, port, nodeRequest(values));
}

async function runSupervisor(
  dataDir: string,
  name: string,
  imageMap: string | undefined,
  level: 'debug' | 'info' | 'error',
  port?: number,
  nodes?: NodeRequest,
): Promise<number> {
  const layout = clusterLayout(dataDir, name);
  const logger = createLogger({ name: `cluster-${name}`, level });
  const cluster = await runCluster(layout, defaultComponents({ imageMapFile: imageMap }), logger, {
    apiServerPort: port,
    nodes,
  });
  await writeFile(layout.pid, `${process.pid}\n`);
  logger.info({ kubeconfig: layout.kubeconfig, server: cluster.context.apiServer.url }, 'cluster ready');
  process.stdout.write(
    `Local cluster ${name} ready at ${cluster.context.apiServer.url}\n  export KUBECONFIG=${layout.kubeconfig}\n`,
  );
  await untilSignalled(() => cluster.stop());
  logger.info('cluster stopped');
  return 0;
}

/**
 * `gardener-local seed up|down NAME`: another seed for the running landscape of `--data-dir` (landscape/seed.ts).
 * `up` prints the steps as a checklist and returns once the Seed is ready and provider-local runs on it.
 */
export async function seedCommand(args: string[], usage: string): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { 'data-dir': { type: 'string' }, 'image-map': { type: 'string' } },
    allowPositionals: true,
    strict: true,
  });
  const [verb, name] = positionals;
  if ((verb !== 'up' && verb !== 'down') || !name || positionals.length > 2) {
    process.stderr.write(usage);
    return 2;
  }
  const root = resolve(values['data-dir'] ?? '.local/landscape');
  const invalid = seedNameError(name, root);
  if (invalid) {
    process.stderr.write(`gardener-local seed ${verb}: ${invalid}\n`);
    return 2;
  }
  if (verb === 'down') {
    process.stdout.write(`seed ${name} ${(await stopSeed(root, name)) ? 'stopped' : 'was not running'}\n`);
    return 0;
  }
  const clusters = dirname(root);
  const logFile = join(root, 'logs', 'landscape.log');
  const checklist = new Checklist(process.stdout);
  try {
    const kubeconfig = await setUpSeed({
      workspace: process.cwd(),
      landscapeRoot: root,
      name,
      checklist,
      logFile,
      supervisorCommand: [
        process.execPath,
        process.argv[1],
        'cluster',
        'run',
        name,
        '--data-dir',
        clusters,
        ...(values['image-map'] ? ['--image-map', resolve(values['image-map'])] : []),
      ],
    });
    process.stdout.write(
      `Seed ${name} ready; stop it with: gardener-local seed down ${name}${values['data-dir'] ? ` --data-dir ${root}` : ''}\n  its cluster: export KUBECONFIG=${kubeconfig}\n`,
    );
    return 0;
  } catch (err) {
    process.stderr.write(`gardener-local seed up: ${(err as Error).message}\n`);
    return 1;
  }
}

/** The whole landscape: the runtime cluster, then the garden on it, as a checklist; JSON logs go to a file. */
async function runLandscape(
  root: string,
  imageMap: string | undefined,
  level: 'debug' | 'info' | 'error',
  port?: number,
  nodes?: NodeRequest,
): Promise<number> {
  const layout = clusterLayout(dirname(root), basename(root));
  const logFile = join(root, 'logs', 'landscape.log');
  await mkdir(dirname(logFile), { recursive: true, mode: 0o700 });
  const logger = createLogger({
    name: 'landscape',
    level,
    destination: createWriteStream(logFile, { flags: 'a', mode: 0o600 }),
  });
  const checklist = new Checklist(process.stdout);
  process.stdout.write(`Local Gardener landscape in ${root} (logs: ${logFile})\n`);
  let cluster: Awaited<ReturnType<typeof runCluster>> | undefined;
  let starting: Promise<unknown> | undefined;
  let garden: Garden = {};
  // Ctrl-C or SIGTERM while a step runs: the steps cannot be cancelled, but every process the cluster has started
  // (the kubelet's Pods included) is stopped before exiting, as after "ready".
  let stopping: Promise<void> | undefined;
  const stopEarly = (signal: NodeJS.Signals) => {
    process.stdout.write(`\n${signal}: stopping the landscape\n`);
    stopping = (async () => {
      await starting?.catch(() => undefined);
      await cluster?.stop().catch((err: unknown) => logger.error({ err }, 'stopping the landscape failed'));
      process.stdout.write('landscape stopped\n');
      process.exit(signal === 'SIGINT' ? 130 : 143);
    })();
  };
  process.once('SIGTERM', stopEarly);
  process.once('SIGINT', stopEarly);
  try {
    await checklist.step(
      'runtime cluster landscape (API server, controller manager, kubelet, service proxy)',
      async () => {
        const run = runCluster(layout, defaultComponents({ imageMapFile: imageMap }), logger, {
          apiServerPort: port,
          nodes,
          // The runtime cluster is the garden: extensions reach it with tokens for the audience `gardener`.
          apiAudiences: [...API_AUDIENCES, 'gardener'],
        });
        starting = run;
        cluster = await run;
        await writeFile(layout.pid, `${process.pid}\n`);
        return cluster.context.apiServer.url;
      },
      logFile,
    );
    garden = await setUpGarden({
      workspace: process.cwd(),
      kubeconfig: layout.kubeconfig,
      stateDir: root,
      checklist,
      logFile,
      servicesFile: layout.services,
    });
  } catch (err) {
    // A step that failed because the signal stopped the cluster under it: the stop ends the process (130/143).
    if (stopping) return stopping.then(() => 1);
    process.off('SIGTERM', stopEarly);
    process.off('SIGINT', stopEarly);
    logger.error({ err }, 'landscape failed');
    await cluster?.stop();
    process.stderr.write(`gardener-local up: ${(err as Error).message}\n`);
    return 1;
  }
  process.off('SIGTERM', stopEarly);
  process.off('SIGINT', stopEarly);
  process.stdout.write(
    `Gardener landscape ready at ${cluster!.context.apiServer.url}; stop it with Ctrl-C\n  export KUBECONFIG=${layout.kubeconfig}\n` +
      (garden.natsUrl ? `  export GARDENER_NATS_URL=${garden.natsUrl}\n` : ''),
  );
  await untilSignalled(() => cluster!.stop());
  process.stdout.write('landscape stopped\n');
  return 0;
}

function untilSignalled(stop: () => Promise<void>): Promise<void> {
  return new Promise<void>((done) => {
    const onSignal = () => void stop().then(done);
    process.once('SIGTERM', onSignal);
    process.once('SIGINT', onSignal);
  });
}
