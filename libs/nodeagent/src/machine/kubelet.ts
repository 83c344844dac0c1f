// The kubelet on a local machine. Gardener's OperatingSystemConfig (its `original` kubelet component) gives every node
// a `kubelet.service` whose ExecStart is `/opt/bin/kubelet --bootstrap-kubeconfig=/var/lib/kubelet/kubeconfig-bootstrap
// --config=/var/lib/kubelet/config/kubelet --kubeconfig=/var/lib/kubelet/kubeconfig-real --node-labels=... --v=2
// $KUBELET_EXTRA_ARGS`, the KubeletConfiguration at `/var/lib/kubelet/config/kubelet` and the kubelet's CA at
// `/var/lib/kubelet/ca.crt`. On a local machine `/opt/bin/kubelet` is the substrate's process kubelet
// (`gardener-local kubelet --rootfs=<machine root>`): every node path it is given is below the machine's root directory
// and its node name is the machine's hostname. gardener-node-agent writes the kubelet's bootstrap kubeconfig from the
// bootstrap token file (`/var/lib/gardener-node-agent/credentials/bootstrap-token`) and its `apiServer` settings
// while the kubelet has no client certificate yet (Gardener's KubeletBootstrapKubeconfig bootstrapper). The machine
// chooses the kubelet's host ports (the machines of one host share them) and tells node-agent's health check.
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { dirname } from 'node:path';
import { stringify } from 'yaml';
import type { Logger } from '@gardener-ts/logging';
import { nodePath } from '../units/paths.js';
import type { ProgramLauncher } from '../units/runner.js';

/** Where the kubelet's binary is on a Gardener node (the kubelet unit's ExecStart). */
export const KubeletBinary = '/opt/bin/kubelet';
/** The kubelet's directory on a Gardener node. */
export const KubeletDirectory = '/var/lib/kubelet';
/** The kubelet's bootstrap kubeconfig (`--bootstrap-kubeconfig`). */
export const KubeletBootstrapKubeconfigPath = `${KubeletDirectory}/kubeconfig-bootstrap`;
/** The kubelet's kubeconfig with its client certificate after the TLS bootstrap (`--kubeconfig`). */
export const KubeletKubeconfigPath = `${KubeletDirectory}/kubeconfig-real`;
/** The kubelet's current client certificate (kube's `<root-dir>/pki/kubelet-client-current.pem`). */
export const KubeletClientCertificatePath = `${KubeletDirectory}/pki/kubelet-client-current.pem`;
/** The bootstrap token gardener-node-agent is provisioned with (Gardener's BootstrapTokenFilePath). */
export const BootstrapTokenFilePath = '/var/lib/gardener-node-agent/credentials/bootstrap-token';

/** How the machine starts the substrate's kubelet: a Node.js binary and the gardener-local CLI bundle. */
export interface LocalKubeletCommand {
  /** The Node.js binary. */
  node: string;
  /** `<workspace>/dist/tools/gardener-local/cli.js`. */
  cli: string;
  /** V8 flags for the binary (the machine program passes its own, e.g. the image map's `--max-semi-space-size`). */
  nodeFlags?: readonly string[];
  /**
   * Runs the kubelet inside the machine's own process instead (the same arguments without `cli kubelet`; resolves once
   * the signal has stopped it): one Node.js runtime less per machine.
   */
  inProcess?: (args: string[], signal: AbortSignal) => Promise<void>;
  /**
   * The addresses of the node's Pods (`--pod-cidr`): the /24 the machine's own Pod was given (GARDENER_LOCAL_POD_CIDR),
   * so the node's Pods each get an address, as a real node's get theirs from its pod CIDR. Without it they share the
   * host's address and replicas of one workload cannot listen on the same port.
   */
  podCIDR?: string;
}

/** The host ports a machine gives its kubelet: all machines of a host share its ports, so none may use kube's fixed ones. */
export interface LocalKubeletPorts {
  /** The healthz port (kube's 10248), which gardener-node-agent's health check asks. */
  healthzPort: number;
}

