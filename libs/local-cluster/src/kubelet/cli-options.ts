// Command-line flags of the local kubelet, for the CLI that starts it (`gardener-local kubelet ...`).
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { KubeletOptions } from './options.js';

export const KUBELET_USAGE = `Usage:
  kubelet --kubeconfig FILE --node-name NAME --data-dir DIR [--image-map FILE] [--workspace DIR] [--port N]
          [--client-ca-file FILE] [--pod-cidr 127.X.Y.0/16..24] [--services-file FILE] [--node-labels k=v,...]
          [--lease-renew-seconds N] [--rotate-server-certificates | --server-tls-bootstrap]
          [--restart-backoff-seconds N] [--restart-backoff-max-seconds N]
          [--container-log-max-size QUANTITY] [--container-log-max-files N]
`;

/** Parses kubelet flags into options; throws an Error whose message says which flag is wrong. */
export function parseKubeletFlags(argv: string[]): KubeletOptions {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      kubeconfig: { type: 'string' },
      'node-name': { type: 'string' },
      'data-dir': { type: 'string' },
      'image-map': { type: 'string' },
      workspace: { type: 'string' },
      port: { type: 'string' },
      'client-ca-file': { type: 'string' },
      'pod-cidr': { type: 'string' },
      'services-file': { type: 'string' },
      'node-labels': { type: 'string' },
      'lease-renew-seconds': { type: 'string' },
      'restart-backoff-seconds': { type: 'string' },
      'restart-backoff-max-seconds': { type: 'string' },
      'container-log-max-size': { type: 'string' },
      'container-log-max-files': { type: 'string' },
      // kube's flag for serverTLSBootstrap, and the config field's name as a flag.
      'rotate-server-certificates': { type: 'boolean' },
      'server-tls-bootstrap': { type: 'boolean' },
    },
  });
  for (const flag of ['kubeconfig', 'node-name', 'data-dir'] as const) {
    if (!values[flag]) throw new Error(`--${flag} is required`);
  }
  const seconds = (flag: keyof typeof values) => {
    const raw = values[flag] as string | undefined;
    if (raw === undefined) return undefined;
    const n = Number(raw);
    if (!Number.isFinite(n) || n <= 0)
      throw new Error(`--${flag} must be a positive number of seconds, got ${JSON.stringify(raw)}`);
    return n * 1000;
  };
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535))
    throw new Error(`--port must be a port number, got ${JSON.stringify(values.port)}`);
  const maxFiles =
    values['container-log-max-files'] === undefined ? undefined : Number(values['container-log-max-files']);
  if (maxFiles !== undefined && (!Number.isInteger(maxFiles) || maxFiles < 2)) {
    throw new Error(
      `--container-log-max-files must be an integer of at least 2, got ${JSON.stringify(values['container-log-max-files'])}`,
    );
  }
  const baseMs = seconds('restart-backoff-seconds');
  const maxMs = seconds('restart-backoff-max-seconds');
  return {
    kubeconfig: resolve(values.kubeconfig!),
    nodeName: values['node-name']!,
    dataDir: resolve(values['data-dir']!),
    imageMap: values['image-map'] ? resolve(values['image-map']) : undefined,
    workspace: values.workspace ? resolve(values.workspace) : undefined,
    port,
    clientCaFile: values['client-ca-file'] ? resolve(values['client-ca-file']) : undefined,
    podCIDR: values['pod-cidr'],
    servicesFile: values['services-file'] ? resolve(values['services-file']) : undefined,
    nodeLabels: values['node-labels'] ? parseLabels(values['node-labels']) : undefined,
    leaseRenewMs: seconds('lease-renew-seconds'),
    containerLogMaxSize: values['container-log-max-size'],
    containerLogMaxFiles: maxFiles,
    serverTLSBootstrap: values['rotate-server-certificates'] || values['server-tls-bootstrap'] ? true : undefined,
    backoff:
      baseMs !== undefined || maxMs !== undefined
        ? { ...(baseMs !== undefined ? { baseMs } : {}), ...(maxMs !== undefined ? { maxMs } : {}) }
        : undefined,
  };
}

function parseLabels(text: string): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const pair of text.split(',').filter(Boolean)) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new Error(`--node-labels: expected key=value, got ${JSON.stringify(pair)}`);
    labels[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return labels;
}
