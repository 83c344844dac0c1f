// Command-line flags of the local kubelet, for the CLI that starts it (`gardener-local kubelet ...`). kube's own flags
// are accepted where they mean something here (`--kubeconfig`, `--bootstrap-kubeconfig`, `--cert-dir`, `--config`,
// `--hostname-override`, `--root-dir`, `--node-labels` (repeatable), `--register-with-taints`, `--pod-cidr`, `--port`,
// `--client-ca-file`, `--rotate-server-certificates`, `--container-log-max-*`); those that configure what local mode
// does not have (container runtime, cgroups, verbosity, ...) are accepted and reported as ignored. `--rootfs DIR`
// (kubeadm's name) runs the kubelet for a machine whose files live below DIR: absolute paths in flags and in the
// KubeletConfiguration are taken below it, and the node name defaults to the machine's `/etc/hostname`.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parse as parseYaml } from 'yaml';
import { parseDuration } from '@gardener-ts/api';
import type { KubeletOptions, Taint } from './options.js';

export const KUBELET_USAGE = `Usage:
  kubelet --kubeconfig FILE [--bootstrap-kubeconfig FILE] [--cert-dir DIR] [--config FILE]
          [--hostname-override NAME | --node-name NAME] [--root-dir DIR | --data-dir DIR] [--rootfs DIR]
          [--image-map FILE] [--workspace DIR] [--port N] [--healthz-port N] [--healthz-bind-address IP]
          [--client-ca-file FILE] [--pod-cidr 127.X.Y.0/16..24]
          [--services-file FILE] [--node-labels k=v,...]... [--register-with-taints k=v:Effect,...]
          [--lease-renew-seconds N] [--rotate-server-certificates | --server-tls-bootstrap]
          [--restart-backoff-seconds N] [--restart-backoff-max-seconds N]
          [--container-log-max-size QUANTITY] [--container-log-max-files N]
`;

/** kube kubelet flags that configure what local mode does not have: accepted, reported, without effect. */
const IGNORED_FLAGS = [
  'v',
  'container-runtime-endpoint',
  'runtime-cgroups',
  'node-ip',
  'provider-id',
  'cloud-provider',
  'cgroup-driver',
  'pod-infra-container-image',
  'image-credential-provider-config',
  'image-credential-provider-bin-dir',
  'volume-plugin-dir',
] as const;

/** The kubelet's command line, parsed: the options of the flags and what the command does before it starts. */
export interface KubeletCommandLine {
  /** The options the flags set (the KubeletConfiguration of `configFile` is not applied yet). */
  options: KubeletOptions;
  /** `--bootstrap-kubeconfig`: TLS bootstrap when the kubeconfig is missing or expired. */
  bootstrapKubeconfig?: string;
  /** `--cert-dir`; kube's default is `<root-dir>/pki`. */
  certDir: string;
  /** `--config`: a KubeletConfiguration file (see loadKubeletConfiguration). */
  configFile?: string;
  /** `--rootfs`: the machine's root directory. */
  rootfs?: string;
  /** Flags that were given but have no effect in local mode (`--v=2`, ...). */
  ignored: string[];
}

