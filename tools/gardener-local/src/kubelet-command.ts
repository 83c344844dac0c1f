// `gardener-local kubelet`: the substrate's process kubelet on its own, as a machine runs it — kube's kubelet flags
// (`--kubeconfig`, `--bootstrap-kubeconfig`, `--config`, `--hostname-override`, `--root-dir`, `--node-labels`,
// `--register-with-taints`, ...; see local-cluster's cli-options.ts), TLS bootstrap with the bootstrap token when the
// kubeconfig is missing or expired, then the Node registered and its Pods run as local processes until SIGTERM/SIGINT.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLogger } from '@gardener-ts/logging';
import { KubeletUsageError, KUBELET_USAGE, runKubelet } from '@gardener-ts/local-cluster';

export const KUBELET_COMMAND_USAGE = `  gardener-local kubelet --kubeconfig FILE [--bootstrap-kubeconfig FILE] [--config FILE] [--rootfs DIR] ...
                                         the process kubelet alone (kube's flags; see 'gardener-local kubelet --help')
`;

/** Runs the kubelet in the foreground; resolves to the exit code. */
export async function kubeletCommand(args: string[]): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(`gardener-local ${KUBELET_USAGE.replace(/^Usage:\n\s*/, '')}`);
    return 0;
  }
  const log = createLogger({ name: 'kubelet', level: process.env.LOG_LEVEL === 'debug' ? 'debug' : 'info' });
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  try {
    await runKubelet(args, {
      signal: stop.signal,
      log,
      workspace: defaultWorkspace(),
      onStarted: (kubelet) =>
        process.stdout.write(`Kubelet of node ${kubelet.nodeName} running (port ${kubelet.port})\n`),
    });
    return 0;
  } catch (err) {
    if (err instanceof KubeletUsageError) {
      process.stderr.write(`gardener-local kubelet: ${err.message}\n${KUBELET_USAGE}`);
      return 2;
    }
    log.debug({ err }, 'The kubelet failed');
    process.stderr.write(`gardener-local kubelet: ${(err as Error).message}${causes(err)}\n`);
    return 1;
  } finally {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
  }
}

/** The workspace this CLI bundle was built in (`<workspace>/dist/tools/gardener-local/cli.js`), else the cwd. */
function defaultWorkspace(): string {
  const workspace = fileURLToPath(new URL('../../../', import.meta.url));
  return existsSync(join(workspace, 'dist/tools/gardener-local/cli.js')) ? workspace : process.cwd();
}

function causes(err: unknown): string {
  let text = '';
  for (let cause = (err as Error).cause; cause; cause = (cause as Error).cause)
    text += `: ${(cause as Error).message ?? String(cause)}`;
  return text;
}