/**
 * The Service table kube-proxy publishes on a local machine (the local proxy's state file in the node's
 * `/var/lib/kube-proxy`): the node's Pods reach Services by name and ClusterIP through it.
 */
export const KubeProxyServicesFile = '/var/lib/kube-proxy/services.json';

/**
 * `/opt/bin/kubelet` on a local machine: `gardener-local kubelet --rootfs=<machine root> <the unit's arguments>
 * --port=0 --healthz-port=<the machine's> --services-file=/var/lib/kube-proxy/services.json` — the HTTPS endpoint on
 * any free port (the Node's daemonEndpoints say which), the healthz endpoint on the port the machine chose (both win
 * over the KubeletConfiguration), the node's Pods given kube-proxy's Service table (a path of the machine) and, when the
 * machine has one, its pod CIDR (`--pod-cidr`). With
 * `inProcess`, the same arguments run inside the machine's process.
 */
export function localKubeletProgram(command: LocalKubeletCommand, ports: () => LocalKubeletPorts): ProgramLauncher {
  return (args, { rootDir }) => {
    const kubeletArgs = [
      `--rootfs=${rootDir}`,
      ...args,
      '--port=0',
      `--healthz-port=${ports().healthzPort}`,
      `--services-file=${KubeProxyServicesFile}`,
      ...(command.podCIDR ? [`--pod-cidr=${command.podCIDR}`] : []),
    ];
    const { inProcess } = command;
    if (inProcess) return { run: (signal) => inProcess(kubeletArgs, signal) };
    return { command: command.node, args: [...(command.nodeFlags ?? []), command.cli, 'kubelet', ...kubeletArgs] };
  };
}

/** A TCP port on 127.0.0.1 that is free right now. */
export function freeLocalPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The API server settings of NodeAgentConfiguration (`apiServer`). */
export interface NodeAgentApiServer {
  server: string;
  /** Base64-encoded CA bundle. */
  caBundle?: string;
}

/** The kubelet's bootstrap kubeconfig: the shoot's API server and CA, the bootstrap token as credentials. */
export function kubeletBootstrapKubeconfig(apiServer: NodeAgentApiServer, bootstrapToken: string): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name: 'kubelet-bootstrap',
        cluster: {
          server: apiServer.server,
          ...(apiServer.caBundle ? { 'certificate-authority-data': apiServer.caBundle } : {}),
        },
      },
    ],
    contexts: [{ name: 'kubelet-bootstrap', context: { cluster: 'kubelet-bootstrap', user: 'kubelet-bootstrap' } }],
    'current-context': 'kubelet-bootstrap',
    users: [{ name: 'kubelet-bootstrap', user: { token: bootstrapToken.trim() } }],
  });
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

/**
 * Writes the kubelet's bootstrap kubeconfig below `rootDir` unless there is nothing to bootstrap with (no bootstrap
 * token file) or nothing to bootstrap (the kubelet has its kubeconfig or client certificate already). Resolves to
 * whether it wrote the file.
 */
export async function writeKubeletBootstrapKubeconfig(
  rootDir: string,
  apiServer: NodeAgentApiServer,
  log: Logger,
): Promise<boolean> {
  const token = await readFile(nodePath(rootDir, BootstrapTokenFilePath), 'utf8').catch(() => undefined);
  if (token === undefined) {
    log.info({ path: BootstrapTokenFilePath }, 'Bootstrap token file does not exist, no kubelet bootstrap kubeconfig');
    return false;
  }
  for (const path of [KubeletKubeconfigPath, KubeletClientCertificatePath]) {
    if (await exists(nodePath(rootDir, path))) {
      log.info({ path }, 'Kubelet has its credentials already, no kubelet bootstrap kubeconfig');
      return false;
    }
  }
  const target = nodePath(rootDir, KubeletBootstrapKubeconfigPath);
  await mkdir(dirname(target), { recursive: true });
  await writeFile(target, kubeletBootstrapKubeconfig(apiServer, token), { mode: 0o600 });
  log.info({ path: KubeletBootstrapKubeconfigPath }, 'Wrote the kubelet bootstrap kubeconfig');
  return true;
}