/** Parses the kubelet's flags; throws an Error whose message says which flag is wrong. */
export function parseKubeletCommandLine(argv: string[]): KubeletCommandLine {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      kubeconfig: { type: 'string' },
      'bootstrap-kubeconfig': { type: 'string' },
      'cert-dir': { type: 'string' },
      config: { type: 'string' },
      rootfs: { type: 'string' },
      'node-name': { type: 'string' },
      'hostname-override': { type: 'string' },
      'data-dir': { type: 'string' },
      'root-dir': { type: 'string' },
      'image-map': { type: 'string' },
      workspace: { type: 'string' },
      port: { type: 'string' },
      'healthz-port': { type: 'string' },
      'healthz-bind-address': { type: 'string' },
      'client-ca-file': { type: 'string' },
      'pod-cidr': { type: 'string' },
      'services-file': { type: 'string' },
      'node-labels': { type: 'string', multiple: true },
      'register-with-taints': { type: 'string', multiple: true },
      'lease-renew-seconds': { type: 'string' },
      'restart-backoff-seconds': { type: 'string' },
      'restart-backoff-max-seconds': { type: 'string' },
      'container-log-max-size': { type: 'string' },
      'container-log-max-files': { type: 'string' },
      // kube's flag for serverTLSBootstrap, and the config field's name as a flag.
      'rotate-server-certificates': { type: 'boolean' },
      'server-tls-bootstrap': { type: 'boolean' },
      ...Object.fromEntries(IGNORED_FLAGS.map((flag) => [flag, { type: 'string' as const }])),
    },
  });
  const given = values as Record<string, unknown>;
  const rootfs = values.rootfs ? resolve(values.rootfs) : undefined;
  const path = (p: string) => nodePath(p, rootfs);
  if (!values.kubeconfig) throw new Error('--kubeconfig is required');
  const dataDirFlag = values['root-dir'] ?? values['data-dir'];
  if (!dataDirFlag && !rootfs) throw new Error('--root-dir (or --data-dir) is required');
  const dataDir = path(dataDirFlag ?? '/var/lib/kubelet');
  const nodeName = (values['hostname-override'] ?? values['node-name'] ?? hostname(rootfs)).trim().toLowerCase();
  if (!nodeName) throw new Error('--hostname-override: the node name is empty');
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
  const healthzPort = values['healthz-port'] === undefined ? undefined : Number(values['healthz-port']);
  if (healthzPort !== undefined && (!Number.isInteger(healthzPort) || healthzPort < 0 || healthzPort > 65535))
    throw new Error(`--healthz-port must be a port number, got ${JSON.stringify(values['healthz-port'])}`);
  const maxFiles =
    values['container-log-max-files'] === undefined ? undefined : Number(values['container-log-max-files']);
  if (maxFiles !== undefined && (!Number.isInteger(maxFiles) || maxFiles < 2)) {
    throw new Error(
      `--container-log-max-files must be an integer of at least 2, got ${JSON.stringify(values['container-log-max-files'])}`,
    );
  }
  const baseMs = seconds('restart-backoff-seconds');
  const maxMs = seconds('restart-backoff-max-seconds');
  const labels = values['node-labels'] as string[] | undefined;
  const taints = values['register-with-taints'] as string[] | undefined;
  const options: KubeletOptions = {
    kubeconfig: path(values.kubeconfig),
    nodeName,
    dataDir,
    imageMap: values['image-map'] ? resolve(values['image-map']) : undefined,
    workspace: values.workspace ? resolve(values.workspace) : undefined,
    port,
    // kube: 0 disables the healthz endpoint.
    healthzPort: healthzPort || undefined,
    healthzBindAddress: values['healthz-bind-address'],
    clientCaFile: values['client-ca-file'] ? path(values['client-ca-file']) : undefined,
    podCIDR: values['pod-cidr'],
    servicesFile: values['services-file'] ? path(values['services-file']) : undefined,
    hostPathRoot: rootfs,
    nodeLabels: labels?.length ? Object.assign({}, ...labels.map(parseLabels)) : undefined,
    registerWithTaints: taints?.length ? taints.flatMap(parseTaints) : undefined,
    leaseRenewMs: seconds('lease-renew-seconds'),
    containerLogMaxSize: values['container-log-max-size'],
    containerLogMaxFiles: maxFiles,
    serverTLSBootstrap: values['rotate-server-certificates'] || values['server-tls-bootstrap'] ? true : undefined,
    backoff:
      baseMs !== undefined || maxMs !== undefined
        ? { ...(baseMs !== undefined ? { baseMs } : {}), ...(maxMs !== undefined ? { maxMs } : {}) }
        : undefined,
  };
  return {
    options,
    bootstrapKubeconfig: values['bootstrap-kubeconfig'] ? path(values['bootstrap-kubeconfig']) : undefined,
    certDir: values['cert-dir'] ? path(values['cert-dir']) : join(dataDir, 'pki'),
    configFile: values.config ? path(values.config) : undefined,
    rootfs,
    ignored: IGNORED_FLAGS.filter((flag) => given[flag] !== undefined).map((flag) => `--${flag}=${given[flag]}`),
  };
}

