// gardener-local: runs the local-mode substrate. `apiserver` serves a local Kubernetes API server from a data dir;
// `cluster` runs whole local clusters (see cluster-command.ts).
import { APISERVER_USAGE, apiserverCommand } from './apiserver-command.js';
import { CLUSTER_USAGE, clusterCommand, upCommand } from './cluster-command.js';
import { COMPONENT_USAGE, controllerManagerCommand, proxyCommand, schedulerCommand } from './component-commands.js';
import { kubeletCommand } from './kubelet-command.js';
import { SHOOT_USAGE, shootCommand } from './shoot/shoot-command.js';

const USAGE = `Usage:
${APISERVER_USAGE}  gardener-local up [--data-dir DIR] [--port N] [--image-map FILE] [--nodes N] [--zones A,B,...] [--cluster-only]
                           the local Gardener landscape in the foreground, as a step checklist: the runtime
                           cluster (API server on port 6443, controller manager, kubelets, service proxy) kept in
                           DIR (default .local/landscape), then Gardener's CRDs, the garden components from their
                           charts and the local project; --cluster-only stops after the cluster; --nodes and
                           --zones as for cluster up
${CLUSTER_USAGE}${COMPONENT_USAGE}${SHOOT_USAGE}
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
  if (command === 'kubelet') return kubeletCommand(rest);
  if (command === 'controller-manager') return controllerManagerCommand(rest, USAGE);
  if (command === 'scheduler') return schedulerCommand(rest, USAGE);
  if (command === 'proxy') return proxyCommand(rest, USAGE);
  if (command === 'cluster' || command === 'up' || command === 'shoot') {
    try {
      if (command === 'shoot') return await shootCommand(rest, USAGE);
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
  return apiserverCommand(rest, USAGE);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`gardener-local: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);
