// Runs the process kubelet from kube's command line until a signal stops it — what `gardener-local kubelet` does in a
// process of its own, and what a local machine does in its own process for its kubelet.service: the TLS bootstrap
// with the bootstrap token when the kubeconfig is missing or expired, then the Node registered and its Pods run as
// local processes; on abort the kubelet stops (its Pods' processes with it) and the run resolves.
import type { Logger } from '@gardener-ts/logging';
import { bootstrapClientCertificate } from './certificates/client-bootstrap.js';
import { kubeletOptions, parseKubeletCommandLine } from './cli-options.js';
import { startKubelet, type Kubelet } from './kubelet.js';

/** The command line is not one the kubelet understands (the CLI prints its usage). */
export class KubeletUsageError extends Error {}

export interface RunKubeletOptions {
  /** Stops the kubelet: the run resolves once it has stopped. */
  signal: AbortSignal;
  log: Logger;
  /** The gardener-ts workspace whose `dist/` the built-in image map runs, unless the command line names one. */
  workspace: string;
  /** Called once the kubelet runs. */
  onStarted?: (kubelet: Kubelet) => void;
}

/** Resolves when stopped by the signal; rejects when the kubelet cannot start (a KubeletUsageError for bad flags). */
export async function runKubelet(args: string[], o: RunKubeletOptions): Promise<void> {
  let commandLine;
  try {
    commandLine = parseKubeletCommandLine(args);
  } catch (err) {
    throw new KubeletUsageError((err as Error).message, { cause: err });
  }
  let kubelet: Kubelet | undefined;
  try {
    const { options, ignored } = await kubeletOptions(commandLine);
    if (ignored.length) o.log.info({ ignored }, 'Flags and settings without effect in local mode');
    await bootstrapClientCertificate({
      kubeconfig: options.kubeconfig as string,
      bootstrapKubeconfig: commandLine.bootstrapKubeconfig,
      certDir: commandLine.certDir,
      nodeName: options.nodeName,
      signal: o.signal,
      log: o.log.child({ node: options.nodeName }),
    });
    if (o.signal.aborted) return;
    // A kubelet inside a Pod with an address of its own (a local machine, its pod CIDR the block its Pod was given)
    // never hands that address to its Pods.
    const ownIP = process.env.GARDENER_LOCAL_POD_IP;
    kubelet = await startKubelet({
      ...options,
      ...(ownIP ? { reservedPodIPs: [...(options.reservedPodIPs ?? []), ownIP] } : {}),
      workspace: options.workspace ?? o.workspace,
      logger: o.log,
    });
    o.onStarted?.(kubelet);
    if (!o.signal.aborted) await new Promise((resolve) => o.signal.addEventListener('abort', resolve, { once: true }));
    await kubelet.stop();
  } catch (err) {
    await kubelet?.stop();
    // Stopped while it waited for its certificate or started: a normal end.
    if (o.signal.aborted) return;
    throw err;
  }
}