/** Parses kubelet flags into options (without a KubeletConfiguration file); see parseKubeletCommandLine. */
export function parseKubeletFlags(argv: string[]): KubeletOptions {
  return parseKubeletCommandLine(argv).options;
}

/** What a KubeletConfiguration file sets, and the fields it sets that have no effect in local mode. */
export interface KubeletConfigurationOptions {
  options: Partial<KubeletOptions>;
  ignored: string[];
}

/** KubeletConfiguration fields that configure what local mode does not have. */
const APPLIED_FIELDS = new Set([
  'apiVersion',
  'kind',
  'port',
  'healthzPort',
  'healthzBindAddress',
  'authentication',
  'serverTLSBootstrap',
  'containerLogMaxSize',
  'containerLogMaxFiles',
  'nodeStatusUpdateFrequency',
  'nodeStatusReportFrequency',
  'nodeLeaseDurationSeconds',
  'registerWithTaints',
  'podCIDR',
  'shutdownGracePeriod',
]);

/**
 * Reads a KubeletConfiguration (kubelet.config.k8s.io/v1beta1) and maps the fields that apply: port, healthzPort and
 * healthzBindAddress,
 * authentication.x509.clientCAFile (relative to the file's directory, absolute ones below `rootfs`), serverTLSBootstrap,
 * containerLogMaxSize/Files, nodeStatusUpdateFrequency/ReportFrequency, nodeLeaseDurationSeconds (renewed every
 * quarter of it, as kube), registerWithTaints, podCIDR and shutdownGracePeriod (the longest a Pod gets on stop).
 */
export async function loadKubeletConfiguration(file: string, rootfs?: string): Promise<KubeletConfigurationOptions> {
  let config: Record<string, unknown>;
  try {
    config = (parseYaml(await readFile(file, 'utf8')) ?? {}) as Record<string, unknown>;
  } catch (err) {
    throw new Error(`--config ${file}: not a readable KubeletConfiguration`, { cause: err });
  }
  if (config.kind !== 'KubeletConfiguration')
    throw new Error(`--config ${file}: kind is ${JSON.stringify(config.kind)}, expected KubeletConfiguration`);
  const field = (name: string) => `--config ${file}: ${name}`;
  const duration = (name: string): number | undefined => {
    const raw = config[name];
    if (raw === undefined || raw === null) return undefined;
    const ms = typeof raw === 'string' ? parseDuration(raw) : undefined;
    if (ms === undefined || ms < 0) throw new Error(`${field(name)} is not a duration: ${JSON.stringify(raw)}`);
    return ms;
  };
  const options: Partial<KubeletOptions> = {};
  if (config.port !== undefined) {
    if (!Number.isInteger(config.port) || (config.port as number) < 0 || (config.port as number) > 65535)
      throw new Error(`${field('port')} is not a port number: ${JSON.stringify(config.port)}`);
    options.port = config.port as number;
  }
  if (config.healthzPort !== undefined) {
    const healthz = config.healthzPort;
    if (!Number.isInteger(healthz) || (healthz as number) < 0 || (healthz as number) > 65535)
      throw new Error(`${field('healthzPort')} is not a port number: ${JSON.stringify(healthz)}`);
    if (healthz) options.healthzPort = healthz as number; // kube: 0 disables it
  }
  if (typeof config.healthzBindAddress === 'string' && config.healthzBindAddress)
    options.healthzBindAddress = config.healthzBindAddress;
  const authentication = config.authentication as { x509?: { clientCAFile?: string } } | undefined;
  const clientCAFile = authentication?.x509?.clientCAFile;
  if (clientCAFile)
    options.clientCaFile = isAbsolute(clientCAFile)
      ? nodePath(clientCAFile, rootfs)
      : resolve(dirname(file), clientCAFile);
  if (typeof config.serverTLSBootstrap === 'boolean' && config.serverTLSBootstrap) options.serverTLSBootstrap = true;
  if (config.containerLogMaxSize !== undefined) options.containerLogMaxSize = config.containerLogMaxSize as string;
  if (config.containerLogMaxFiles !== undefined) options.containerLogMaxFiles = config.containerLogMaxFiles as number;
  const updateMs = duration('nodeStatusUpdateFrequency');
  if (updateMs) options.nodeStatusUpdateMs = updateMs;
  const reportMs = duration('nodeStatusReportFrequency');
  if (reportMs) options.nodeStatusReportMs = reportMs;
  if (config.nodeLeaseDurationSeconds !== undefined) {
    const lease = config.nodeLeaseDurationSeconds;
    if (!Number.isInteger(lease) || (lease as number) <= 0)
      throw new Error(`${field('nodeLeaseDurationSeconds')} must be a positive integer, got ${JSON.stringify(lease)}`);
    options.leaseRenewMs = (lease as number) * 250;
  }
  if (Array.isArray(config.registerWithTaints)) {
    options.registerWithTaints = (config.registerWithTaints as Taint[]).map((t, i) => {
      if (!t?.key || !['NoSchedule', 'PreferNoSchedule', 'NoExecute'].includes(t.effect))
        throw new Error(`${field(`registerWithTaints[${i}]`)} needs a key and an effect, got ${JSON.stringify(t)}`);
      return { key: t.key, ...(t.value ? { value: t.value } : {}), effect: t.effect };
    });
  }
  if (typeof config.podCIDR === 'string' && config.podCIDR) options.podCIDR = config.podCIDR;
  const shutdownMs = duration('shutdownGracePeriod');
  if (shutdownMs) options.shutdownGraceMs = shutdownMs;
  return { options, ignored: Object.keys(config).filter((k) => !APPLIED_FIELDS.has(k)) };
}

