// `gardener-local kubelet`: the substrate's process kubelet on its own, as a machine runs it — kube's kubelet flags
// (`--kubeconfig`, `--bootstrap-kubeconfig`, `--config`, `--hostname-override`, `--root-dir`, `--node-labels`,
// `--register-with-taints`, ...; see local-cluster's cli-options.ts), TLS bootstrap with the bootstrap token when the
// kubeconfig is missing or expired, then the Node registered and its Pods run as local processes until SIGTERM/SIGINT.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLogger } from '@gardener-ts/logging';
import {
  bootstrapClientCertificate,
  kubeletOptions,
  parseKubeletCommandLine,
  startKubelet,
  KUBELET_USAGE,
  type Kubelet,
} from '@gardener-ts/local-cluster';

export const KUBELET_COMMAND_USAGE = `  gardener-local kubelet --kubeconfig FILE [--bootstrap-kubeconfig FILE] [--config FILE] [--rootfs DIR] ...
                                         the process kubelet alone (kube's flags; see 'gardener-local kubelet --help')
`;

/** Runs the kubelet in the foreground; resolves to the exit code. */
export async function kubeletCommand(args: string[]): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(`gardener-local ${KUBELET_USAGE.replace(/^Usage:\n\s*/, '')}`);
    return 0;
  }
  let commandLine;
  try {
    commandLine = parseKubeletCommandLine(args);
  } catch (err) {
    process.stderr.write(`gardener-local kubelet: ${(err as Error).message}\n${KUBELET_USAGE}`);
    return 2;
  }
  const log = createLogger({ name: 'kubelet', level: process.env.LOG_LEVEL === 'debug' ? 'debug' : 'info' });
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  let kubelet: Kubelet | undefined;
  try {
    const { options, ignored } = await kubeletOptions(commandLine);
    if (ignored.length) log.info({ ignored }, 'Flags and settings without effect in local mode');
    const kubeconfig = options.kubeconfig as string;
    await bootstrapClientCertificate({
      kubeconfig,
      bootstrapKubeconfig: commandLine.bootstrapKubeconfig,
      certDir: commandLine.certDir,
      nodeName: options.nodeName,
      signal: stop.signal,
      log: log.child({ node: options.nodeName }),
    });
    if (stop.signal.aborted) return 0;
    kubelet = await startKubelet({ ...options, workspace: options.workspace ?? defaultWorkspace(), logger: log });
    process.stdout.write(`Kubelet of node ${kubelet.nodeName} running (port ${kubelet.port})\n`);
    if (!stop.signal.aborted)
      await new Promise((resolve) => stop.signal.addEventListener('abort', resolve, { once: true }));
    await kubelet.stop();
    return 0;
  } catch (err) {
    await kubelet?.stop();
    // Stopped while it waited for its certificate or started: a normal end.
    if (stop.signal.aborted) return 0;
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
