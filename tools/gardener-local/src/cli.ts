// gardener-local: runs the local-mode substrate. `apiserver` serves a local Kubernetes API server from a data dir;
// `cluster` runs whole local clusters (see cluster-command.ts).
// tsyringe (under @peculiar/x509) needs the Reflect metadata polyfill before it loads; with the bundle split into
// chunks, the entry loads it first.
import 'reflect-metadata';
import { runProgram } from './program.js';
import { APISERVER_USAGE, CLUSTER_USAGE, COMPONENT_USAGE, SEED_USAGE, SHOOT_USAGE } from './usage.js';

// Each command loads only its own code (the build splits the bundle at these imports). The Pods of local mode do not
// run this CLI: each image has a program of its own (images/*.ts), bundled alone so it holds only what it runs.

const USAGE = `Usage:
${APISERVER_USAGE}  gardener-local up [--data-dir DIR] [--port N] [--image-map FILE] [--nodes N] [--zones A,B,...] [--cluster-only]
                           the local Gardener landscape in the foreground, as a step checklist: the runtime
                           cluster (API server on --port, default 6443, chosen at the first up and kept: a
                           later up with another port is refused; controller manager, kubelets, service proxy)
                           kept in DIR (default .local/landscape), then Gardener's CRDs, the garden components from their
                           charts and the local project; --cluster-only stops after the cluster; --nodes and
                           --zones as for cluster up
${CLUSTER_USAGE}${SEED_USAGE}${COMPONENT_USAGE}${SHOOT_USAGE}  gardener-local etcdbrctl (server | initialize) [flags]
                           etcd-druid's etcd-backup-restore (etcdbrctl) with a Local store: full snapshots, garbage
                           collection and its HTTP API (server), data dir validation and restore (initialize)

The API server serves HTTPS on 127.0.0.1 with a CA it generates in DIR/pki and writes an admin kubeconfig
to DIR/kubeconfig (not with --tls-cert-file or --client-ca-file: then the given certificates are what it serves
and trusts). It runs until SIGTERM or SIGINT.
`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h') {
    process.stdout.write(USAGE);
    return command ? 0 : 2;
  }
  if (command === 'kubelet') return (await import('./kubelet-command.js')).kubeletCommand(rest);
  if (command === 'controller-manager')
    return (await import('./component-commands.js')).controllerManagerCommand(rest, USAGE);
  if (command === 'scheduler') return (await import('./component-commands.js')).schedulerCommand(rest, USAGE);
  if (command === 'proxy') return (await import('./component-commands.js')).proxyCommand(rest, USAGE);
  if (command === 'etcdbrctl') return (await import('@gardener-ts/gardenlet-controllers/etcdbr')).runEtcdbrctl(rest);
  if (command === 'cluster' || command === 'up' || command === 'shoot' || command === 'seed') {
    try {
      if (command === 'shoot') return await (await import('./shoot/shoot-command.js')).shootCommand(rest, USAGE);
      const { clusterCommand, seedCommand, upCommand } = await import('./cluster-command.js');
      if (command === 'seed') return await seedCommand(rest, USAGE);
      return await (command === 'up' ? upCommand(rest, USAGE) : clusterCommand(rest, USAGE));
    } catch (err) {
      process.stderr.write(`gardener-local ${command}: ${(err as Error).message}\n`);
      return 1;
    }
  }
  if (command !== 'apiserver') {
    process.stderr.write(`unknown command ${JSON.stringify(command)}\n${USAGE}`);
    return 2;
  }
  return (await import('./apiserver-command.js')).apiserverCommand(rest, USAGE);
}

runProgram('gardener-local', main);