/** The options of a command line with its KubeletConfiguration applied: flags given on the command line win. */
export async function kubeletOptions(
  commandLine: KubeletCommandLine,
): Promise<{ options: KubeletOptions; ignored: string[] }> {
  if (!commandLine.configFile) return { options: commandLine.options, ignored: commandLine.ignored };
  const fromFile = await loadKubeletConfiguration(commandLine.configFile, commandLine.rootfs);
  const flags = Object.fromEntries(Object.entries(commandLine.options).filter(([, v]) => v !== undefined));
  return {
    options: { ...fromFile.options, ...flags } as KubeletOptions,
    ignored: [...commandLine.ignored, ...fromFile.ignored.map((f) => `${f} (KubeletConfiguration)`)],
  };
}

/** A node path: absolute paths below the machine's root directory when there is one, others from the cwd. */
function nodePath(path: string, rootfs: string | undefined): string {
  return rootfs && isAbsolute(path) ? join(rootfs, path) : resolve(path);
}

/** kube's default node name: the host name, here the machine's `/etc/hostname` when there is a rootfs. */
function hostname(rootfs: string | undefined): string {
  if (!rootfs) return os.hostname();
  try {
    return readFileSync(join(rootfs, 'etc/hostname'), 'utf8');
  } catch {
    throw new Error(`--hostname-override is required: ${join(rootfs, 'etc/hostname')} cannot be read`);
  }
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

/** kube's `--register-with-taints`: `key=value:Effect` or `key:Effect`, comma-separated. */
function parseTaints(text: string): Taint[] {
  return text
    .split(',')
    .filter(Boolean)
    .map((spec) => {
      const match = /^([^=:]+)(?:=([^:]*))?:(NoSchedule|PreferNoSchedule|NoExecute)$/.exec(spec);
      if (!match)
        throw new Error(
          `--register-with-taints: expected key=value:Effect (NoSchedule, PreferNoSchedule, NoExecute), got ${JSON.stringify(spec)}`,
        );
      return { key: match[1]!, ...(match[2] ? { value: match[2] } : {}), effect: match[3]! };
    });
}
